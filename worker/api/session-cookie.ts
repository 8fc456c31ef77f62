import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { AppEnv } from '../env';

export const SESSION_COOKIE = 'gf_session';

/**
 * Keeps the portal's access token where page JavaScript cannot read it (issue 4, deliberately
 * stronger than SPEC.md §3's session storage): HttpOnly, only sent to `/api`, and, like session
 * storage, gone when the browser session ends (no Max-Age).
 */
export function setSessionToken(c: Context<AppEnv>, token: string): void {
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    secure: true,
    sameSite: 'Lax',
    path: '/api',
  });
}

export function sessionToken(c: Context<AppEnv>): string | null {
  const token = getCookie(c, SESSION_COOKIE);
  return token ? token : null;
}

/** The portal no longer knows the token (expired, revoked): the browser stops sending it. */
export function clearSessionToken(c: Context<AppEnv>): void {
  deleteCookie(c, SESSION_COOKIE, { path: '/api', secure: true, httpOnly: true, sameSite: 'Lax' });
}
