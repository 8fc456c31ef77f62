import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { COLLECTOR_PATH } from '../../shared/analytics/tracking';
import type { AppEnv, Bindings } from '../env';
import { base64urlBytes, HMAC_BYTES, hmacSign, hmacVerify } from '../hmac';

/**
 * The signed-in user's id as the collector reads it. The session's own cookies
 * (worker/api/session-cookie.ts) are scoped to `/api`, so a batch to `/e` never carries them;
 * this copy is scoped to `/e` alone, HttpOnly, gone with the browser session like them, and
 * signed: a visitor who writes another user's id into it is read as signed in as nobody. Its
 * value is `<user id>.<base64url HMAC-SHA256>`, about 60 bytes with the portal's ids (at most 180
 * with 128-character ones), sent with every batch and nowhere else.
 */
export const EVENT_USER_COOKIE = 'gf_event_user';

const EVENT_USER_COOKIE_OPTIONS = {
  httpOnly: true,
  secure: true,
  sameSite: 'Lax',
  path: COLLECTOR_PATH,
} as const;

/**
 * The same secret as the resume links (RESUME_LINK_KEY), under a label of its own so that no
 * signature of one kind is ever one of the other. Unset (as `/api/resume` then answers 503), no
 * copy is made and every event is stored without a user id.
 */
const LABEL = 'geofunnel collector user v1\n';

function secretOf(env: Bindings): string | null {
  return env.RESUME_LINK_KEY ? env.RESUME_LINK_KEY : null;
}

/** The cookie's value for `userId`. */
export async function signedEventUser(secret: string, userId: string): Promise<string> {
  return `${userId}.${await hmacSign(secret, LABEL + userId)}`;
}

/** The user id a cookie value vouches for under `secret`, or null (absent, altered, unsigned). */
async function verifiedEventUser(
  secret: string,
  value: string | undefined,
): Promise<string | null> {
  if (value === undefined) return null;
  const dot = value.lastIndexOf('.');
  if (dot <= 0) return null;
  const userId = value.slice(0, dot);
  const mac = base64urlBytes(value.slice(dot + 1));
  if (mac === null || mac.byteLength !== HMAC_BYTES) return null;
  return (await hmacVerify(secret, LABEL + userId, mac)) ? userId : null;
}

/** The user id the request to `/e` is signed in as, or null. */
export async function collectorUserId(c: Context<AppEnv>): Promise<string | null> {
  const secret = secretOf(c.env);
  if (secret === null) return null;
  return verifiedEventUser(secret, getCookie(c, EVENT_USER_COOKIE));
}

/**
 * Gives `/e` its signed copy of the user id a request signed in with (setSessionToken records
 * it): after the answer is made, since signing is asynchronous and the session is set in the
 * middle of a handler.
 */
export function eventUserCookie(): MiddlewareHandler<AppEnv> {
  return async function eventUserCookieMiddleware(c, next) {
    await next();
    const userId = c.get('signedInUserId');
    const secret = secretOf(c.env);
    if (userId === undefined || secret === null) return;
    setCookie(c, EVENT_USER_COOKIE, await signedEventUser(secret, userId), {
      ...EVENT_USER_COOKIE_OPTIONS,
    });
  };
}

/** The session ended: `/e` no longer names its user. */
export function clearEventUser(c: Context<AppEnv>): void {
  deleteCookie(c, EVENT_USER_COOKIE, EVENT_USER_COOKIE_OPTIONS);
}
