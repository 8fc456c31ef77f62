import { atom, onMount } from 'nanostores';
import type { ConsentState } from '../../shared/analytics/tracking';
import {
  CONSENT_COOKIE,
  CONSENT_COOKIE_MAX_AGE,
  type ConsentAnswer,
  isConsentAnswer,
} from '../../shared/consent-cookie';
import { browserOnly } from '../stores/browser-only';

/**
 * The visitor's answer to the consent banner. It is kept in the `gf_consent` cookie,
 * which the worker reads on the next request (worker/attribution/consent.ts: the same name, and
 * the ad cookies and the pixels follow from it); on this page the store tells the pixels at once.
 */
export type { ConsentAnswer };
export { CONSENT_COOKIE, isConsentAnswer };

/**
 * The answer given on this page, or kept in the cookie by an earlier one; null until there is
 * one. The cookie is read once the store is listened to (the banner, through
 * islands/kit/use-working-store.ts, or the pixels): a page fetched ahead before the visitor
 * answered on the previous one was rendered without the answer the cookie now has.
 */
export const $consentAnswer = browserOnly(atom<ConsentAnswer | null>(null), 'consentAnswer');
onMount($consentAnswer, () => {
  const stored = readConsentCookie(globalThis.document?.cookie ?? '');
  if (stored !== null && $consentAnswer.value === null) $consentAnswer.set(stored);
});

/** The Set-Cookie-like line `document.cookie` takes for an answer. */
export function consentCookieLine(answer: ConsentAnswer): string {
  return `${CONSENT_COOKIE}=${answer}; Max-Age=${CONSENT_COOKIE_MAX_AGE}; Path=/; SameSite=Lax; Secure`;
}

/** The answer a `document.cookie` string holds, else null. */
export function readConsentCookie(cookies: string): ConsentAnswer | null {
  for (const pair of cookies.split(';')) {
    const [name, value] = pair.trim().split('=');
    if (name === CONSENT_COOKIE && isConsentAnswer(value)) return value;
  }
  return null;
}

/** Stores the answer for the worker (cookie) and for this page (store). */
export function answerConsent(answer: ConsentAnswer, doc: Document = document): void {
  doc.cookie = consentCookieLine(answer);
  $consentAnswer.set(answer);
}

/**
 * The answer this page knows: the one given here, else the cookie's. The cookie matters when the
 * page was fetched ahead (speculation rules) before the visitor answered on the previous one: the
 * worker then still saw no answer.
 */
export function knownConsentAnswer(doc: Document = document): ConsentAnswer | null {
  return $consentAnswer.get() ?? readConsentCookie(doc.cookie);
}

/**
 * The page's consent state once the visitor's own answer is known: where consent is not required
 * it stays so (the worker's rule, worker/attribution/consent.ts); elsewhere an answer given on
 * this page, or one the worker had not seen yet, decides. The pixels and the heatmap follow it.
 */
export function effectiveConsent(state: ConsentState, answer: ConsentAnswer | null): ConsentState {
  return state === 'not_required' ? state : (answer ?? state);
}
