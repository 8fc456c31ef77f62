import { generateCookie } from 'hono/cookie';
import type { CookieOptions } from 'hono/utils/cookie';
import type { Answer } from './answer';

/** The one thing a cookie's writer needs of the answer: its headers. */
export type AnswerHeaders = Pick<Answer, 'header'>;

/**
 * Sets a cookie on the answer as Hono's setCookie does (the same serialisation and defaults, a
 * path of '/'), for code below the route handlers, which holds the answer's headers and not `c`.
 */
export function setAnswerCookie(
  answer: AnswerHeaders,
  name: string,
  value: string,
  options?: CookieOptions,
): void {
  answer.header('Set-Cookie', generateCookie(name, value, options), { append: true });
}

/** Clears a cookie as Hono's deleteCookie does: the same cookie, empty and expired at once. */
export function clearAnswerCookie(
  answer: AnswerHeaders,
  name: string,
  options?: CookieOptions,
): void {
  setAnswerCookie(answer, name, '', { ...options, maxAge: 0 });
}
