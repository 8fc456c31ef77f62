import { Hono } from 'hono';
import { type ConsentAnswer, isConsentAnswer } from '../../shared/consent-cookie';
import { CONSENT_COOKIE, CONSENT_COOKIE_MAX_AGE } from '../attribution/consent';
import { type AnswerHeaders, setAnswerCookie } from '../http/answer-cookies';
import type { VendorEnv } from '../request/envs';
import { formBodyLimit, formOriginOnly } from '../request/form-guards';

/** The form carries one field; anything bigger is not our banner. */
const MAX_BODY_BYTES = 1024;

/** The page the banner was on (its `Referer`, same origin only), else the start. */
function backTo(referer: string | undefined, requestUrl: string): string {
  if (!referer) return '/';
  try {
    const url = new URL(referer);
    return url.origin === new URL(requestUrl).origin ? `${url.pathname}${url.search}` : '/';
  } catch {
    return '/';
  }
}

/** Stores the visitor's consent answer (also the resume link's, worker/resume/). */
export function writeConsentCookie(headers: AnswerHeaders, answer: ConsentAnswer): void {
  setAnswerCookie(headers, CONSENT_COOKIE, answer, {
    maxAge: CONSENT_COOKIE_MAX_AGE,
    path: '/',
    secure: true,
    sameSite: 'Lax',
  });
}

/**
 * POST /consent: the consent banner's form (screens/layout/ConsentBar.tsx) before its island has
 * hydrated, or with no script at all. Stores the answer in the `gf_consent` cookie the page's
 * script would have written and goes back to the page. Answers in plain text, as the form's
 * only other outcomes are a bug or a forgery.
 */
export function consentRoutes(): Hono<VendorEnv> {
  return new Hono<VendorEnv>().post(
    '/',
    formOriginOnly(),
    formBodyLimit(MAX_BODY_BYTES),
    async function storeConsent(c) {
      const { answer } = await c.req.parseBody();
      if (!isConsentAnswer(answer)) return c.text('Bad request\n', 400);
      writeConsentCookie(c, answer);
      c.get('logFields').detail = `consent_${answer}`;
      return c.redirect(backTo(c.req.header('referer'), c.req.url), 303);
    },
  );
}
