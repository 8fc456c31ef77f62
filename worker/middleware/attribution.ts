import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import {
  type AdCookieName,
  type AdCookieValues,
  cryptoSources,
  NO_AD_COOKIES,
  planAdCookies,
  storedAdCookies,
} from '../attribution/ad-cookies';
import { type ClickIds, readClickIds } from '../attribution/click-ids';
import {
  adToolsAllowed,
  CONSENT_COOKIE,
  consentState,
  parseConsentCountries,
} from '../attribution/consent';
import {
  acceptedAppDomain,
  parseOriginList,
  pixelIds,
  trackingData,
} from '../attribution/tracking-data';
import { writeAdCookie } from '../request/cookies';
import type { AppEnv } from '../request/envs';

/** Reads the stored ad cookies and, when the ad tools may run, sets the missing or new ones. */
function adCookies(
  c: Context<AppEnv>,
  allowed: boolean,
  clicks: ClickIds,
  now: number,
): AdCookieValues {
  if (!allowed) return NO_AD_COOKIES;
  const stored = storedAdCookies(c.req.header('cookie'));
  const plan = planAdCookies(stored, clicks, cryptoSources(now));
  for (const [name, value] of Object.entries(plan.write) as [AdCookieName, string][]) {
    writeAdCookie(c, name, value);
  }
  return plan.values;
}

/**
 * SPEC.md §3 attribution for a page request: the click ids of the URL, the first-party
 * ad cookies set from the server (only where the ad tools may run), the accepted app domain, and
 * the tracking user data the page's events carry. Runs after `visitor`, `country` and
 * `experiments`: a marketer's preview (c.get('preview')) is no visit, so the ad networks hear
 * nothing of it and it gets no ad cookie, whatever the consent.
 */
export function attribution(options: { now?: () => number } = {}): MiddlewareHandler<AppEnv> {
  const now = options.now ?? Date.now;
  return async function attributionMiddleware(c, next) {
    const url = new URL(c.req.url);
    const clicks = readClickIds(url.searchParams);
    const consent = consentState(
      parseConsentCountries(c.env.CONSENT_COUNTRIES),
      c.get('country'),
      getCookie(c, CONSENT_COOKIE),
    );
    const pixels = pixelIds(c.env);
    const domains = parseOriginList(c.env.APP_DOMAINS);
    const appDomain = acceptedAppDomain(
      url.searchParams.get('appDomain'),
      domains,
      domains[0] ?? url.origin,
    );
    c.set('attribution', {
      consent,
      pixels,
      tracking: trackingData({
        visitorId: c.get('visitorId'),
        clicks,
        cookies: adCookies(
          c,
          adToolsAllowed(consent) && c.get('preview') === undefined,
          clicks,
          now(),
        ),
        appDomain,
        ids: {
          metaPixelId: pixels.meta,
          tiktokPixelId: pixels.tiktok,
          googleTagId: pixels.googleAds?.id ?? null,
        },
        appsflyerId: getCookie(c, 'afUserId') ?? null,
        googleAnalyticsCookie: getCookie(c, '_ga') ?? null,
      }),
    });
    await next();
  };
}
