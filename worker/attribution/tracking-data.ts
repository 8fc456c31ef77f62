import {
  clarityProjectId,
  type HeatmapFacts,
  type HeatmapPage,
  heatmapExcluded,
  heatmapTags,
} from '../../shared/analytics/heatmap';
import type { ConsentState, PixelIds, TrackingData } from '../../shared/analytics/tracking';
import { SPLIT_EXPERIMENT_ID } from '../../shared/experiments';
import type { ExperimentAssignment } from '../experiments/config/evaluate';
import { parsedBinding } from '../kept';
import type { AdCookieValues } from './ad-cookies';
import { type ClickIds, googleClickId } from './click-ids';
import type { AttributionBindings } from './env';

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
  /** The accepted app domain (acceptedAppDomain below). */
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

/**
 * SPEC.md §3 Attribution parameters: `appDomain` names the app's site the visitor came for; it
 * is sent with every event as user_data.source_url. A visitor can put anything in a URL, so it is
 * accepted only when it is exactly one of the allowed origins (APP_DOMAINS): compared as a parsed
 * origin, never as a prefix or substring, so `app.example.com.evil.com`,
 * `app.example.com@evil.com`, `//evil` and `javascript:` all fall back to the default.
 */

/**
 * `https://host[:port]` of each allowed entry; entries that are not a bare origin are ignored.
 * Parsed once per isolate (APP_DOMAINS), not on each page's request.
 */
export const parseOriginList = parsedBinding(function originList(list: string | undefined) {
  return (list ?? '')
    .split(',')
    .map((entry) => bareOrigin(entry.trim()))
    .filter((origin): origin is string => origin !== null);
});

/**
 * The origin `value` names, when it names only an origin: an http(s) URL with no user, path
 * beyond '/', query or fragment, or a bare host name (taken as https). Else null.
 */
export function bareOrigin(value: string): string | null {
  if (!value || value.length > 255 || /[\s\\%]/.test(value)) return null;
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(value) ? value : `https://${value}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return null;
  }
  const onlyOrigin =
    (url.protocol === 'https:' || url.protocol === 'http:') &&
    url.username === '' &&
    url.password === '' &&
    (url.pathname === '/' || url.pathname === '') &&
    url.search === '' &&
    url.hash === '' &&
    // `https://host/` and `https://host` name the origin; `//host` or `https:host` do not.
    // Scheme and host are case-insensitive; the URL parser lower-cases them.
    [url.origin, `${url.origin}/`].includes(withScheme.toLowerCase());
  return onlyOrigin ? url.origin : null;
}

/** The allowed origin `requested` names, else `fallback`. */
export function acceptedAppDomain(
  requested: string | null,
  allowed: readonly string[],
  fallback: string,
): string {
  if (requested === null) return fallback;
  const origin = bareOrigin(requested.trim());
  return origin !== null && allowed.includes(origin) ? origin : fallback;
}

/** A configured id, or null for unset or blank. */
function configured(value: string | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}

/** The ad networks' and heatmap's ids this deployment is configured with. */
export function pixelIds(env: AttributionBindings): PixelIds {
  const googleAds = configured(env.GOOGLE_ADS_ID);
  return {
    meta: configured(env.META_PIXEL_ID),
    tiktok: configured(env.TIKTOK_PIXEL_ID),
    googleAds: googleAds
      ? { id: googleAds, conversionLabel: configured(env.GOOGLE_ADS_CONVERSION_LABEL) }
      : null,
    appsflyer: configured(env.APPSFLYER_DEV_KEY),
    clarity: clarityProjectId(env.CLARITY_PROJECT_ID),
  };
}

/** What decides a page's heatmap. */
export interface HeatmapInput extends Omit<HeatmapFacts, 'experiments'> {
  /** The Clarity project id, null where unset or on a preview (PixelIds.clarity). */
  clarity: string | null;
  consent: ConsentState;
  /** The visitor's experiments (worker/request/visit-facts.ts). */
  assignments: readonly Pick<ExperimentAssignment, 'experiment' | 'variant' | 'state'>[];
}

/**
 * The heatmap a page may load (PageAnalytics.heatmap), or undefined where it never does: no
 * project id (or a marketer's preview, which has none), a screen with card fields, or a visitor
 * who declined (the page then holds no id and no tags at all). A page still waiting for an answer
 * gets it: the page loads it only after Accept (islands/heatmap/run.ts), the same rule as the
 * ad pixels (worker/attribution/consent.ts).
 *
 * The tags name the split's variant and each experiment the visitor is pinned or assigned to (a
 * shipped variant, applied to everyone, is no experiment any more): a session is tagged from its
 * first page, before the screen an experiment changes.
 */
export function heatmapPage(input: HeatmapInput): HeatmapPage | undefined {
  if (input.clarity === null || input.consent === 'denied' || heatmapExcluded(input.screen)) {
    return undefined;
  }
  const experiments = input.assignments
    .filter((a) => a.state !== 'applied' && a.experiment !== SPLIT_EXPERIMENT_ID)
    .map(({ experiment, variant }) => ({ experiment, variant }));
  return { clarity: input.clarity, tags: heatmapTags({ ...input, experiments }) };
}
