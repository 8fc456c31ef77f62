import { VITALS_EVENT } from '../../shared/analytics/vitals';
import type { PageState } from '../protocol';
import {
  $events,
  analyticsUserId,
  type PurchasePlace,
  pendingPurchases,
  takePendingPurchases,
} from '../stores/events';
import { takeAcknowledgedBatches } from './ack-cookie';
import { pageProperties } from './build-event';
import { connectTracker, EARLY_EVENTS_KEY, type EarlyPage, type EmittedEvent } from './emit';
import { notifyListeners } from './listeners';
import { fannedOut, purchaseEvent } from './page-events';
import type { AnalyticsLog, KeyValueStorage } from './storage';
import { createTracker, type EventOrigin, type Tracker } from './tracker-core';
import type { UploadTransport } from './uploader';
import type { measureVitals } from './vitals';

/**
 * The browser side of the tracker, imported lazily by start.ts once the page is idle: wires the
 * pure tracker (tracker-core.ts) to localStorage, fetch, sendBeacon and the page's life, and
 * emits what every page emits. Nothing here may throw into the screen: failures are logged.
 */

/** A request the collector has not answered by then is treated as lost and sent again later. */
const POST_TIMEOUT_MS = 20_000;

const JSON_TYPE = 'application/json';

/**
 * The collector drops events older than this (worker/collector/intake-rules.ts MAX_EVENT_AGE_MS):
 * a handed-over page's events waiting longer are dropped here rather than sent for nothing.
 */
const EARLY_EVENT_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

const consoleLog: AnalyticsLog = {
  info: (message) => console.info(`[analytics] ${message}`),
  warn: (message, detail) => console.warn(`[analytics] ${message}`, detail ?? ''),
};

/** Analytics never breaks the page: a failure is logged and the page goes on. */
function withoutThrowing(run: () => void): void {
  try {
    run();
  } catch (error) {
    consoleLog.warn('failed', error);
  }
}

const browserTransport: UploadTransport = {
  async post(url, body) {
    try {
      const response = await fetch(url, {
        method: 'POST',
        body,
        headers: { 'content-type': JSON_TYPE },
        credentials: 'same-origin',
        // A batch sent just before the visitor moves on still arrives.
        keepalive: true,
        signal: AbortSignal.timeout(POST_TIMEOUT_MS),
      });
      return response.status;
    } catch {
      return 0;
    }
  },
  beacon(url, body) {
    try {
      // Offline, the browser takes a beacon and loses it: the events wait for a later page.
      if (navigator.onLine === false) return false;
      if (navigator.sendBeacon?.(url, new Blob([body], { type: JSON_TYPE }))) return true;
      // Over the beacon quota, or no sendBeacon: a keepalive fetch outlives the page as well.
      fetch(url, {
        method: 'POST',
        body,
        headers: { 'content-type': JSON_TYPE },
        credentials: 'same-origin',
        keepalive: true,
      }).catch(() => {});
      return true;
    } catch {
      return false;
    }
  },
  acknowledged() {
    try {
      return takeAcknowledgedBatches(document, navigator.cookieEnabled);
    } catch {
      return null;
    }
  },
};

