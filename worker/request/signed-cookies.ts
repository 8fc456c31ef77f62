import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { CookieOptions } from 'hono/utils/cookie';
import { logError, logWarning } from '../../shared/log';
import type { Bindings } from '../env';
import { isDevelopment } from '../environment';
import { type CookieRejection, keysWithPrevious, signCookie, verifyCookie } from '../signing';
import type { RootEnv } from './envs';

/**
 * The cookies that decide a visitor's funnel and prices (gf_route, gf_touch, gf_variant, gf_x),
 * signed for the visitor id (worker/signing.ts) with COOKIE_SIGNING_KEY. A cookie is read
 * only when its signature holds; any other is reported once (a `routing_cookie_invalid` warning
 * naming the cookie and why) and its reader takes the state afresh from the request and replaces
 * the cookie, so the next page does not report it again. The visitor never sees an error.
 *
 * Without the secret outside development nothing is trusted and nothing is written (fail
 * closed): every page takes the route and first touch afresh from its own request, and variants
 * follow from the visitor id alone; an error line (`cookie_key_not_configured`) says so once
 * per isolate.
 */

/**
 * Signs the cookies under `npm start` and in the tests, where no secret is set. Public by being
 * in the repository, so it is never used outside development.
 */
const DEVELOPMENT_COOKIE_KEY = 'geofunnel-development-cookie-key';

/** The key the cookies are signed with: the secret, else in development a fixed one, else none. */
export function cookieKey(env: Bindings): string | null {
  if (env.COOKIE_SIGNING_KEY) return env.COOKIE_SIGNING_KEY;
  return isDevelopment(env) ? DEVELOPMENT_COOKIE_KEY : null;
}

let missingKeyReported = false;

function keyOf<E extends RootEnv>(c: Context<E>): string | null {
  const key = cookieKey(c.env);
  if (key === null && !missingKeyReported) {
    missingKeyReported = true;
    logError('cookie_key_not_configured', { id: c.get('requestId') });
  }
  return key;
}

/**
 * A signed cookie kept for the visit, as the first touch keeps it (30 days): HttpOnly, so page
 * script never reads it (the offer deadline, the card provider's pin).
 */
export const VISIT_COOKIE_OPTIONS = {
  httpOnly: true,
  secure: true,
  sameSite: 'Lax',
  path: '/',
  maxAge: 30 * 24 * 60 * 60,
} as const;

export type SignedCookie =
  | { state: 'none' }
  | { state: 'valid'; value: string }
  | { state: 'invalid'; reason: CookieRejection };

/**
 * What the request's cookie `name` holds, checked against the key for the visitor id (the
 * request's, unless the caller names the one it read itself, as the collector does): one HMAC
 * verify. `none` also when there is no key (above) or no visitor id to check it for.
 */
export async function readSignedCookie<E extends RootEnv>(
  c: Context<E>,
  name: string,
  visitorId: string | null | undefined = c.get('visitorId'),
): Promise<SignedCookie> {
  const cookie = getCookie(c, name);
  if (cookie === undefined) return { state: 'none' };
  const key = keyOf(c);
  if (key === null || !visitorId) return { state: 'none' };
  // While the key is rotated, the one before too: no visit loses its route, arms or offer.
  const keys = keysWithPrevious(key, c.env.COOKIE_SIGNING_KEY_PREVIOUS);
  const verdict = await verifyCookie(keys, name, visitorId, cookie);
  return verdict.ok
    ? { state: 'valid', value: verdict.value }
    : { state: 'invalid', reason: verdict.reason };
}

/**
 * Sets cookie `name` to `value`, signed for the request's visitor (or the subject named, as the
 * account's pins are); nothing without a key.
 */
export async function writeSignedCookie<E extends RootEnv>(
  c: Context<E>,
  name: string,
  value: string,
  options: CookieOptions,
  visitorId: string | null | undefined = c.get('visitorId'),
): Promise<void> {
  const key = keyOf(c);
  if (key === null || !visitorId) return;
  setCookie(c, name, await signCookie(key, name, visitorId, value), options);
}

/** The warning for a cookie not read: the reader replaces or clears it, so once per visit. */
export function reportInvalidCookie<E extends RootEnv>(
  c: Context<E>,
  name: string,
  reason: CookieRejection,
): void {
  logWarning('routing_cookie_invalid', { id: c.get('requestId'), cookie: name, reason });
}

/** Clears cookie `name`, for a reader that has nothing to put in its place. */
export function clearCookie(c: Context, name: string): void {
  deleteCookie(c, name, { path: '/', secure: true });
}

/**
 * A request's signed cookies as code below a route handler reads and writes them: the handler
 * hands `signedCookiesOf(c)`, so what it calls holds these cookies and nothing else of `c`.
 */
export interface SignedCookies {
  /** readSignedCookie's answer; the request's visitor id unless one is named. */
  read(name: string, visitorId?: string | null): Promise<SignedCookie>;
  write(name: string, value: string, options: CookieOptions): Promise<void>;
  reportInvalid(name: string, reason: CookieRejection): void;
  /** Whether cookies can be signed here at all: a key, and a visitor id to sign them for. */
  readonly signs: boolean;
}

export function signedCookiesOf<E extends RootEnv>(c: Context<E>): SignedCookies {
  // Each cookie is verified once for the request, however many readers below the handler ask
  // (a purchase asks for the signed-in user in its guard, its memo and its record). What the
  // request sent does not change while it is answered: a write goes to the answer.
  const readings = new Map<string, Promise<SignedCookie>>();
  return {
    read(name, visitorId) {
      const id = visitorId === undefined ? c.get('visitorId') : visitorId;
      const memo = `${name}\n${id ?? ''}`;
      let reading = readings.get(memo);
      if (reading === undefined) {
        reading = readSignedCookie(c, name, id);
        readings.set(memo, reading);
      }
      return reading;
    },
    write: (name, value, options) => writeSignedCookie(c, name, value, options),
    reportInvalid: (name, reason) => reportInvalidCookie(c, name, reason),
    signs: cookieKey(c.env) !== null && Boolean(c.get('visitorId')),
  };
}
