import type { ConsentAnswer } from '../../../islands/pixels/consent';
import type { Fbq } from '../../../islands/pixels/meta';
import type { PixelDeps, PixelSettings } from '../../../islands/pixels/run';
import type { Ttq } from '../../../islands/pixels/tiktok';
import type { CollectedEvent } from '../../../shared/analytics/batch';
import type { PixelIds } from '../../../shared/analytics/tracking';

export const ALL_PIXELS: PixelIds = {
  meta: '1234567890',
  tiktok: 'CTIKTOK123',
  googleAds: { id: 'AW-555', conversionLabel: 'buyLabel' },
  appsflyer: null,
  clarity: null,
};

export const NO_PIXELS: PixelIds = {
  meta: null,
  tiktok: null,
  googleAds: null,
  appsflyer: null,
  clarity: null,
};

export function settings(overrides: Partial<PixelSettings> = {}): PixelSettings {
  return { consent: 'not_required', pixels: ALL_PIXELS, production: true, ...overrides };
}

/** A purchase event as the tracker hands it to listeners (SPEC.md §3 purchase payload). */
export function purchaseEvent(
  payload: Record<string, string | number | null> = {},
  eventType = 'subs_purchase_completed',
): CollectedEvent {
  return {
    event_type: eventType,
    insert_id: `insert-${Math.random()}`,
    time: 1_700_000_000_000,
    session_id: 1_700_000_000_000,
    device_id: 'visitor',
    user_id: null,
    event_properties: {
      screen_name: 'upsell_an_private',
      price: 6.99,
      currency: 'usd',
      plan: 'monthly_intro_7d_usd',
      sub_id: 'sub_1',
      event_id: 'evt_1',
      gclid: null,
      pixelName: 'Purchase_test',
      ...payload,
    },
  };
}

export function memoryStorage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
  };
}

/** The tracker's hub as the pixels see it: events heard so far are replayed to a new listener. */
function fakeHub() {
  const heard: CollectedEvent[] = [];
  const listeners = new Set<(event: CollectedEvent) => void>();
  return {
    subscriptions: [] as { replay: boolean }[],
    subscribe(listener: (event: CollectedEvent) => void, options: { replay: boolean }) {
      this.subscriptions.push(options);
      if (options.replay) for (const event of heard) listener(event);
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit(event: CollectedEvent) {
      heard.push(event);
      for (const listener of listeners) listener(event);
    },
  };
}

/** The banner's answer as a store: known() and listen() like $consentAnswer. */
function fakeConsent(initial: ConsentAnswer | null = null) {
  let answer = initial;
  const listeners = new Set<(answer: ConsentAnswer | null) => void>();
  return {
    known: () => answer,
    listen(listener: (answer: ConsentAnswer | null) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    answer(value: ConsentAnswer) {
      answer = value;
      for (const listener of [...listeners]) listener(value);
    },
  };
}

export type PixelWindow = PixelDeps['win'] & { fbq?: Fbq; ttq?: Ttq };

/** Everything one page run needs, recorded. */
export function fakePage(options: { storage?: ReturnType<typeof memoryStorage> } = {}) {
  const loaded: string[] = [];
  const hub = fakeHub();
  const consent = fakeConsent();
  const win: PixelWindow = {};
  const storage = options.storage ?? memoryStorage();
  const deps: PixelDeps = {
    win,
    loadScript: async (src) => {
      loaded.push(src);
    },
    storage,
    subscribe: (listener, subscribeOptions) => hub.subscribe(listener, subscribeOptions),
    consent,
  };
  return { deps, win, loaded, hub, consent, storage };
}

/** What gtag.js would read from dataLayer: each command as a plain array. */
export function gtagCommands(win: PixelWindow): unknown[][] {
  return (win.dataLayer ?? []).map((entry) => Array.from(entry as ArrayLike<unknown>));
}

/** The calls TikTok's events.js would replay, without the load bookkeeping. */
export function ttqCalls(win: PixelWindow): unknown[][] {
  return [...(win.ttq ?? [])];
}
