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
import { parsePins, serializePins } from '../experiments/assignment/assign';
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

/** The cookies a resume link sets in the real browser (restoredCookies). */
export interface RestoredCookies {
  visitorId: string;
  /** Every variant the visitor is pinned to, the split's included. */
  pins: { experiment: string; variant: string }[];
  consent: ResumeRecord['consent'];
  adCookies: [AdCookieName, string][];
}

/**
 * The carried cookies, for the handler to set with the writers their own middleware uses, so
 * the real browser is the same visitor in the same variants: the experiments then find their
 * pins, so the visitor is not exposed a second time.
 */
export function restoredCookies(record: ResumeRecord): RestoredCookies {
  const pins = new Map(parsePins(record.pins ?? undefined));
  if (record.variant !== null) pins.set(SPLIT_EXPERIMENT_ID, record.variant);
  const adCookies = (Object.entries(record.adCookies) as [AdCookieName, string | null][]).filter(
    (entry): entry is [AdCookieName, string] => entry[1] !== null,
  );
  return {
    visitorId: record.visitorId,
    pins: [...pins].map(([experiment, variant]) => ({ experiment, variant })),
    consent: record.consent,
    adCookies,
  };
}
