import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { CookieOptions } from 'hono/utils/cookie';
import { decodeSignedUp, type SignedUpAccount } from '../../shared/api/form-sign-up';
import { SPLIT_EXPERIMENT_ID } from '../../shared/experiments';
import { logError, logWarning } from '../../shared/log';
import { decodePostedPhone, type PostedPhone } from '../../shared/phone/posted-phone';
import type { Answers } from '../../shared/quiz/answers';
import {
  AD_COOKIE_HTTP_ONLY,
  AD_COOKIE_MAX_AGE,
  AD_COOKIES,
  type AdCookieName,
} from '../attribution/ad-cookies';
import { cookieValue } from '../attribution/cookie-header';
import type { Bindings } from '../env';
import { isDevelopment } from '../environment';
import {
  ACCOUNT_PINS_COOKIE,
  accountSubject,
  PINS_COOKIE,
  serializePins,
} from '../experiments/assignment/assign';
import type { ExperimentAssignment, VisitorAccount } from '../experiments/config/evaluate';
import { isSpeculative } from '../experiments/exposure/exposure-rules';
import { type AnswerHeaders, clearAnswerCookie } from '../http/answer-cookies';
import { visitorFacts } from '../routing/attributes';
import { decodeFirstTouch, type FirstTouch } from '../routing/first-touch';
import type { VisitorFacts } from '../routing/router';
import { type CookieRejection, keysWithPrevious, signCookie, verifyCookie } from '../signing';
import type { RootEnv, RouteMiddlewareEnv } from './envs';

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
async function readSignedCookie<E extends RootEnv>(
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

/** Each request's signed cookies, made once: `c` is one request's, whichever sub-app reads it. */
const requestCookies = new WeakMap<object, SignedCookies>();

/**
 * The request's signed cookies: one reader per request, so each cookie's signature is checked
 * once however many readers ask (the experiments ask for the account, the purchase for the
 * signed-in user in its guard, its memo and its record). What the request sent does not change
 * while it is answered: a write goes to the answer.
 */
export function signedCookiesOf<E extends RootEnv>(c: Context<E>): SignedCookies {
  let cookies = requestCookies.get(c);
  if (cookies === undefined) {
    cookies = requestSignedCookies(c);
    requestCookies.set(c, cookies);
  }
  return cookies;
}

function requestSignedCookies<E extends RootEnv>(c: Context<E>): SignedCookies {
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
    // Asked when read: the visitor middleware may name the visitor after a reader was made.
    get signs() {
      return cookieKey(c.env) !== null && Boolean(c.get('visitorId'));
    },
  };
}

/**
 * The visitor's uuid cookie (SPEC.md §4), as the visitor middleware, the collector, the resume
 * link and the console's preview read and write it.
 */

export const VISITOR_COOKIE = 'userUuid';

/** SPEC.md §9: the visitor uuid cookie lives 365 days. */
const VISITOR_COOKIE_MAX_AGE = 365 * 24 * 60 * 60;

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

/** The first touch's cookie: 30 days, the visit and the returns a campaign is judged on. */
export const FIRST_TOUCH_COOKIE = 'gf_touch';

export const FIRST_TOUCH_MAX_AGE = 30 * 24 * 60 * 60;

/**
 * The first touch a validly signed gf_touch keeps at `nowMs`: null when there is none, when it
 * is not signed for this visitor, or when the visit began FIRST_TOUCH_MAX_AGE ago (a browser
 * keeps the cookie that long; a visitor who saved it does not keep its campaign longer).
 */
export async function keptFirstTouch(
  cookies: SignedCookies,
  nowMs: number,
): Promise<{ touch: FirstTouch | null; cookie: SignedCookie }> {
  const cookie = await cookies.read(FIRST_TOUCH_COOKIE);
  const touch = cookie.state === 'valid' ? decodeFirstTouch(cookie.value) : null;
  const current = touch !== null && nowMs - touch.began_at < FIRST_TOUCH_MAX_AGE * 1000;
  return { touch: current ? touch : null, cookie };
}

/**
 * The visitor's route for the visit: a session cookie, gone when the browser closes, signed for
 * the visitor (worker/routing/router.ts holds its value).
 */
export const ROUTE_COOKIE = 'gf_route';

/** What rules read of a page request (routes here, experiments' audiences after). */
export function requestFacts<E extends RouteMiddlewareEnv>(
  c: Context<E>,
  touch: FirstTouch,
  now: number,
  answers?: Answers,
): VisitorFacts {
  return visitorFacts({
    ...(answers ? { answers } : {}),
    firstTouch: touch,
    country: c.get('country'),
    language: c.get('language'),
    userAgent: c.req.header('user-agent'),
    platformHint: c.req.header('sec-ch-ua-platform'),
    inApp: c.get('inApp') ?? null,
    returning: visitorIdOf(getCookie(c, VISITOR_COOKIE)) !== null,
    timeZone: timeZoneOf(c.req.raw),
    now,
  });
}

