import { cookieValue } from '../attribution/cookie-header';
import { hashedMatchKey } from '../attribution/match-keys';
import { type AnswerHeaders, clearAnswerCookie, setAnswerCookie } from '../http/answer-cookies';
import {
  forgetSignedInUser,
  noteSignedInSession,
  noteSignedInUser,
  SESSION_COOKIE,
  type SignInAnswer,
} from '../request/signed-in-user';

/**
 * SHA-256 (hex) of the signed-up buyer's trimmed, lower-cased email, the ad networks' strongest
 * match key after the click id (Meta `em`, TikTok `email`): taken when the sign-up the worker
 * relays succeeds, read when it records the purchase (worker/purchases/record-purchase.ts).
 * Only its hash is ever kept. A visitor can write another hash here and so spoil the match of
 * their own purchase, nothing more. Attributes as the token's.
 */
const BUYER_EMAIL_COOKIE = 'gf_buyer';
const SHA256_HEX = /^[0-9a-f]{64}$/;

const SESSION_COOKIE_OPTIONS = {
  httpOnly: true,
  secure: true,
  sameSite: 'Lax',
  path: '/api',
} as const;

/**
 * Keeps the portal's access token where page JavaScript cannot read it (deliberately stronger
 * than SPEC.md §3's session storage, which any injected script could read): HttpOnly, only sent
 * to `/api`, and, like session storage, gone when the browser session ends (no Max-Age).
 */
export function setSessionToken(answer: SignInAnswer, token: string, userId?: string): void {
  setAnswerCookie(answer, SESSION_COOKIE, token, SESSION_COOKIE_OPTIONS);
  // It is bound to this visitor, and its user id named, in signed cookies once the answer is
  // made (middleware/signed-in-user.ts).
  noteSignedInSession(answer, token);
  if (userId) noteSignedInUser(answer, userId);
}

export async function setBuyerEmail(answer: AnswerHeaders, email: string): Promise<void> {
  setAnswerCookie(answer, BUYER_EMAIL_COOKIE, await hashedMatchKey(email), SESSION_COOKIE_OPTIONS);
}

/**
 * The hashed email of the buyer who signed up in this browser session, from the request's
 * `Cookie` header, or null.
 */
export function buyerEmailHash(cookieHeader: string | undefined): string | null {
  const hash = cookieValue(cookieHeader, BUYER_EMAIL_COOKIE);
  return hash !== undefined && SHA256_HEX.test(hash) ? hash : null;
}

/** The portal no longer knows the token (expired, revoked): the browser stops sending it. */
export function clearSessionToken(answer: SignInAnswer): void {
  clearAnswerCookie(answer, SESSION_COOKIE, SESSION_COOKIE_OPTIONS);
  clearAnswerCookie(answer, BUYER_EMAIL_COOKIE, SESSION_COOKIE_OPTIONS);
  forgetSignedInUser(answer);
}
