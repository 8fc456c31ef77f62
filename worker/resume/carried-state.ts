import type { Context } from 'hono';
import { isConsentAnswer } from '../../shared/consent-cookie';
import { SPLIT_EXPERIMENT_ID } from '../../shared/experiments';
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
import { cookieValue } from '../attribution/cookie-header';
import { parsePins, serializePins } from '../experiments/assignment/pins';
import { writeAdCookie } from '../middleware/attribution';
import type { ResumeEnv } from '../middleware/envs';
import { writePins } from '../middleware/experiments';
import { writeVisitorCookie } from '../middleware/visitor';
import { writeConsentCookie } from '../routes/consent';
import type { ResumeRecord } from './resume-record';

type CarriedState = Pick<ResumeRecord, 'visitorId' | 'variant' | 'pins' | 'adCookies' | 'consent'>;

/** What the request asking for the link says of its visitor, as the middleware left it. */
export interface AskingVisitor {
  visitorId: string;
  /** The variants the visitor is pinned to (c.get('experiments').pins). */
  pins: ReadonlyMap<string, string>;
  /** Whether it is a marketer's preview. */
  preview: boolean;
  country: string | null;
  /** The CONSENT_COUNTRIES binding. */
  consentCountries: string | undefined;
  /** The request's `Cookie` header: the consent answer and the ad cookies. */
  cookieHeader: string | undefined;
}

/**
 * What the worker itself knows of the visitor asking for a resume link, as the visitor,
 * experiments and attribution middleware left it: the uuid, the variants they are pinned to
 * (none for a marketer's preview), the consent answer, and the ad cookies only where the ad tools
 * may run, as the attribution middleware would only have set them there. Only pins travel: a
 * variant not yet exposed follows from the uuid in the real browser too, and is exposed there
 * when its trigger comes (worker/middleware/exposure.ts), a deep entry included.
 */
export function carriedState(visitor: AskingVisitor): CarriedState {
  const { pins, preview, cookieHeader } = visitor;
  const answer = cookieValue(cookieHeader, CONSENT_COOKIE);
  const consent = consentState(
    parseConsentCountries(visitor.consentCountries),
    visitor.country,
    answer,
  );
  const others = new Map([...pins].filter(([id]) => id !== SPLIT_EXPERIMENT_ID));
  const adCookies = adToolsAllowed(consent)
    ? validAdCookies(storedAdCookies(cookieHeader))
    : NO_AD_COOKIES;
  return {
    visitorId: visitor.visitorId,
    variant: preview ? null : (pins.get(SPLIT_EXPERIMENT_ID) ?? null),
    pins: preview || others.size === 0 ? null : serializePins(others),
    adCookies,
    consent: isConsentAnswer(answer) ? answer : null,
  };
}

/**
 * Sets the carried cookies with the writers their own middleware uses, so the real browser is
 * the same visitor in the same variants: the experiments then find their pins, so the visitor is
 * not exposed a second time.
 */
export async function restoreCookies(c: Context<ResumeEnv>, record: ResumeRecord): Promise<void> {
  writeVisitorCookie(c, record.visitorId);
  const pins = new Map(parsePins(record.pins ?? undefined));
  if (record.variant !== null) pins.set(SPLIT_EXPERIMENT_ID, record.variant);
  // Signed for the record's visitor id, which the caller set as the request's
  // (worker/middleware/signed-cookies.ts): they came from the signed cookies of that id.
  await writePins(
    c,
    new Map(),
    [...pins].map(([experiment, variant]) => ({ experiment, variant })),
  );
  if (record.consent !== null) writeConsentCookie(c, record.consent);
  // Each gets its full lifetime again: a request does not tell a cookie's age, so a kept click
  // (_fbc, _gf_ttclid) may outlive its attribution window, where it matches nothing.
  for (const [name, value] of Object.entries(record.adCookies) as [AdCookieName, string | null][]) {
    if (value !== null) writeAdCookie(c, name, value);
  }
}
