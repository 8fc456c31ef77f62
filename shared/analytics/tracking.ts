import type { HeatmapPage } from './heatmap';

/**
 * SPEC.md §3 "Tracking user data sent with events": who the visitor is to the ad networks and
 * attribution tools. The worker derives it from the request (click ids, the first-party cookies
 * it sets) and hands it to the page; the tracker sends it with every event.
 */
export interface TrackingUserData {
  /** The visitor uuid. */
  uuid: string;
  /** Meta's click cookie `_fbc` (`fb.1.<ms>.<fbclid>`), or null before any fbclid. */
  fbc: string | null;
  /** Meta's browser cookie `_fbp` (`fb.1.<ms>.<random>`). */
  fbp: string | null;
  /** The fbclid of this visit's URL, if any. */
  fb_click_id: string | null;
  /** TikTok's cookie `_ttp`. */
  ttp: string | null;
  /** The ttclid of this visit's URL, if any. */
  tt_click_id: string | null;
  /** The app domain (the encoded `appDomain` parameter once allowed, else the default). */
  source_url: string;
  /** The gclid (or gbraid / wbraid) of this visit's URL, if any. */
  google_click_id: string | null;
}

export interface TrackingData {
  appsflyer_id: string | null;
  google_tracking_id: string | null;
  google_client_id: string | null;
  /** One of the two pixel ids, whichever pixel the funnel runs (SPEC.md §3). */
  fb_pixel_id?: string;
  tt_pixel_id?: string;
  user_data: TrackingUserData;
}

/**
 * Where the visitor stands on consent: 'not_required' and 'granted' let the ad pixels,
 * the ad cookies and the forwarding of purchases to the networks run; 'pending' waits for an
 * answer (the consent banner asks); 'denied' keeps them off. First-party events count always.
 */
export type ConsentState = 'not_required' | 'pending' | 'granted' | 'denied';

/** Whether the ad pixels, the ad cookies and the forwarding to the networks may run. */
export function adToolsAllowed(state: ConsentState): boolean {
  return state === 'not_required' || state === 'granted';
}

/**
 * The third-party tools a deployment runs (worker variables): the ad tools and the heatmap, all
 * under the same consent rule; null = not configured, never loaded.
 */
export interface PixelIds {
  /** Meta pixel id: the Purchase event. */
  meta: string | null;
  /** TikTok pixel id: CompletePayment. */
  tiktok: string | null;
  /** Google Ads tag `AW-…` and the purchase conversion's label: purchase and conversion. */
  googleAds: { id: string; conversionLabel: string | null } | null;
  /** AppsFlyer web dev key: the smart script, served from our own origin. */
  appsflyer: string | null;
  /** Microsoft Clarity project id: the heatmap and session recordings (shared/analytics/heatmap.ts). */
  clarity: string | null;
}

/** The path of the first-party collector on the worker's own origin (ARCHITECTURE.md). */
export const COLLECTOR_PATH = '/e';

/**
 * Where a page that may expose its visitor sends its exposure ticket once its islands have
 * hydrated (PageState.exposureTicket, islands/exposure-confirmation.ts): the worker then counts
 * that visitor's exposures (worker/collector/exposure-confirmation-route.ts).
 */
export const EXPOSURE_CONFIRMATION_PATH = `${COLLECTOR_PATH}/exposure`;

/**
 * What the page's tracker needs from the worker (PageState.analytics, islands/protocol.ts).
 */
export interface PageAnalytics {
  /** The visitor uuid, the events' device_id. */
  visitorId: string;
  /** Outside production purchase pixel names get `_test` (SPEC.md §9). */
  production: boolean;
  /**
   * Where the tracker posts batches: the worker's own `/e`. Null when analytics is switched off
   * (the spec client's "no key configured"): events are then dropped with 'No request sent'.
   */
  collector: string | null;
  /** SPEC.md §3 tracking user data, sent with every event. */
  tracking: TrackingData;
  consent: ConsentState;
  pixels: PixelIds;
  /** This page's heatmap and its tags; absent where it never loads (shared/analytics/heatmap.ts). */
  heatmap?: HeatmapPage;
  /**
   * Present when the worker drew this page view into the field vitals' sample
   * (worker/collector/vitals-sample.ts): the page then reports its Core Web Vitals
   * (shared/analytics/vitals.ts).
   */
  vitals?: PageVitals;
}

/** What a sampled page's vitals event carries beside its values. */
export interface PageVitals {
  /**
   * The experiments this page counts in, experiment id → variant: those the visitor was exposed
   * to before it or is exposed to by it. The collector counts the values only in an arm the
   * visitor's own exposure row confirms.
   */
  arms: Record<string, string>;
  /**
   * The page view's ticket, signed by the worker for this visitor: sent back with the values,
   * so the collector counts only pages the worker served, each once.
   */
  ticket: string;
}
