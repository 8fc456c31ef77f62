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

/** The path of the first-party collector on the worker's own origin (ARCHITECTURE.md). */
export const COLLECTOR_PATH = '/e';

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
  /** The tracking user data; null until the attribution middleware provides it. */
  tracking: TrackingData | null;
}
