import type { ApiErrorBody } from '../../shared/api/contract';
import { isEmailTakenMessage } from '../../shared/api/error-text';
import type { ApiCallName } from '../../shared/api/paths';

/**
 * What the browser is told when the product API refuses a call: never the API's own words
 * (a stack trace, 'Emulated failure of signup', a database error are not for visitors), only the
 * texts of SPEC.md §5 and §8 below, chosen per call from what the API's answer means. The raw
 * words go to the log line (rawRefusalForLog). The islands translate by meaning, not by these
 * English texts (shared/api/error-text.ts); the texts are what the JSON answer carries.
 */

/** The texts a product API failure may show, word for word from the spec. */
export const PORTAL_REFUSAL_TEXTS = {
  /** SPEC.md §5 Email already taken: the copy of 'email exists'. */
  emailTaken: 'The email has already been taken',
  /** SPEC.md §8 Payment: triggers the 3-D Secure flow. */
  userActionRequired: 'User action required',
  /** SPEC.md §8: the declined page's title. */
  paymentDeclined: 'Payment declined',
  /** SPEC.md §8 Sign-in and signup: the fallback of a signup or social sign-in. */
  accountFailed: 'Failed to create an account',
  /** SPEC.md §5 Phone lookup: a non-200 lookup. */
  phoneIncorrect: 'Phone number is incorrect',
  /** SPEC.md §8 Payment: the default when the server gives no (usable) message. */
  generic: 'An error has occurred',
} as const;

/**
 * The meanings of a product API refusal that the funnel acts on; `code` of the browser's body.
 * None is a code of the worker's own refusals (shared/api/worker-error-codes.ts): the islands
 * tell those apart by code.
 */
export type PortalRefusalCode =
  | 'email_taken'
  | 'user_action_required'
  | 'payment_declined'
  /** Anything else the API said: the call's own text. */
  | 'portal_refused'
  /** A refusal in a JSON shape other than §7's: no messages to read, the call's own text. */
  | 'portal_error';

type Meaning = Exclude<PortalRefusalCode, 'portal_refused' | 'portal_error'>;

/** A refusal as the worker read it (shared/api/portal-answers.ts PORTAL_REFUSAL). */
type ReadRefusal = Pick<
  ApiErrorBody,
  'errors' | 'decline_code' | 'data' | 'network_decline_code' | 'network_advice_code'
>;

/** How each meaning is recognised in a refusal, and the body the browser gets for it. */
const MEANINGS: Record<Meaning, (refused: ReadRefusal) => ApiErrorBody | null> = {
  // SPEC.md §8: 'User action required' triggers the 3-D Secure flow, with the nonce and amount.
  user_action_required: ({ errors, data }) =>
    errors.messages.some((message) => /user action required/i.test(message))
      ? {
          errors: { messages: [PORTAL_REFUSAL_TEXTS.userActionRequired] },
          code: 'user_action_required',
          ...(data ? { data } : {}),
        }
      : null,
  // SPEC.md §4 step 7: a declined charge's decline code is recorded and opens 'Payment declined'.
  payment_declined: ({ decline_code, network_decline_code, network_advice_code }) =>
    decline_code
      ? {
          errors: { messages: [PORTAL_REFUSAL_TEXTS.paymentDeclined] },
          code: 'payment_declined',
          decline_code: declineCodeOf(decline_code),
          // The network's codes, for the retry governor (worker/purchase-ledger/).
          ...(network_decline_code ? { network_decline_code } : {}),
          ...(network_advice_code ? { network_advice_code } : {}),
        }
      : null,
  // SPEC.md §5: 'the email has already been taken' or 'useremailtaken', case and dots aside.
  email_taken: ({ errors }) =>
    errors.messages.some(isEmailTakenMessage)
      ? { errors: { messages: [PORTAL_REFUSAL_TEXTS.emailTaken] }, code: 'email_taken' }
      : null,
};

/** What a payment call's refusal may mean, in the order they are looked for. */
const PAYMENT: readonly Meaning[] = ['user_action_required', 'payment_declined', 'email_taken'];

/**
 * The one table: per call of SPEC.md §7, the meanings of a refusal it keeps, and the text of
 * anything else (SPEC.md §8 for that step; 'An error has occurred' where §8 names none, as for
 * the calls whose failure is only logged).
 */
export const PORTAL_REFUSALS: Record<
  ApiCallName,
  { known: readonly Meaning[]; otherwise: string }
> = {
  signup: { known: ['email_taken'], otherwise: PORTAL_REFUSAL_TEXTS.accountFailed },
  socialSignIn: { known: ['email_taken'], otherwise: PORTAL_REFUSAL_TEXTS.accountFailed },
  paymentSettings: { known: [], otherwise: PORTAL_REFUSAL_TEXTS.generic },
  deeplink: { known: [], otherwise: PORTAL_REFUSAL_TEXTS.generic },
  country: { known: [], otherwise: PORTAL_REFUSAL_TEXTS.generic },
  phoneInfo: { known: [], otherwise: PORTAL_REFUSAL_TEXTS.phoneIncorrect },
  pollingSubscription: { known: PAYMENT, otherwise: PORTAL_REFUSAL_TEXTS.generic },
  pollingResult: { known: PAYMENT, otherwise: PORTAL_REFUSAL_TEXTS.generic },
  directSubscription: { known: PAYMENT, otherwise: PORTAL_REFUSAL_TEXTS.generic },
};

/** The body the browser gets for a §7-shaped refusal of `call`: its meaning, or the call's text. */
export function mappedRefusal(call: ApiCallName, refused: ReadRefusal): ApiErrorBody {
  const { known, otherwise } = PORTAL_REFUSALS[call];
  for (const meaning of known) {
    const body = MEANINGS[meaning](refused);
    if (body) return body;
  }
  return { errors: { messages: [otherwise] }, code: 'portal_refused' };
}

/** The body the browser gets for a refusal in another JSON shape (a framework's `{message}`). */
export function unshapedRefusal(call: ApiCallName): ApiErrorBody {
  return { errors: { messages: [PORTAL_REFUSALS[call].otherwise] }, code: 'portal_error' };
}

/** A gateway's decline code as analytics records it: a short code, or 'declined' for words. */
function declineCodeOf(raw: string): string {
  const code = raw.trim();
  return /^[\w.-]{1,64}$/.test(code) ? code : 'declined';
}

/** At most this many characters of the API's own words go on a log line. */
export const RAW_TEXT_LOGGED = 300;

/** The API's own words of a refusal, for the log line only: joined, on one line, truncated. */
export function rawRefusalForLog(texts: readonly string[]): string | undefined {
  const joined = texts.join(' | ').replace(/\s+/g, ' ').trim();
  if (joined === '') return undefined;
  return joined.length > RAW_TEXT_LOGGED ? `${joined.slice(0, RAW_TEXT_LOGGED - 1)}…` : joined;
}