function randomUuid(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // Pages served over plain http (a local network) have getRandomValues but not randomUUID.
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** 12 random hex digits (shared/analytics/acknowledgement.ts): a v4 uuid's first 48 bits. */
const randomBatchId = () => randomUuid().replace(/-/g, '').slice(0, 12);

function localStorageOrNull(): KeyValueStorage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** What every event of the page at `path` carries, and whose they are. */
export function originOf(page: PageState, path: string): EventOrigin {
  return {
    properties: pageProperties({
      screen: page.screen,
      path,
      variant: page.variant,
      flow: page.flow,
      configVersion: page.configVersion,
      route: page.route,
      source: page.source,
      inApp: page.inApp ?? null,
      tracking: page.analytics.tracking,
      answers: page.answers,
    }),
    deviceId: page.analytics.visitorId,
  };
}

function isEarlyPage(value: unknown): value is EarlyPage {
  const early = value as Partial<EarlyPage> | null;
  return (
    typeof early?.path === 'string' &&
    typeof early.page?.screen === 'string' &&
    typeof early.page.analytics?.visitorId === 'string' &&
    Array.isArray(early.events)
  );
}

/**
 * The events of pages left before their tracker loaded (start.ts), in this tab or another, this
 * visit or an earlier one: taken once (read and removed in one go, so two tabs never both send
 * a page), those too old for the collector left out.
 */
function takeEarlyPages(now: number): EarlyPage[] {
  try {
    const raw = localStorage.getItem(EARLY_EVENTS_KEY);
    if (raw === null) return [];
    localStorage.removeItem(EARLY_EVENTS_KEY);
    const pages: unknown = JSON.parse(raw);
    if (!Array.isArray(pages)) return [];
    return pages.filter(isEarlyPage).map((early) => ({
      ...early,
      events: early.events.filter(
        (event) => typeof event?.time === 'number' && now - event.time <= EARLY_EVENT_MAX_AGE_MS,
      ),
    }));
  } catch {
    return [];
  }
}

/**
 * An event as reported, tracked on the page it happened on, as the user it happened to (the id
 * emit.ts read then; older handed-over events without one take the current id); a page's load
 * and a click fan out.
 */
function report(tracker: Tracker, event: EmittedEvent, screen: string, origin: EventOrigin): void {
  if (typeof event?.name !== 'string' || typeof event.time !== 'number') return;
  const userId =
    event.userId === null || typeof event.userId === 'string' ? { userId: event.userId } : {};
  for (const name of fannedOut(screen, event)) {
    tracker.track(name, event.properties, { time: event.time, origin, ...userId });
  }
}

/** The page a purchase was made on, from what was stored of it; this page for the rest. */
function purchaseOrigin(page: PageState, place: PurchasePlace): EventOrigin {
  return originOf(
    {
      ...page,
      screen: place.screen ?? page.screen,
      variant: place.variant ?? page.variant,
      flow: place.flow ?? page.flow,
      configVersion: place.configVersion ?? page.configVersion,
    },
    place.path ?? location.pathname,
  );
}

/**
 * The payment's hand-off (islands/stores/events.ts): each purchase becomes one event, once, at
 * the time and on the screen it was made (entries queued without them: now, on this page).
 */
function drainPurchases(tracker: Tracker, page: PageState): void {
  if (pendingPurchases().length === 0) return;
  for (const { payload, place } of takePendingPurchases()) {
    const { name, properties } = purchaseEvent(payload);
    tracker.track(name, properties, { time: place.time, origin: purchaseOrigin(page, place) });
  }
}

function run(page: PageState, measure: typeof measureVitals | null): void {
  const origin = originOf(page, location.pathname);
  const tracker = createTracker({
    origin,
    collector: page.analytics.collector,
    storage: localStorageOrNull(),
    transport: browserTransport,
    timers: {
      setTimeout: (callback, ms) => setTimeout(callback, ms),
      clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    },
    now: Date.now,
    randomId: randomUuid,
    batchId: randomBatchId,
    userId: analyticsUserId,
    notify: notifyListeners,
    log: consoleLog,
  });

  for (const early of takeEarlyPages(Date.now())) {
    const earlyOrigin = originOf(early.page, early.path);
    for (const event of early.events) report(tracker, event, early.page.screen, earlyOrigin);
  }
  const waited = connectTracker((event) => report(tracker, event, page.screen, origin));
  for (const event of waited) report(tracker, event, page.screen, origin);

  drainPurchases(tracker, page);
  $events.listen(() => withoutThrowing(() => drainPurchases(tracker, page)));

  // Before the leaving listeners: the library's own hidden listeners then run first.
  const vitals = page.analytics.vitals && measure ? measure(page.analytics.vitals) : null;
  const reportVitals = () => {
    const properties = vitals?.take();
    if (properties) tracker.track(VITALS_EVENT, properties);
  };

  // The page may never come back from hidden (a closed tab, a killed mobile browser).
  const leaving = () =>
    withoutThrowing(() => {
      reportVitals();
      tracker.sendByBeacon();
    });
  window.addEventListener('pagehide', leaving);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') leaving();
  });
  tracker.start();
}

let started = false;

/**
 * Starts this page's tracker once (boot hands it the page's state through start.ts), with the
 * field vitals' observers where the page is sampled for them (./vitals.ts, a chunk start.ts
 * fetches beside this one only for such a page).
 */
export function startTracker(page: PageState, measure: typeof measureVitals | null = null): void {
  if (started) return;
  started = true;
  withoutThrowing(() => run(page, measure));
}

export { subscribe } from './listeners';
