import type { AdPixel } from './ad-pixel';
import { pixelEventName } from './purchase';

const META_SCRIPT_URL = 'https://connect.facebook.net/en_US/fbevents.js';

/** The `fbq` of Meta's base code: it queues calls until fbevents.js sets `callMethod`. */
export interface Fbq {
  (...args: unknown[]): void;
  callMethod?: (...args: unknown[]) => void;
  queue: unknown[][];
  push: Fbq;
  loaded: boolean;
  version: string;
}

export interface MetaGlobals {
  fbq?: Fbq;
  _fbq?: Fbq;
}

function fbqStub(): Fbq {
  const fbq = ((...args: unknown[]) => {
    if (fbq.callMethod) fbq.callMethod.apply(fbq, args);
    else fbq.queue.push(args);
  }) as Fbq;
  fbq.push = fbq;
  fbq.loaded = true;
  fbq.version = '2.0';
  fbq.queue = [];
  return fbq;
}

/**
 * Meta's pixel: `init` and `PageView` on every page; a purchase is the standard `Purchase`
 * (outside production the custom `Purchase_test`, SPEC.md §9) with the Conversions API's event
 * id as `eventID`, so Meta counts the browser's and the server's report once.
 */
export function metaPixel(win: MetaGlobals, pixelId: string, production: boolean): AdPixel {
  return {
    name: 'meta',
    install() {
      if (!win.fbq) {
        const fbq = fbqStub();
        win.fbq = fbq;
        win._fbq ??= fbq;
      }
      win.fbq('init', pixelId);
      win.fbq('track', 'PageView');
      return META_SCRIPT_URL;
    },
    purchase({ value, currency, plan, eventId }) {
      const data = { value, currency, content_ids: [plan], content_type: 'product' };
      const options = { eventID: eventId };
      if (production) win.fbq?.('track', 'Purchase', data, options);
      else win.fbq?.('trackCustom', pixelEventName('Purchase', production), data, options);
    },
  };
}
