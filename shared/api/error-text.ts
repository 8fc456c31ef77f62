import type { ApiFailure } from './request';
import { isWorkerErrorCode } from './worker-error-codes';

/**
 * What a visitor reads when something fails: the one mapping from a failure to the texts of
 * SPEC.md §5 and §8, used by every island. It never returns English itself: a key of the
 * `errors.*` translations (the screen translates the keys an island needs and hands them over as
 * props, islands never load i18n), or the words of a card provider. The product API's own words
 * never reach it: the worker replaces them with the §8 text of what they mean
 * (worker/portal-client/portal-refusal.ts), which is read here only for that meaning.
 */

/*
 * Keys of `locales/<lng>/errors.json` (`errors.<key>`), one per visitor-facing failure, grouped
 * by what may fail; a screen translates its group and hands it to its island. 'rate_limited' is
 * ours: sign-ups and lookups are limited, as each lookup texts a real person.
 */

/** An email or social sign-up (SPEC.md §5 Email already taken, §8 Sign-in and signup). */
export const SIGN_UP_ERROR_KEYS = ['email_exists', 'signup_failed', 'rate_limited'] as const;
/** A phone lookup (SPEC.md §5 Phone lookup, §8 Phone and map); also its PhoneLookupError codes. */
export const PHONE_LOOKUP_ERROR_KEYS = [
  'phone_incorrect',
  'lookup_failed',
  'rate_limited',
] as const;
/** The Google button itself (SPEC.md §5 Google sign-in, §8 Sign-in and signup). */
export const GOOGLE_BUTTON_ERROR_KEYS = [
  'google_no_credential',
  'google_unexpected',
  'google_not_configured',
  'google_init_failed',
  'google_not_available',
  'google_sign_in_failed',
  'google_not_ready',
] as const;
/**
 * A purchase (SPEC.md §8 Payment): 'An error has occurred (look at console)', 'Unknown error.
 * Please try again', 'An error has occurred', 'Payment error'; email-taken and the limit as for
 * sign-up.
 */
export const PAYMENT_ERROR_KEYS = [
  'payment_no_answer',
  'payment_no_result',
  'payment_failed',
  'payment_error',
  // A card provider's own failures without words of its own (islands/payments/provider.ts).
  'card_form_unavailable',
  'card_form_not_ready',
  'payment_not_authenticated',
  // Ours: an attempt being confirmed vanished; it may have charged, so no second Pay.
  'payment_may_have_gone_through',
  // Ours: too many declined charges for this visitor, address or card.
  'payment_rate_limited',
  // Ours: the purchase's attempt ledger or the retry governor stops this card
  // (docs/payments.md "One charge per purchase").
  'payment_card_stopped',
  'payment_card_retry_limit',
  // Ours: the ledger or the governor could not be asked, so nothing was sent.
  'payment_paused',
  // Ours: the card provider kept failing the charge and the product API proved nothing was
  // charged: the other provider's form is offered beside it, or there is none to offer.
  'payment_provider_failed_offer',
  'payment_provider_failed',
  // Ours: a plan or coupon the visitor's screens do not offer, or an upsell before a plan.
  'offer_not_available',
  'offer_needs_purchase',
  // Ours: a charge without the renewal consent the visitor's country asks for.
  'renewal_consent_required',
  // Ours: a consent ticked for other terms than the charge's (the offer ended, the plan changed).
  'renewal_consent_changed',
  'email_exists',
  'rate_limited',
] as const;

export type ErrorTextKey =
  | (typeof SIGN_UP_ERROR_KEYS)[number]
  | (typeof PHONE_LOOKUP_ERROR_KEYS)[number]
  | (typeof GOOGLE_BUTTON_ERROR_KEYS)[number]
  | (typeof PAYMENT_ERROR_KEYS)[number];

/** Translated texts of some keys, as a screen hands them to an island. */
export type ErrorTexts<K extends ErrorTextKey = ErrorTextKey> = Record<K, string>;

/** A key to translate, or a server text to show as it is. */
export type VisitorText = { key: ErrorTextKey } | { text: string };

/** The translation key (`errors.email_exists`) of an error text. */
export function errorTranslationKey(key: ErrorTextKey): `errors.${ErrorTextKey}` {
  return `errors.${key}`;
}

/** Turns a VisitorText into what the island shows, with the texts its screen gave it. */
export function readableText(text: VisitorText, texts: Partial<ErrorTexts>): string {
  if ('text' in text) return text.text;
  return texts[text.key] ?? text.key;
}

/**
 * Worker codes saying no answer about the request came back: the portal could not be reached or
 * understood, or the worker itself failed.
 */
