import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { detectInAppBrowser } from '../../shared/in-app-browser';
import type { Source } from '../../shared/routing';
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
import {
  FIRST_TOUCH_COOKIE,
  FIRST_TOUCH_MAX_AGE,
  keptFirstTouch,
  reportInvalidCookie,
  signedCookiesOf,
  writeAdCookie,
  writeSignedCookie,
} from '../request/cookies';
import type { AppEnv } from '../request/envs';
import { DEFAULT_SOURCE_ALIASES, encodeFirstTouch, takeFirstTouch } from '../routing/first-touch';

/**
 * Where a visit came from, learnt by three middleware of the pages: the ad app whose own browser
 * sent it (inAppBrowser), its first touch kept for the visit (firstTouch) and its click ids, ad
 * cookies and consent for the tracking the page gets (attribution).
 */

/**
 * Which ad app's own browser a page request comes from (shared/in-app-browser.ts), from the user
 * agent and the `Sec-CH-UA-Platform` hint: the screens drop what fails there (Google sign-in) and
 * every event names it. The request's log line carries it as `in_app` (`instagram_ios`), so ops
 * can tell a problem that only those browsers have.
 */
export function inAppBrowser(): MiddlewareHandler<AppEnv> {
  return async function inAppMiddleware(c, next) {
    const found = detectInAppBrowser(c.req.header('user-agent'), {
      platform: c.req.header('sec-ch-ua-platform'),
    });
    c.set('inApp', found);
    if (found) c.get('logFields').in_app = `${found.app}_${found.os}`;
    await next();
  };
}

/**
 * Keeps where a visit came from (worker/routing/first-touch.ts) for the routes to read
 * (c.get('firstTouch')): a page request with a valid gf_touch cookie keeps it, whatever its link
 * says now, so a visitor's route does not change because a later link carried other UTM
 * parameters; any other page request takes its own first touch and sets the cookie.
 *
 * The cookie is signed for the visitor id (worker/request/cookies.ts): a first touch a
 * visitor wrote or edited by hand, or copied from another browser, is not read (it would match
 * any audience: a source, UTM values, a country of their choosing), but reported once and
 * replaced by the request's own.
 *
 * The cookie is first-party, HttpOnly and holds no identifier: the source, the network of the
 * link's click id (not the id), its UTM parameters and entry alias, the country and the first
 * page's time, only to choose a funnel for
 * the visit. It is set whatever the consent answer; the ad cookies still wait for it
 * (attribution, below). A marketer's preview sets nothing, in the browser that
 * opened it (worker/middleware/visitor.ts); a preview cookie copied elsewhere is no preview.
 */
export function firstTouch(options: { now?: () => number } = {}): MiddlewareHandler<AppEnv> {
  const now = options.now ?? Date.now;
  return async function firstTouchMiddleware(c, next) {
    const at = now();
    const { touch: kept, cookie } = c.get('previewCountry')
      ? // A preview that names its country is a new visitor from there (worker/middleware/country.ts).
        { touch: null, cookie: { state: 'none' } as const }
      : await keptFirstTouch(signedCookiesOf(c), at);
    const touch =
      kept ??
      takeFirstTouch({
        url: new URL(c.req.url),
        referrer: c.req.header('referer') ?? null,
        country: c.get('country'),
        now: at,
        aliases: aliasesOf(c.get('config').routing.aliases),
      });
    c.set('firstTouch', touch);
    c.get('logFields').source = touch.source;
    if (!kept && c.get('openedPreview') === undefined) {
      if (cookie.state === 'invalid') reportInvalidCookie(c, FIRST_TOUCH_COOKIE, cookie.reason);
      await writeSignedCookie(c, FIRST_TOUCH_COOKIE, encodeFirstTouch(touch), {
        maxAge: FIRST_TOUCH_MAX_AGE,
        httpOnly: true,
        secure: true,
        sameSite: 'Lax',
        path: '/',
      });
    }
    await next();
  };
}

/**
 * The marketers' spellings (the routing section's `aliases`) over the built-in ones, merged once
 * per routing document.
 */
const mergedAliases = new WeakMap<object, Readonly<Record<string, Source>>>();

function aliasesOf(
  marketers: Readonly<Record<string, Source>> | undefined,
): Readonly<Record<string, Source>> {
  if (!marketers) return DEFAULT_SOURCE_ALIASES;
  let merged = mergedAliases.get(marketers);
  if (!merged) {
    merged = { ...DEFAULT_SOURCE_ALIASES, ...marketers };
    mergedAliases.set(marketers, merged);
  }
  return merged;
}

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
