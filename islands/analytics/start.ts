import { isPaywallScreen } from '../../shared/screens';
import type { PageState } from '../protocol';
import { persistedKey } from '../stores/persisted-key';
import { listenForClicks } from './clicks';
import { EARLY_EVENTS_KEY, type EmittedEvent, emit, showPage, takeWaiting } from './emit';

/** At most this many pages' worth is kept for the next tracker (a visitor racing through). */
const EARLY_PAGES_MAX = 10;

/** How long after the load event the tracker waits at most for the main thread to be idle. */
const IDLE_TIMEOUT_MS = 2000;

/** A page whose islands never finish hydrating still gets its tracker after this. */
const INTERACTIVE_TIMEOUT_MS = 5000;

/** Loads the tracker once the main thread is idle; null until startAnalytics has run. */
let loadTracker: (() => void) | null = null;

/**
 * Hands events to the next tracker that loads, as having happened on `page` at `path`: this
 * page's own when it is left first, or an earlier page's that only this one learned of.
 */
export function handOnEvents(page: PageState, path: string, events: EmittedEvent[]): void {
  if (events.length === 0) return;
  try {
    const kept: unknown = JSON.parse(localStorage.getItem(EARLY_EVENTS_KEY) ?? '[]');
    const pages = [...(Array.isArray(kept) ? kept : []), { page, path, events }];
    localStorage.setItem(EARLY_EVENTS_KEY, JSON.stringify(pages.slice(-EARLY_PAGES_MAX)));
  } catch {
    // No localStorage (or it is full): these few events are lost, the page is not.
  }
}

function keepWaitingEvents(page: PageState): void {
  handOnEvents(page, location.pathname, takeWaiting());
}

/**
 * The stored `$checkout.isSuccess` (islands/stores/checkout.ts, persisted as JSON under
 * `gf:checkout:isSuccess`), read directly so boot does not load the store for this one check.
 */
const PURCHASE_SUCCEEDED_KEY = persistedKey('checkout', 'isSuccess');

/** SPEC.md §4 subs_purchase_screen_close: a checkout or paywall left without a purchase. */
function reportScreenClose(): void {
  try {
    if (localStorage.getItem(PURCHASE_SUCCEEDED_KEY) !== 'true') emit('subs_purchase_screen_close');
  } catch {
    emit('subs_purchase_screen_close');
  }
}

function runsAdPixels(page: PageState): boolean {
  const { meta, tiktok, googleAds } = page.analytics.pixels;
  return meta !== null || tiktok !== null || googleAds !== null;
}

function loadHeatmap(page: PageState): Promise<void> {
  return import('#browser-only/islands/heatmap/index')
    .then((heatmap) => heatmap.startHeatmap(page.analytics))
    .catch((error: unknown) => console.warn('[heatmap] did not load', error));
}

/** Runs `run` once the page has loaded and the main thread is idle; resolves with its result. */
function whenIdle<T>(run: () => T): Promise<T> {
  return new Promise((resolve) => {
    const go = () => resolve(run());
    const idle = () => {
      if ('requestIdleCallback' in window)
        window.requestIdleCallback(go, { timeout: IDLE_TIMEOUT_MS });
      else setTimeout(go, 1);
    };
    if (document.readyState === 'complete') idle();
    else window.addEventListener('load', idle, { once: true });
  });
}

/**
 * `<html data-analytics="started">`: the page's analytics start is done (the tracker, and the ad
 * pixels and heatmap where the page has them, loaded and started, or failed to load). What they
 * do next waits on the visitor's consent or on the network, not on the page. Tests wait on it
 * rather than on a fixed time (docs/testing.md); nothing in the product reads it.
 */
function markStarted(): void {
  document.documentElement.dataset.analytics = 'started';
}

/**
 * Imports the tracker and, where the deployment runs them, the ad pixels; resolves once both
 * have started or failed to load (never rejects).
 */
function loadTrackerAndPixels(page: PageState): Promise<unknown> {
  // Google's web-vitals only where the worker sampled the page for field vitals (about one
  // visitor in ten): fetched beside the tracker, which starts once both are here, so the
  // observers start when they did inside its chunk.
  const vitals = page.analytics.vitals ? import('#browser-only/islands/analytics/vitals') : null;
  const tracker = Promise.all([import('#browser-only/islands/analytics/tracker'), vitals])
    .then(([tracker, sampled]) => tracker.startTracker(page, sampled?.measureVitals ?? null))
    .catch((error: unknown) => console.warn('[analytics] tracker did not load', error));
  // The ad pixels hear the tracker's events (a late start is replayed what it missed), so they
  // start with it; their chunk is fetched only where the deployment runs one. They do not need
  // the collector: ANALYTICS=off leaves them running.
  const pixels = runsAdPixels(page)
    ? import('#browser-only/islands/pixels/index')
        .then((pixels) => pixels.startPixels(page.analytics))
        .catch((error: unknown) => console.warn('[pixels] did not load', error))
    : null;
  return Promise.all([tracker, pixels]);
}

/**
 * Starts analytics from boot without putting the tracker on the page's critical path: clicks are
 * heard from the first moment (emit.ts holds them), and the tracker itself is imported once the
 * page is interactive (trackerMayLoad), has loaded and the main thread is idle (the last screen
 * and success do not wait for idle). A page left before that hands its events over to the next
 * tracker through localStorage.
 */
export function startAnalytics(page: PageState): void {
  try {
    showPage(page);
    // Now, not when the tracker loads: a visitor gone before then has still seen the page.
    emit('load');
    listenForClicks();
    // Before keepWaitingEvents: a close reported here still goes with the page's other events.
    if (isPaywallScreen(page.screen)) window.addEventListener('pagehide', reportScreenClose);
    // A page whose analytics is off (ANALYTICS=off, a marketer's preview) hands nothing on: the
    // next page's tracker would send its events as if it had counted.
    if (page.analytics.collector !== null) {
      window.addEventListener('pagehide', () => keepWaitingEvents(page));
    }
    let asked = false;
    loadTracker = () => {
      if (asked) return;
      asked = true;
      const load = () => loadTrackerAndPixels(page);
      // The last screen has no next page to hand its events to: its tracker loads at once.
      const started = [page.next === null || page.screen === 'success' ? load() : whenIdle(load)];
      // The heatmap, only on a page the worker gave one (never a checkout), always after the
      // page's load and at an idle moment: it records, it has nothing to hand on.
      if (page.analytics.heatmap) started.push(whenIdle(() => loadHeatmap(page)));
      void Promise.all(started).then(markStarted);
    };
    setTimeout(() => loadTracker?.(), INTERACTIVE_TIMEOUT_MS);
  } catch (error) {
    console.warn('[analytics]', error);
  }
}

/** The page is interactive (boot.ts markInteractive): the tracker loads at the next idle moment. */
export function trackerMayLoad(): void {
  loadTracker?.();
}
