import type { AdPixel } from './ad-pixel';
import { pixelEventName } from './purchase';

export const TIKTOK_SCRIPT_URL = 'https://analytics.tiktok.com/i18n/pixel/events.js';

/** The methods TikTok's base code defers until events.js has loaded. */
const METHODS = [
  'page',
  'track',
  'identify',
  'instances',
  'debug',
  'on',
  'off',
  'once',
  'ready',
  'alias',
  'group',
  'enableCookie',
  'disableCookie',
  'holdConsent',
  'revokeConsent',
  'grantConsent',
] as const;

type Deferred = (...args: unknown[]) => void;
type Queue = unknown[][];
/** A queue with the deferring methods: `ttq` itself, and each pixel's instance. */
type DeferringQueue = Queue & Record<(typeof METHODS)[number], Deferred>;

/** `ttq` of TikTok's base code: an array of `[method, ...args]` that events.js replays. */
export interface Ttq extends Queue, Record<(typeof METHODS)[number], Deferred> {
  methods: readonly string[];
  setAndDefer(target: Queue, method: string): void;
  instance(pixelId: string): DeferringQueue;
  load(pixelId: string, options?: object): void;
  _i: Record<string, Queue & { _u?: string }>;
  _t: Record<string, number>;
  _o: Record<string, object>;
}

export interface TiktokGlobals {
  TiktokAnalyticsObject?: string;
  ttq?: Ttq;
}

function setAndDefer(target: Queue, method: string): void {
  (target as unknown as Record<string, Deferred>)[method] = (...args) => {
    target.push([method, ...args]);
  };
}

function ttqStub(): Ttq {
  const ttq = [] as unknown as Ttq;
  ttq.methods = METHODS;
  ttq.setAndDefer = setAndDefer;
  for (const method of METHODS) setAndDefer(ttq, method);
  ttq._i = {};
  ttq._t = {};
  ttq._o = {};
  ttq.instance = (pixelId) => {
    const queue = ttq._i[pixelId] ?? [];
    for (const method of METHODS) setAndDefer(queue, method);
    return queue as DeferringQueue;
  };
  // The base code's load also adds the script; here the caller loads what install() returns.
  ttq.load = (pixelId, options = {}) => {
    const queue: Queue & { _u?: string } = [];
    queue._u = TIKTOK_SCRIPT_URL;
    ttq._i[pixelId] = queue;
    ttq._t[pixelId] = Date.now();
    ttq._o[pixelId] = options;
  };
  return ttq;
}

/**
 * TikTok's pixel: `load` and `page` on every page; a purchase is `CompletePayment`
 * (`CompletePayment_test` outside production, SPEC.md §9) with the Events API's `event_id`, so
 * TikTok counts the browser's and the server's report once.
 */
export function tiktokPixel(win: TiktokGlobals, pixelId: string, production: boolean): AdPixel {
  return {
    name: 'tiktok',
    install() {
      win.TiktokAnalyticsObject = 'ttq';
      win.ttq ??= ttqStub();
      win.ttq.load(pixelId);
      win.ttq.page();
      return `${TIKTOK_SCRIPT_URL}?sdkid=${encodeURIComponent(pixelId)}&lib=ttq`;
    },
    purchase({ value, currency, plan, eventId }) {
      win.ttq?.track(
        pixelEventName('CompletePayment', production),
        { value, currency, content_id: plan, content_type: 'product' },
        { event_id: eventId },
      );
    },
  };
}
