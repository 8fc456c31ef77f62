import { cookieValue } from '../attribution/cookie-header';

/** The product API's access token, kept HttpOnly for `/api` (worker/session/session-cookie.ts). */
export const SESSION_COOKIE = 'gf_session';

/** The session's access token in the request's `Cookie` header, or null. */
export function sessionToken(cookieHeader: string | undefined): string | null {
  const token = cookieValue(cookieHeader, SESSION_COOKIE);
  return token ? token : null;
}