/** `request.cf.timezone` (an IANA name), or null outside Cloudflare's edge. */
function timeZoneOf(request: Request): string | null {
  const zone = (request.cf as { timezone?: unknown } | undefined)?.timezone;
  return typeof zone === 'string' && zone.length > 0 && zone.length <= 64 ? zone : null;
}

/**
 * The split experiment's pin, as it was before there were others (SPEC.md §4's stored variant),
 * signed like `gf_x`.
 */
export const VARIANT_COOKIE = 'gf_variant';

const cookieOptions = {
  maxAge: VISITOR_COOKIE_MAX_AGE,
  path: '/',
  secure: true,
  sameSite: 'Lax',
} as const;

/**
 * Pins the visitor to the variants of the experiments they were just exposed to, beside the
 * ones they hold: `gf_x`, and `gf_variant` for the split, which a visitor of before holds, both
 * signed for the visitor id (worker/request/cookies.ts), which must be set; and, for
 * the arms drawn by the account (a layer with a price test), `gf_ax`, signed for the account.
 */
export async function writePins<E extends RootEnv>(
  c: Context<E>,
  held: ReadonlyMap<string, string>,
  exposed: readonly Pick<ExperimentAssignment, 'experiment' | 'variant' | 'byAccount'>[],
  account: VisitorAccount | null = null,
): Promise<void> {
  const pins = new Map(held);
  const accountPins = new Map(account?.pins);
  let split: string | undefined;
  let toAccount = false;
  for (const { experiment, variant, byAccount } of exposed) {
    if (byAccount && account !== null) {
      accountPins.set(experiment, variant);
      toAccount = true;
    } else if (experiment === SPLIT_EXPERIMENT_ID) split = variant;
    else pins.set(experiment, variant);
  }
  pins.delete(SPLIT_EXPERIMENT_ID);
  await Promise.all([
    split === undefined ? undefined : writeSignedCookie(c, VARIANT_COOKIE, split, cookieOptions),
    pins.size === 0
      ? undefined
      : writeSignedCookie(c, PINS_COOKIE, serializePins(pins), cookieOptions),
    toAccount && account !== null
      ? writeSignedCookie(
          c,
          ACCOUNT_PINS_COOKIE,
          serializePins(accountPins),
          cookieOptions,
          accountSubject(account.id),
        )
      : undefined,
  ]);
}

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

/**
 * What the no-script forms carry to the next screen (worker/routes/screens/posted-forms.ts writes
 * them): the carried value, if any, cleared as it is read: a later visit starts from the browser's own
 * state. A prefetch leaves it alone, as the visitor may never see that answer.
 */
function takeCarried(
  page: { request: Request; answer: AnswerHeaders },
  name: string,
): string | undefined {
  const headers = page.request.headers;
  const raw = cookieValue(headers.get('cookie') ?? undefined, name);
  if (raw === undefined || isSpeculative((header) => headers.get(header) ?? undefined)) {
    return undefined;
  }
  clearAnswerCookie(page.answer, name, { path: '/', secure: true });
  return raw;
}

/** Carries the accepted number from the landing's post to the searching screen, and no further. */
export const POSTED_PHONE_COOKIE = 'gf_phone';

/** The carried number, if any, cleared as it is read (takeCarried). */
export function takePostedPhone(page: {
  request: Request;
  answer: AnswerHeaders;
}): PostedPhone | undefined {
  return decodePostedPhone(takeCarried(page, POSTED_PHONE_COOKIE)) ?? undefined;
}

/** Carries the new account from the signup screen's post to the next screen, and no further. */
export const SIGNED_UP_COOKIE = 'gf_account';

/** The carried account, if any, cleared as it is read (takeCarried). */
export function takeSignedUp(page: {
  request: Request;
  answer: AnswerHeaders;
}): SignedUpAccount | undefined {
  return decodeSignedUp(takeCarried(page, SIGNED_UP_COOKIE)) ?? undefined;
}

/**
 * A navigation from one of our own pages (`Sec-Fetch-Site: same-origin`, the browser's own
 * verdict) that brings back no visitor cookie: the browser keeps none of ours, since one that
 * does would send the userUuid the worker set on the first page. Such a visitor is drawn afresh
 * and given a new id on every page, so each page would count them as one more exposed visitor
 * with no outcome: they count once, on the page they came in on (from another site, or typed).
 * A browser that sends no Sec-Fetch-Site (before Safari 16.4) still counts on every page.
 */
export function isCookielessReturn(
  header: (name: string) => string | undefined,
  hasVisitorCookie: boolean,
): boolean {
  return !hasVisitorCookie && header('sec-fetch-site') === 'same-origin';
}
