import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';

/**
 * The visitor's uuid cookie (SPEC.md §4), as the visitor middleware, the collector, the resume
 * link and the console's preview read and write it.
 */

export const VISITOR_COOKIE = 'userUuid';

/** SPEC.md §9: the visitor uuid cookie lives 365 days. */
export const VISITOR_COOKIE_MAX_AGE = 365 * 24 * 60 * 60;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The visitor uuid a userUuid cookie's value holds (lower case), or null if it holds none. */
export function visitorIdOf(cookie: string | undefined): string | null {
  return cookie && UUID.test(cookie) ? cookie.toLowerCase() : null;
}

/** Stores the visitor uuid in its cookie (also the resume link's, worker/resume/). */
export function writeVisitorCookie(c: Context, id: string): void {
  setCookie(c, VISITOR_COOKIE, id, {
    maxAge: VISITOR_COOKIE_MAX_AGE,
    path: '/',
    secure: true,
    sameSite: 'Lax',
  });
}

/**
 * SPEC.md §4: the visitor uuid comes from the cookie, else a fresh v4 stored in the cookie by
 * this answer. Also the console's preview link's (worker/console/preview-route.ts), which binds
 * the preview to the browser's id before its first page.
 */
export function storedOrNewVisitorId(c: Context): string {
  const stored = visitorIdOf(getCookie(c, VISITOR_COOKIE));
  if (stored) return stored;
  const id = crypto.randomUUID();
  writeVisitorCookie(c, id);
  return id;
}
