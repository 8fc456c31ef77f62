import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { COLLECTOR_PATH } from '../../shared/analytics/tracking';
import { sha256Hex } from '../../shared/hex';
import { type AnswerHeaders, clearAnswerCookie } from '../http/answer-cookies';
import { type SignedCookies, writeSignedCookie } from './cookies';
import type { RootEnv } from './envs';

/** Set by whatever signs a visitor in (noteSignedInUser), read once the answer is made. */
export interface SignedInUserVariables {
  /**
   * The user id this request signed the visitor in as (worker/session/session-cookie.ts), for its
   * signed cookies (signedInUserCookies).
   */
  signedInUserId?: string;
  /** The session this request began: its access token, whose hash binds it (ACCOUNT_COOKIE). */
  signedInToken?: string;
}

/**
 * What signing a visitor in or out does to the answer being made: names its user for the
 * signed cookies, and clears them. A handler hands its `c`, which is one.
 */
export interface SignInAnswer extends AnswerHeaders {
  set(key: 'signedInUserId' | 'signedInToken', value: string | undefined): void;
}

/**
 * The signed-in visitor's external user id (SPEC.md §3 `entity.external_user_id`), kept beside
 * the session's token in two cookies, one for each path that needs it: `gf_user` for `/api`,
 * where the worker names the buyer of a verified purchase and the owner of a charge
 * (worker/purchases/), and `gf_event_user` for `/e`, where the collector stores events under it
 * (worker/collector/event-identity.ts). Both are HttpOnly, gone with the browser session like
 * the token, and signed for the visitor id with the worker's cookie key
 * (worker/request/cookies.ts): a visitor who writes another user's id into either is
 * read as signed in as nobody, and one copied into another browser does not pass for its visitor.
 * Without the key outside development neither is written, and purchases and events carry no
 * user id.
 */
const SESSION_USER_COOKIE = 'gf_user';
export const EVENT_USER_COOKIE = 'gf_event_user';

const ATTRIBUTES = { httpOnly: true, secure: true, sameSite: 'Lax' } as const;
/** Gone with the browser session, like the token it binds. */
const ACCOUNT_ATTRIBUTES = { ...ATTRIBUTES, path: '/' } as const;
const PATHS = { [SESSION_USER_COOKIE]: '/api', [EVENT_USER_COOKIE]: COLLECTOR_PATH } as const;

/** The longest user id kept: the portal's are far shorter, and a cookie must stay small. */
const MAX_USER_ID = 128;

/**
 * `gf_session_owner`: which session this browser holds and whose account it is, `<user id>~<token
 * hash>` (the user id empty where the product API named none), signed for the visitor id and sent
 * with every request (path `/`). It binds the session to the visitor who began it: the access
 * token (`gf_session`) is the product API's and works wherever it is sent, so a visitor who keeps
 * it and changes their `userUuid` would otherwise pay as another visitor, in that visitor's arms
 * (sessionHeldHere refuses it). And it names the account on pages, where the arms of price tests
 * follow the account, not the visitor (worker/experiments/config/evaluate.ts).
 */
export const ACCOUNT_COOKIE = 'gf_session_owner';

/** Notes who the request signed in as; signedInUserCookies writes the cookies once it answers. */
export function noteSignedInUser(answer: SignInAnswer, userId: string): void {
  answer.set('signedInUserId', userId.slice(0, MAX_USER_ID));
}

/** Notes the session the request began, for the account cookie written once it answers. */
export function noteSignedInSession(answer: SignInAnswer, token: string): void {
  answer.set('signedInToken', token);
}

/** The first 16 bytes of the token's SHA-256, hex: enough to tell sessions apart, and no token. */
async function sessionHash(token: string): Promise<string> {
  return sha256Hex(token, 32);
}

/** The user id is what comes before the last '~' (the hash has none), whatever it holds. */
const ACCOUNT_VALUE = /^(.{0,128})~([0-9a-f]{32})$/s;

/** The signed-in account a request's `gf_session_owner` names: its user id (null: none known). */
export interface HeldAccount {
  userId: string | null;
}

