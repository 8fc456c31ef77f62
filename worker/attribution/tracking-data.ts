import type { TrackingData } from '../../shared/analytics/tracking';
import type { AdCookieValues } from './ad-cookies';
import { type ClickIds, googleClickId } from './click-ids';

/** The ids of the tools a deployment runs (worker variables; none set means none loads). */
export interface TrackingIds {
  metaPixelId: string | null;
  tiktokPixelId: string | null;
  /** The Google tag (gtag) id, e.g. `G-…` or `AW-…`. */
  googleTagId: string | null;
}

export interface TrackingInput {
  visitorId: string;
  clicks: ClickIds;
  cookies: AdCookieValues;
  /** The accepted app domain (worker/attribution/app-domain.ts). */
  appDomain: string;
  ids: TrackingIds;
  /** Cookies the tools' own scripts set, when the browser has them. */
  appsflyerId: string | null;
  /** The `_ga` cookie value, e.g. `GA1.1.1234567890.1700000000`. */
  googleAnalyticsCookie: string | null;
}

/** The client id inside a `_ga` cookie (its last two dot-separated parts), else null. */
export function googleClientId(gaCookie: string | null): string | null {
  const match = gaCookie === null ? null : /^GA\d\.\d+\.(\d+\.\d+)$/.exec(gaCookie);
  return match?.[1] ?? null;
}

/** SPEC.md §3 "Tracking user data sent with events". */
export function trackingData(input: TrackingInput): TrackingData {
  const data: TrackingData = {
    appsflyer_id: input.appsflyerId,
    google_tracking_id: input.ids.googleTagId,
    google_client_id: googleClientId(input.googleAnalyticsCookie),
    user_data: {
      uuid: input.visitorId,
      fbc: input.cookies.fbc,
      fbp: input.cookies.fbp,
      fb_click_id: input.clicks.fbclid,
      ttp: input.cookies.ttp,
      tt_click_id: input.clicks.ttclid,
      source_url: encodeURIComponent(input.appDomain),
      google_click_id: googleClickId(input.clicks),
    },
  };
  // "fb_pixel_id or tt_pixel_id": whichever pixel the deployment runs.
  if (input.ids.metaPixelId) data.fb_pixel_id = input.ids.metaPixelId;
  if (input.ids.tiktokPixelId) data.tt_pixel_id = input.ids.tiktokPixelId;
  return data;
}
