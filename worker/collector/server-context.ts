import {
  AD_COOKIES,
  NO_AD_COOKIES,
  storedAdCookies,
  validAdCookies,
} from '../attribution/ad-cookies';
import { CONSENT_COOKIE, consentState, parseConsentCountries } from '../attribution/consent';
import { cookieValue } from '../attribution/cookie-header';
import { VISITOR_COOKIE, visitorIdOf } from '../request/cookies';
import { adNetworksAllowed, type ServerContext } from './queued-event';

/** Header values are the visitor's to fill; these caps keep a queue message small. */
const MAX_USER_AGENT = 512;
const MAX_PAGE_URL = 2048;
const MAX_COOKIE = 256;

function capped(value: string | null | undefined, max: number): string | null {
  if (value === undefined || value === null || value === '') return null;
  return value.slice(0, max);
}

/**
 * The request a batch or a purchase came with: its headers, the country the country middleware
 * found, and the CONSENT_COUNTRIES binding.
 */
export interface CarryingRequest {
  headers: Headers;
  country: string | null | undefined;
  consentCountries: string | undefined;
}

/** What the request that carried a batch tells about its visitor, for the destinations. */
export function serverContext(request: CarryingRequest, receivedAt: number): ServerContext {
  const { headers } = request;
  const country = request.country ?? null;
  const cookies = headers.get('cookie') ?? undefined;
  const context: ServerContext = {
    received_at: receivedAt,
    ip: capped(headers.get('cf-connecting-ip'), 64),
    user_agent: capped(headers.get('user-agent'), MAX_USER_AGENT),
    country,
    page_url: capped(headers.get('referer'), MAX_PAGE_URL),
    consent: consentState(
      parseConsentCountries(request.consentCountries),
      country,
      cookieValue(cookies, CONSENT_COOKIE),
    ),
    ad_cookies: NO_AD_COOKIES,
  };
  const visitorId = visitorIdOf(cookieValue(cookies, VISITOR_COOKIE));
  if (visitorId) context.visitor_id = visitorId;
  // Where the ad tools may not run, the visitor's ad ids are not even kept in the queue.
  if (adNetworksAllowed(context)) {
    // _ttp and _gf_ttclid as the page read them (ad-cookies.ts): of two _ttp cookies, the valid
    // one, the pixel's first, so the Events API reports the id the pixel does; a malformed value
    // not at all. Their formats bound them: _ttp to MAX_COOKIE, a click id to 500 characters.
    const { ttp, ttclid } = validAdCookies(storedAdCookies(cookies));
    context.ad_cookies = {
      fbc: capped(cookieValue(cookies, AD_COOKIES.fbc), MAX_COOKIE),
      fbp: capped(cookieValue(cookies, AD_COOKIES.fbp), MAX_COOKIE),
      ttp,
      ttclid,
    };
  }
  return context;
}