/** What the request's account cookie holds, if signed for its visitor; null otherwise. */
export async function heldAccount(cookies: SignedCookies): Promise<HeldAccount | null> {
  const cookie = await cookies.read(ACCOUNT_COOKIE);
  if (cookie.state !== 'valid') return null;
  const match = ACCOUNT_VALUE.exec(cookie.value);
  if (!match) return null;
  return { userId: match[1] ? match[1] : null };
}

/**
 * Whether the session whose token a bearer call carries is this visitor's: the account cookie is
 * signed for the visitor id and names this token. `unbound` where no key signs cookies (nothing
 * can be bound). A session from before the account cookie counts as held if its `gf_user` names
 * its user for this visitor, and gets the cookie now; without one it is not held (signed in again).
 */
export async function sessionHeldHere(
  cookies: SignedCookies,
  token: string,
): Promise<'held' | 'unbound' | 'not_held'> {
  if (!cookies.signs) return 'unbound';
  const hash = await sessionHash(token);
  const account = await cookies.read(ACCOUNT_COOKIE);
  if (account.state === 'valid')
    return ACCOUNT_VALUE.exec(account.value)?.[2] === hash ? 'held' : 'not_held';
  if (account.state === 'invalid') return 'not_held';
  // A session from before the account cookie: its user cookie, signed for this visitor, vouches.
  const user = await cookies.read(SESSION_USER_COOKIE);
  if (user.state !== 'valid') return 'not_held';
  await cookies.write(ACCOUNT_COOKIE, `${user.value}~${hash}`, ACCOUNT_ATTRIBUTES);
  return 'held';
}

/**
 * Writes the signed-in user's cookies once the answer is made (the signedInUserCookies
 * middleware): signing is asynchronous, and a session is set in the middle of a handler
 * (worker/api/call-handler.ts, the resume pages).
 */
export async function writeSignedInCookies<E extends RootEnv>(c: Context<E>): Promise<void> {
  const userId = c.get('signedInUserId');
  const token = c.get('signedInToken');
  if (token !== undefined) {
    const value = `${userId ?? ''}~${await sessionHash(token)}`;
    await writeSignedCookie(c, ACCOUNT_COOKIE, value, ACCOUNT_ATTRIBUTES);
  }
  if (userId === undefined) return;
  for (const [name, path] of Object.entries(PATHS)) {
    await writeSignedCookie(c, name, userId, { ...ATTRIBUTES, path });
  }
}

/** The signed-in user of an `/api` request, or null (not signed in, or a cookie not ours). */
export async function sessionUserId(cookies: SignedCookies): Promise<string | null> {
  const cookie = await cookies.read(SESSION_USER_COOKIE);
  return cookie.state === 'valid' ? cookie.value : null;
}

/** The signed-in user of a batch to `/e` from `visitorId` (its uuid cookie), or null. */
export async function collectorUserId(
  cookies: SignedCookies,
  visitorId: string | null,
): Promise<string | null> {
  if (visitorId === null) return null;
  const cookie = await cookies.read(EVENT_USER_COOKIE, visitorId);
  return cookie.state === 'valid' ? cookie.value : null;
}

/** The session ended: neither `/api` nor `/e` names its user any more. */
export function forgetSignedInUser(answer: SignInAnswer): void {
  answer.set('signedInUserId', undefined);
  answer.set('signedInToken', undefined);
  for (const [name, path] of Object.entries(PATHS)) {
    clearAnswerCookie(answer, name, { ...ATTRIBUTES, path });
  }
  clearAnswerCookie(answer, ACCOUNT_COOKIE, ACCOUNT_ATTRIBUTES);
}

/** The product API's access token, kept HttpOnly for `/api` (worker/session/session-cookie.ts). */
export const SESSION_COOKIE = 'gf_session';

/** The session's access token the request's cookies hold, or null. */
export function sessionToken<E extends RootEnv>(c: Context<E>): string | null {
  const token = getCookie(c, SESSION_COOKIE);
  return token ? token : null;
}