const NO_ANSWER_CODES = new Set([
  'portal_unavailable',
  'portal_timeout',
  'portal_bad_response',
  'internal_error',
]);

/**
 * Recognised by name rather than `instanceof`: importing the class would import the contract,
 * and with it zod, into every island that shows an error, before any call is made.
 */
function asFailure(error: unknown): ApiFailure | null {
  return error instanceof Error && error.name === 'ApiFailure' ? (error as ApiFailure) : null;
}

/**
 * True when the call got no answer about the request itself: no response, an unreadable one, or
 * the worker saying the portal could not be reached or understood. For a charge this means it
 * may or may not have happened.
 */
function failureLeftNoAnswer(error: unknown): boolean {
  const failure = asFailure(error);
  if (!failure) return false;
  return failure.kind !== 'http' || NO_ANSWER_CODES.has(failure.code ?? '');
}

/** The portal refusal's messages (as the worker mapped them); none when the worker refused. */
function portalMessages(failure: ApiFailure | null): string[] {
  if (!failure || isWorkerErrorCode(failure.code)) return [];
  return failure.messages.map((message) => message.trim()).filter((message) => message !== '');
}

/**
 * SPEC.md §5: 'the email has already been taken' or 'useremailtaken', case-insensitive, dots
 * removed ('The email has already been taken.', 'user.email.taken'). Spaces are removed too, so
 * the browser bundle carries a pattern rather than a sentence of the copy (islands receive every
 * sentence from the screen: test/unit/i18n/client-bundle.test.ts).
 */
const EMAIL_TAKEN_PATTERNS = ['theemailhasalreadybeentaken', 'useremailtaken'];

export function isEmailTakenMessage(message: string): boolean {
  const plain = message.toLowerCase().replace(/[.\s]/g, '');
  return EMAIL_TAKEN_PATTERNS.some((pattern) => plain.includes(pattern));
}

/**
 * 'email exists' when the refusal says the email is taken, else null for the step's own text:
 * a message is never shown as it is, so nothing but a translated text reaches the visitor.
 */
function accountMessageText(messages: string[]): VisitorText | null {
  return messages.some(isEmailTakenMessage) ? { key: 'email_exists' } : null;
}

/**
 * POST /api/signup failed (SPEC.md §4 Signup, §5, §8): the limit text when rate-limited; the
 * translated 'email exists' for an email-taken message; else 'Failed to create an account'
 * (also when the portal could not be reached).
 */
export function signupErrorText(error: unknown): VisitorText {
  const failure = asFailure(error);
  if (failure?.code === 'rate_limited') return { key: 'rate_limited' };
  return accountMessageText(portalMessages(failure)) ?? { key: 'signup_failed' };
}

/**
 * POST /api/authorize_social_via_access_token failed. Decided here, for SPEC.md §8's two texts:
 * - the worker refused Google's credential (google_token_invalid), or the sign-in could not
 *   complete at all (no answer, portal unreachable, rate limit aside): 'An error occurred while
 *   trying to sign in with Google. Please try again.';
 * - the worker has no Google client id: 'Google Sign-In is not properly configured...';
 * - the portal refused the account: 'email exists' for an email-taken message as for email,
 *   else §8's 'Failed to create an account' fallback.
 */
export function socialSignInErrorText(error: unknown): VisitorText {
  const failure = asFailure(error);
  const code = failure?.code ?? null;
  if (code === 'rate_limited') return { key: 'rate_limited' };
  if (code === 'google_not_configured') return { key: 'google_not_configured' };
  const fromPortal = accountMessageText(portalMessages(failure));
  if (fromPortal) return fromPortal;
  const portalAnswered = failure?.kind === 'http' && !isWorkerErrorCode(code);
  return portalAnswered ? { key: 'signup_failed' } : { key: 'google_sign_in_failed' };
}

export type PhoneLookupErrorKey = (typeof PHONE_LOOKUP_ERROR_KEYS)[number];

/**
 * GET /api/phone-number-info/{phone} failed (SPEC.md §5, §8): the limit text when rate-limited;
 * 'An error occurred, please try again' when the lookup threw without an answer (no network,
 * the portal unreachable or answering garbage); any other non-200 is 'Phone number is incorrect'.
 */
export function phoneLookupErrorText(error: unknown): { key: PhoneLookupErrorKey } {
  const failure = asFailure(error);
  if (!failure) return { key: 'lookup_failed' };
  if (failure.code === 'rate_limited') return { key: 'rate_limited' };
  return failureLeftNoAnswer(failure) ? { key: 'lookup_failed' } : { key: 'phone_incorrect' };
}

