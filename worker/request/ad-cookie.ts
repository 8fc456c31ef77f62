import type { Context } from 'hono';
import { setCookie } from 'hono/cookie';
import {
  AD_COOKIE_HTTP_ONLY,
  AD_COOKIE_MAX_AGE,
  AD_COOKIES,
  type AdCookieName,
} from '../attribution/ad-cookies';

/** Sets one first-party ad cookie (also the resume link's, worker/resume/). */
export function writeAdCookie(c: Context, name: AdCookieName, value: string): void {
  // All but _gf_ttclid readable by the pixels' scripts, which read and send them too.
  setCookie(c, AD_COOKIES[name], value, {
    maxAge: AD_COOKIE_MAX_AGE[name],
    httpOnly: AD_COOKIE_HTTP_ONLY[name],
    path: '/',
    secure: true,
    sameSite: 'Lax',
  });
}
