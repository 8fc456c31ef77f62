import type { MiddlewareHandler } from 'hono';
import { COLLECTOR_PATH } from '../../shared/analytics/tracking';
import { type AnswerHeaders, clearAnswerCookie } from '../http/answer-cookies';
import type { RootEnv } from './envs';
import { type SignedCookies, writeSignedCookie } from './signed-cookies';

/** Set by whatever signs a visitor in (noteSignedInUser), read once the answer is made. */
export interface SignedInUserVariables {
  /**
   * The user id this request signed the visitor in as (worker/session/session-cookie.ts), for its
   * signed cookies (signedInUserCookies).
   */
  signedInUserId?: string;
}

/**
 * What signing a visitor in or out does to the answer being made: names its user for the
 * signed cookies, and clears them. A handler hands its `c`, which is one.
 */
export interface SignInAnswer extends AnswerHeaders {
  set(key: 'signedInUserId', value: string | undefined): void;
}

/**
 * The signed-in visitor's external user id (SPEC.md §3 `entity.external_user_id`), kept beside
 * the session's token in two cookies, one for each path that needs it: `gf_user` for `/api`,
 * where the worker names the buyer of a verified purchase and the owner of a charge
 * (worker/purchases/), and `gf_event_user` for `/e`, where the collector stores events under it
 * (worker/collector/event-identity.ts). Both are HttpOnly, gone with the browser session like
 * the token, and signed for the visitor id with the worker's cookie key
 * (worker/middleware/signed-cookies.ts): a visitor who writes another user's id into either is
 * read as signed in as nobody, and one copied into another browser does not pass for its visitor.
 * Without the key outside development neither is written, and purchases and events carry no
 * user id.
 */
const SESSION_USER_COOKIE = 'gf_user';
export const EVENT_USER_COOKIE = 'gf_event_user';

const ATTRIBUTES = { httpOnly: true, secure: true, sameSite: 'Lax' } as const;
const PATHS = { [SESSION_USER_COOKIE]: '/api', [EVENT_USER_COOKIE]: COLLECTOR_PATH } as const;

/** The longest user id kept: the portal's are far shorter, and a cookie must stay small. */
const MAX_USER_ID = 128;

/** Notes who the request signed in as; signedInUserCookies writes the cookies once it answers. */
export function noteSignedInUser(answer: SignInAnswer, userId: string): void {
  answer.set('signedInUserId', userId.slice(0, MAX_USER_ID));
}

/**
 * Writes the signed-in user's cookies after the answer is made: signing is asynchronous, and a
 * session is set in the middle of a handler (worker/api/call-handler.ts, the resume pages).
 */
export function signedInUserCookies(): MiddlewareHandler<RootEnv> {
  return async function signedInUserCookiesMiddleware(c, next) {
    await next();
    const userId = c.get('signedInUserId');
    if (userId === undefined) return;
    for (const [name, path] of Object.entries(PATHS)) {
      await writeSignedCookie(c, name, userId, { ...ATTRIBUTES, path });
    }
  };
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
  for (const [name, path] of Object.entries(PATHS)) {
    clearAnswerCookie(answer, name, { ...ATTRIBUTES, path });
  }
}
