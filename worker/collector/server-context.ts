import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import {
  AD_COOKIES,
  NO_AD_COOKIES,
  storedAdCookies,
  validAdCookies,
} from '../attribution/ad-cookies';
import { CONSENT_COOKIE, consentState, parseConsentCountries } from '../attribution/consent';
import type { CountryEnv } from '../env';
import { VISITOR_COOKIE, visitorIdOf } from '../middleware/visitor';
import { adNetworksAllowed, type ServerContext } from './queued-event';

/** Header values are the visitor's to fill; these caps keep a queue message small. */
const MAX_USER_AGENT = 512;
const MAX_PAGE_URL = 2048;
const MAX_COOKIE = 256;

function capped(value: string | undefined, max: number): string | null {
  if (value === undefined || value === '') return null;
  return value.slice(0, max);
}

/** What the request that carried a batch tells about its visitor, for the destinations. */
export function serverContext<E extends CountryEnv>(
  c: Context<E>,
  receivedAt: number,
): ServerContext {
  const country = c.get('country') ?? null;
  const context: ServerContext = {
    received_at: receivedAt,
    ip: capped(c.req.header('cf-connecting-ip'), 64),
    user_agent: capped(c.req.header('user-agent'), MAX_USER_AGENT),
    country,
    page_url: capped(c.req.header('referer'), MAX_PAGE_URL),
    consent: consentState(
      parseConsentCountries(c.env.CONSENT_COUNTRIES),
      country,
      getCookie(c, CONSENT_COOKIE),
    ),
    ad_cookies: NO_AD_COOKIES,
  };
  const visitorId = visitorIdOf(getCookie(c, VISITOR_COOKIE));
  if (visitorId) context.visitor_id = visitorId;
  // Where the ad tools may not run, the visitor's ad ids are not even kept in the queue.
  if (adNetworksAllowed(context)) {
    // _ttp and _gf_ttclid as the page read them (ad-cookies.ts): of two _ttp cookies, the valid
    // one, the pixel's first, so the Events API reports the id the pixel does; a malformed value
    // not at all. Their formats bound them: _ttp to MAX_COOKIE, a click id to 500 characters.
    const { ttp, ttclid } = validAdCookies(storedAdCookies(c.req.header('cookie')));
    context.ad_cookies = {
      fbc: capped(getCookie(c, AD_COOKIES.fbc), MAX_COOKIE),
      fbp: capped(getCookie(c, AD_COOKIES.fbp), MAX_COOKIE),
      ttp,
      ttclid,
    };
  }
  return context;
}
