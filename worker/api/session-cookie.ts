import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { AppEnv } from '../env';

const SESSION_COOKIE = 'gf_session';
/**
 * The signed-in visitor's external user id (SPEC.md §3), beside the token: the worker names the
 * buyer of a server-verified purchase with it (worker/purchases/). Attributes as the token's.
 */
const SESSION_USER_COOKIE = 'gf_user';

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
export function setSessionToken(c: Context<AppEnv>, token: string, userId?: string): void {
  setCookie(c, SESSION_COOKIE, token, SESSION_COOKIE_OPTIONS);
  if (userId) setCookie(c, SESSION_USER_COOKIE, userId, SESSION_COOKIE_OPTIONS);
}

/** The signed-in user's external id, or null (not signed in through this worker). */
export function sessionUserId(c: Context<AppEnv>): string | null {
  const userId = getCookie(c, SESSION_USER_COOKIE);
  return userId ? userId.slice(0, 128) : null;
}

export function sessionToken(c: Context<AppEnv>): string | null {
  const token = getCookie(c, SESSION_COOKIE);
  return token ? token : null;
}

/** The portal no longer knows the token (expired, revoked): the browser stops sending it. */
export function clearSessionToken(c: Context<AppEnv>): void {
  deleteCookie(c, SESSION_COOKIE, SESSION_COOKIE_OPTIONS);
  deleteCookie(c, SESSION_USER_COOKIE, SESSION_COOKIE_OPTIONS);
}
