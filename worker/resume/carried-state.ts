import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { isConsentAnswer } from '../../shared/consent-cookie';
import {
  type AdCookieName,
  NO_AD_COOKIES,
  storedAdCookies,
  validAdCookies,
} from '../attribution/ad-cookies';
import {
  adToolsAllowed,
  CONSENT_COOKIE,
  consentState,
  parseConsentCountries,
} from '../attribution/consent';
import type { AppEnv } from '../env';
import { writeAdCookie } from '../middleware/attribution';
import { writeVariantCookie } from '../middleware/experiments';
import { writeVisitorCookie } from '../middleware/visitor';
import { writeConsentCookie } from '../routes/consent';
import type { ResumeRecord } from './resume-record';

type CarriedState = Pick<ResumeRecord, 'visitorId' | 'variant' | 'adCookies' | 'consent'>;

/**
 * What the worker itself knows of the visitor asking for a resume link, as the visitor, split
 * test and attribution middleware left it: the uuid, the variant (none for a marketer's
 * preview), the consent answer, and the ad cookies only where the ad tools may run, as the
 * attribution middleware would only have set them there.
 */
export function carriedState(c: Context<AppEnv>): CarriedState {
  const answer = getCookie(c, CONSENT_COOKIE);
  const consent = consentState(
    parseConsentCountries(c.env.CONSENT_COUNTRIES),
    c.get('country'),
    answer,
  );
  const adCookies = adToolsAllowed(consent)
    ? validAdCookies(storedAdCookies(c.req.header('cookie')))
    : NO_AD_COOKIES;
  return {
    visitorId: c.get('visitorId'),
    variant: c.get('preview') === undefined ? c.get('variant').key : null,
    adCookies,
    consent: isConsentAnswer(answer) ? answer : null,
  };
}

/**
 * Sets the carried cookies with the writers their own middleware uses, so the real browser is
 * the same visitor in the same variant: the split test then finds `gf_variant` and draws nothing,
 * so the visitor is not exposed a second time.
 */
export function restoreCookies(c: Context<AppEnv>, record: ResumeRecord): void {
  writeVisitorCookie(c, record.visitorId);
  if (record.variant !== null) writeVariantCookie(c, record.variant);
  if (record.consent !== null) writeConsentCookie(c, record.consent);
  // Each gets its full lifetime again: a request does not tell a cookie's age, so a kept click
  // (_fbc, _gf_ttclid) may outlive its attribution window, where it matches nothing.
  for (const [name, value] of Object.entries(record.adCookies) as [AdCookieName, string | null][]) {
    if (value !== null) writeAdCookie(c, name, value);
  }
}