/** Why the Google button cannot sign the visitor in (SPEC.md §8), as the island knows it. */
export type GoogleProblem =
  | 'not_configured'
  | 'not_available'
  | 'init_failed'
  | 'not_ready'
  | 'no_credential'
  | 'unexpected';

const GOOGLE_PROBLEM_KEYS: Record<GoogleProblem, ErrorTextKey> = {
  not_configured: 'google_not_configured',
  not_available: 'google_not_available',
  init_failed: 'google_init_failed',
  not_ready: 'google_not_ready',
  no_credential: 'google_no_credential',
  unexpected: 'google_unexpected',
};

/** The SPEC.md §8 text of a Google button problem. */
export function googleProblemText(problem: GoogleProblem): { key: ErrorTextKey } {
  return { key: GOOGLE_PROBLEM_KEYS[problem] };
}

/** A non-empty trimmed string, or null. */
function nonEmpty(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/**
 * What the visitor reads when the purchase's attempt ledger or the retry governor refuses a
 * charge (worker/purchase-ledger/charge-guard.ts): an earlier attempt charged or is still being
 * confirmed, so no second Pay; or this card is stopped, or tried too often, so another card.
 */
const LEDGER_REFUSAL_KEYS: Readonly<Record<string, ErrorTextKey>> = {
  purchase_charged: 'payment_may_have_gone_through',
  purchase_confirming: 'payment_may_have_gone_through',
  card_stopped: 'payment_card_stopped',
  provider_not_allowed: 'payment_card_stopped',
  card_retry_limit: 'payment_card_retry_limit',
  payment_guard_unavailable: 'payment_paused',
  provider_failed_other_offered: 'payment_provider_failed_offer',
  provider_failed_not_charged: 'payment_provider_failed',
};

/**
 * What the charge pipeline's steps answer a card they refuse (worker/charge-pipeline/), on the
 * checkout and the subscriber's page alike, and the text each is read as: the card-testing limit,
 * then the ledger's and the governor's.
 */
export const CARD_REFUSAL_KEYS: Readonly<Record<string, ErrorTextKey>> = {
  payment_rate_limited: 'payment_rate_limited',
  ...LEDGER_REFUSAL_KEYS,
};

/**
 * Anything a purchase step threw (SPEC.md §8 Payment):
 * - the limit texts when rate-limited (a sign-up's, or the card-testing limit's);
 * - a plan or coupon the visitor was not offered, an upsell before a plan, or a charge without
 *   the renewal consent the country asks for: ours, translated;
 * - no answer, or one that could not be read: 'An error has occurred (look at console)';
 * - the portal refusing: email-taken translated, else 'An error has occurred';
 * - anything else (a card provider's error): its text, else its message field, else
 *   'Payment error' (SPEC.md §5 Error text fallback).
 */
export function paymentErrorText(error: unknown): VisitorText {
  const failure = asFailure(error);
  if (failure) {
    if (failure.code === 'rate_limited') return { key: 'rate_limited' };
    if (failure.code === 'payment_rate_limited') return { key: 'payment_rate_limited' };
    const ledger = failure.code ? LEDGER_REFUSAL_KEYS[failure.code] : undefined;
    if (ledger) return { key: ledger };
    if (failure.code === 'plan_not_offered' || failure.code === 'coupon_not_offered') {
      return { key: 'offer_not_available' };
    }
    if (failure.code === 'main_purchase_required') return { key: 'offer_needs_purchase' };
    if (failure.code === 'renewal_consent_required') return { key: 'renewal_consent_required' };
    if (failure.code === 'renewal_consent_changed') return { key: 'renewal_consent_changed' };
    if (failureLeftNoAnswer(failure)) return { key: 'payment_no_answer' };
    return accountMessageText(portalMessages(failure)) ?? { key: 'payment_failed' };
  }
  const text =
    nonEmpty(error) ??
    (typeof error === 'object' && error !== null && 'message' in error
      ? nonEmpty(error.message)
      : null);
  return text === null ? { key: 'payment_error' } : { text };
}

/** SPEC.md §8: 'Unknown error. Please try again' when polling returned nothing. */
export function paymentNoResultText(): VisitorText {
  return { key: 'payment_no_result' };
}

/**
 * A refused payment (SPEC.md §8: a provider error on confirmation, or a final failed result,
 * reports the decline code or processor response): the provider's or processor's words when
 * there are any, else 'Payment error'.
 */
export function declinedPaymentText(reason: {
  message?: string | null;
  processorResponse?: string | null;
}): VisitorText {
  const text = nonEmpty(reason.message) ?? nonEmpty(reason.processorResponse);
  return text === null ? { key: 'payment_error' } : { text };
}
