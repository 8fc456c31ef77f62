import { isScreenRef } from '../composed-screens';
import { isValidEmail } from '../email-validity';
import { isScreenId, type ScreenId } from '../screens';

/**
 * The signup screens' email form posted without script (before its island hydrated, or with
 * JavaScript off): the worker creates the account as the island would
 * (worker/routes/screens/posted-forms.ts) and hands it to the next screen, or shows the form again
 * with why it could not.
 */

/** A refused post: what was typed, and the text the visitor reads under the field. */
export interface RefusedEmail {
  value: string;
  message: string;
  /** The address already has an account: the form says what to do next (SPEC.md §5). */
  taken?: boolean;
}

/**
 * The account the worker created from the form, as the next screen's islands take it over
 * (islands/signup/adopt-account.ts): what the island's own sign-up would have stored (SPEC.md §4
 * Signup). The access token is not here: it is already in the session cookie.
 */
export interface SignedUpAccount {
  email: string;
  /** The product API's id of the user; empty when it named none (shared/api/portal-answers.ts). */
  userId: string;
  /**
   * The one-time login grant the success screen's app link and the resume link spend; empty when
   * the portal gave none.
   */
  deeplinkToken: string;
  /** The screen the visitor signed up on: the lead event is reported as having happened there. */
  screen: ScreenId;
  /**
   * The path of that screen: its own, which a composed screen's id names (`/spring_signup`)
   * where `screen` is the screen in code it is drawn as; the lead's path is this one.
   */
  path: string;
}

/** Far above any real value (ids and tokens are tens of characters), far below a cookie's limit. */
const MAX_ID_LENGTH = 512;

function isShortText(value: unknown): value is string {
  return typeof value === 'string' && value.length <= MAX_ID_LENGTH;
}

/** The account as its short-lived cookie carries it to the next screen. */
export function encodeSignedUp(account: SignedUpAccount): string {
  return JSON.stringify(account);
}

/** The cookie's account, checked field by field (a cookie is the visitor's to edit), or null. */
export function decodeSignedUp(raw: string | undefined): SignedUpAccount | null {
  if (!raw) return null;
  let value: Partial<Record<keyof SignedUpAccount, unknown>>;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { email, userId, deeplinkToken, screen, path } = value;
  if (typeof email !== 'string' || !isValidEmail(email)) return null;
  if (!isShortText(userId) || !isShortText(deeplinkToken)) return null;
  if (typeof screen !== 'string' || !isScreenId(screen)) return null;
  // A cookie written before paths were carried names the screen in code's.
  const ownPath = isScreenPath(path) ? path : `/${screen}`;
  return { email, userId, deeplinkToken, screen, path: ownPath };
}

function isScreenPath(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith('/') && isScreenRef(value.slice(1));
}
