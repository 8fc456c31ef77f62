import { base64url } from 'jose';
import * as z from 'zod';
import {
  type ContentChoices,
  type ContentDocument,
  contentChoices,
} from '../../shared/config/content';
import { countryCurrencies } from '../../shared/config/currencies';
import { offerTerms } from '../../shared/config/offer-terms';
import { CONSOLE_PREVIEW_PATH } from '../../shared/console-api/config';
import { logLine } from '../../shared/log';
import type { CountryCurrencies } from '../../shared/plans/currency';
import type { AccessCheck } from '../access/console-access';
import type { Bindings } from '../env';
import { isDevelopment } from '../environment';
import { type AnswerHeaders, clearAnswerCookie, setAnswerCookie } from '../http/answer-cookies';
import { base64urlBytes, HMAC_BYTES, hmacSign, hmacVerify } from '../signing';

/**
 * A marketer's preview of one variant or one route (the console's preview links): a token naming
 * what is previewed and when the preview ends, signed with HMAC-SHA256 so that no visitor can
 * make one and skip the split test or the routes, or hide their visits from the experiment; the
 * cookie that carries it (PREVIEW_COOKIE); and a draft content the console draws by a request of
 * its own (withDraftContent).
 *
 * A variant's token reads `<variant, base64url>.<expiry, epoch seconds>.<HMAC of the first two,
 * base64url>`: a variant key may hold any character, so it is encoded rather than split on.
 * A route's reads `r.<route JSON, base64url>.<expiry>.<HMAC of the first three>`: four parts, so
 * neither kind can pass for the other.
 * A route's token carries the route whole (flow, plans, content variants, offer terms), not just
 * its id, so "test a visitor" can preview a route of a draft that is not published yet, and the
 * arms the marketer chose, which each page checks still exist (worker/request/visit-facts.ts).
 *
 * The token a cookie holds is bound to the browser that opened the preview link: its HMAC also
 * covers that browser's visitor id (`<first parts>\n<visitor id>`), as the routing cookies'
 * does (worker/signing.ts), so a value copied into another browser verifies there as a forged
 * one: that visitor gets their own arms and route and is counted. The link "test a visitor"
 * hands out (worker/console/route-test.ts) is signed without a visitor (no line feed, so it
 * never passes for a cookie's token nor the reverse): it opens in any of the marketer's browsers,
 * and each sets a cookie of its own. Tokens signed before the binding no longer verify; previews
 * last an hour, so none needs to be carried over.
 */

/** How long a preview lasts: time to walk a flow, short enough that a forgotten one ends. */
export const PREVIEW_TTL_SECONDS = 60 * 60;

/**
 * Why a preview token is not honoured. `bad_signature`: forged, tampered with, or a cookie copied
 * from the browser it was signed for (telling those apart would cost an HMAC per request);
 * `no_visitor_id`: a cookie's token from a browser without a visitor id, so bound to none it has;
 * `no_identity`: from a browser where nobody is signed in through Cloudflare Access, so no
 * marketer's.
 */
export type PreviewRejection =
  | 'malformed'
  | 'bad_signature'
  | 'expired'
  | 'no_visitor_id'
  | 'no_identity';

/**
 * The route a preview shows, as the console's "test a visitor" found it: its flow, plans, the
 * content variants it shows and its offer terms and currencies (everything the router's route
 * carries), with the arms the marketer chose, experiment id → variant, if any.
 */
export interface PreviewedRoute {
  id: string;
  flow: string;
  plans: string[] | null;
  /** The upsell's and the guide's plans; absent or null: the screens' own. */
  upsellPlans?: string[] | null;
  guidePlans?: string[] | null;
  content?: ContentChoices;
  currencies?: CountryCurrencies;
  anchors?: false;
  countdown?: false;
  /** Arms the preview shows, each checked against the config on every page (experiments.ts). */
  arms?: Record<string, string>;
}

export type PreviewVerdict =
  | { ok: true; variant: string; expiresAt: number }
  | { ok: true; route: PreviewedRoute; expiresAt: number }
  | { ok: false; reason: PreviewRejection };

const ROUTE_MARK = 'r';
/** Route ids, flow names and plan families as the routing section allows them. */
const NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const MAX_PLANS = 4;
/** More arms than layers cannot all be shown. */
const MAX_ARMS = 8;

const name = z.string().regex(NAME);
const planList = z.array(name).max(MAX_PLANS).nullable();

/** A previewed route as a token carries it and the content editor's preview asks for it. */
const previewedRoute = z.strictObject({
  id: name,
  flow: name,
  plans: planList,
  upsellPlans: planList.optional(),
  guidePlans: planList.optional(),
  content: contentChoices.optional(),
  currencies: countryCurrencies.optional(),
  ...offerTerms,
  arms: z
    .record(z.string().max(64), z.string().max(64))
    .refine((arms) => Object.keys(arms).length <= MAX_ARMS)
    .optional(),
});

const EXPIRY = /^\d{1,12}$/;
const utf8 = new TextDecoder();

/** A link's token, which any browser of the marketer's may open (see the top of the file). */
const LINK = Symbol('preview link');

/**
 * Who holds a preview cookie: the browser's visitor id, and the marketer signed in through
 * Cloudflare Access there (worker/access/console-access.ts, from the `CF_Authorization` cookie
 * Access keeps for the host; under `npm start`, the console's development author).
 */
export interface PreviewHolder {
  visitorId: string;
  author: string;
}

/**
 * What a token's HMAC covers: its parts before the signature, then the visitor id of the browser
 * a cookie's token is bound to and the marketer who opened it; a link's (LINK) is bound to none.
 */
function boundText(parts: string, holder: PreviewHolder | typeof LINK): string {
  return holder === LINK ? parts : `${parts}\n${holder.visitorId}\n${holder.author}`;
}

/** A preview cookie's token for `variant`, bound to `visitorId`, valid until `expiresAt` (epoch seconds). */
export async function signPreview(
  secret: string,
  variant: string,
  expiresAt: number,
  holder: PreviewHolder,
): Promise<string> {
  const signed = `${base64url.encode(variant)}.${Math.floor(expiresAt)}`;
  return `${signed}.${await hmacSign(secret, boundText(signed, holder))}`;
}

/** A preview cookie's token for `route`, bound to `holder`, valid until `expiresAt`. */
export function signRoutePreview(
  secret: string,
  route: PreviewedRoute,
  expiresAt: number,
  holder: PreviewHolder,
): Promise<string> {
  return signRouteToken(secret, route, expiresAt, holder);
}

/** The token of a link to preview `route` (worker/console/route-test.ts), valid until `expiresAt`. */
export function signRouteLink(
  secret: string,
  route: PreviewedRoute,
  expiresAt: number,
): Promise<string> {
  return signRouteToken(secret, route, expiresAt, LINK);
}

async function signRouteToken(
  secret: string,
  route: PreviewedRoute,
  expiresAt: number,
  holder: PreviewHolder | typeof LINK,
): Promise<string> {
  const json = JSON.stringify(previewedRouteOf(route) ?? { id: route.id, flow: route.flow });
  const signed = `${ROUTE_MARK}.${base64url.encode(json)}.${Math.floor(expiresAt)}`;
  return `${signed}.${await hmacSign(secret, boundText(signed, holder))}`;
}

/** The route a signed token's JSON names, or null when it is not the shape signRoutePreview writes. */
function routeOf(bytes: Uint8Array): PreviewedRoute | null {
  let data: unknown;
  try {
    data = JSON.parse(utf8.decode(bytes));
  } catch {
    return null;
  }
  return previewedRouteOf(data);
}

/**
 * `data` as a route a preview may show (ids, flow and plan names as the routing section spells
 * them, at most MAX_PLANS plans a list, content choices and currencies as the routing section
 * checks them), or null: what a token carries, and what the content editor's preview of a route
 * is given (worker/console/content-route.ts). Empty parts are left out.
 */
export function previewedRouteOf(data: unknown): PreviewedRoute | null {
  const parsed = previewedRoute.safeParse(data);
  if (!parsed.success) return null;
  const {
    id,
    flow,
    plans,
    upsellPlans,
    guidePlans,
    content,
    currencies,
    anchors,
    countdown,
    arms,
  } = parsed.data;
  const route: PreviewedRoute = { id, flow, plans: plans ?? null };
  if (upsellPlans) route.upsellPlans = upsellPlans;
  if (guidePlans) route.guidePlans = guidePlans;
  if (content && Object.keys(content).length > 0) route.content = content;
  if (currencies && Object.keys(currencies).length > 0) route.currencies = currencies;
  if (anchors === false) route.anchors = false;
  if (countdown === false) route.countdown = false;
  if (arms && Object.keys(arms).length > 0) route.arms = arms;
  return route;
}

/**
 * What a cookie's token previews (a variant or a route), if `secret` signed it for `visitorId`
 * (the browser that sent it) and it has not expired at `nowMs`. The signature is checked by
 * crypto.subtle.verify, which compares in constant time, and before the expiry, so a forged
 * token is reported as forged whatever time it names; one signed for another browser is forged
 * here.
 */
export function verifyPreview(
  secret: string,
  token: string,
  nowMs: number,
  holder: PreviewHolder,
): Promise<PreviewVerdict> {
  return verifyToken(secret, token, nowMs, holder);
}

/** What a link's token (signRouteLink) previews, as verifyPreview, in any browser. */
export function verifyPreviewLink(
  secret: string,
  token: string,
  nowMs: number,
): Promise<PreviewVerdict> {
  return verifyToken(secret, token, nowMs, LINK);
}

async function verifyToken(
  secret: string,
  token: string,
  nowMs: number,
  holder: PreviewHolder | typeof LINK,
): Promise<PreviewVerdict> {
  const parts = token.split('.');
  if (parts.length === 4 && parts[0] === ROUTE_MARK)
    return verifyRoutePreview(secret, parts, nowMs, holder);
  if (parts.length !== 3) return { ok: false, reason: 'malformed' };
  const [variantPart = '', expiryPart = '', macPart = ''] = parts;
  const mac = base64urlBytes(macPart);
  const variantBytes = base64urlBytes(variantPart);
  if (!EXPIRY.test(expiryPart) || mac?.length !== HMAC_BYTES || !variantBytes) {
    return { ok: false, reason: 'malformed' };
  }
  const signed = boundText(`${variantPart}.${expiryPart}`, holder);
  if (!(await hmacVerify(secret, signed, mac))) return { ok: false, reason: 'bad_signature' };
  const expiresAt = Number(expiryPart);
  if (expiresAt * 1000 <= nowMs) return { ok: false, reason: 'expired' };
  return { ok: true, variant: utf8.decode(variantBytes), expiresAt };
}

async function verifyRoutePreview(
  secret: string,
  parts: string[],
  nowMs: number,
  holder: PreviewHolder | typeof LINK,
): Promise<PreviewVerdict> {
  const [, routePart = '', expiryPart = '', macPart = ''] = parts;
  const mac = base64urlBytes(macPart);
  const routeBytes = base64urlBytes(routePart);
  if (!EXPIRY.test(expiryPart) || mac?.length !== HMAC_BYTES || !routeBytes) {
    return { ok: false, reason: 'malformed' };
  }
  const signed = boundText(`${ROUTE_MARK}.${routePart}.${expiryPart}`, holder);
  if (!(await hmacVerify(secret, signed, mac))) return { ok: false, reason: 'bad_signature' };
  const expiresAt = Number(expiryPart);
  if (expiresAt * 1000 <= nowMs) return { ok: false, reason: 'expired' };
  const route = routeOf(routeBytes);
  return route ? { ok: true, route, expiresAt } : { ok: false, reason: 'malformed' };
}

/**
 * The cookie of a marketer's preview (the token above): set by the console's preview link
 * (worker/console/preview-route.ts), read by the split test on every page and by the collector.
 */
export const PREVIEW_COOKIE = 'gf_preview';

/** The most a browser keeps of one cookie, name and value together (RFC 6265 §6.1). */
const COOKIE_LIMIT = 4096;

/**
 * Whether a preview token can ride in the preview cookie. A longer one the browser drops without
 * a word, and the preview would show the live funnel instead of the route (a route's currency
 * table of a few hundred countries is what makes a token that long).
 */
export function fitsPreviewCookie(token: string): boolean {
  return PREVIEW_COOKIE.length + 1 + token.length <= COOKIE_LIMIT;
}

/** Where the preview bar's link goes: clears the cookie (worker/console/preview-route.ts). */
export const PREVIEW_END_URL = `${CONSOLE_PREVIEW_PATH}?end=1`;

/**
 * Signs previews under `npm start` and in the tests, where no secret is set. Public by being in
 * the repository, so it is never used outside development.
 */
const DEVELOPMENT_PREVIEW_KEY = 'geofunnel-development-preview-key';

/** The key previews are signed with: the secret, else in development a fixed one, else none. */
export function previewKey(env: Bindings): string | null {
  if (env.CONSOLE_PREVIEW_KEY) return env.CONSOLE_PREVIEW_KEY;
  return isDevelopment(env) ? DEVELOPMENT_PREVIEW_KEY : null;
}

/**
 * Sets the preview cookie for a variant (its key) or a route, lasting PREVIEW_TTL_SECONDS from
 * `nowMs`, bound to `holder`: the browser that opened the link, whose cookie it must be, and the
 * marketer signed in there, who alone may use it.
 */
export async function startPreview(
  headers: AnswerHeaders,
  key: string,
  subject: string | PreviewedRoute,
  { holder, nowMs }: { holder: PreviewHolder; nowMs: number },
): Promise<void> {
  const expiresAt = Math.floor(nowMs / 1000) + PREVIEW_TTL_SECONDS;
  const token =
    typeof subject === 'string'
      ? await signPreview(key, subject, expiresAt, holder)
      : await signRoutePreview(key, subject, expiresAt, holder);
  // HttpOnly: no page script needs it, and an injected one could not carry it elsewhere.
  setAnswerCookie(headers, PREVIEW_COOKIE, token, {
    maxAge: PREVIEW_TTL_SECONDS,
    path: '/',
    httpOnly: true,
    secure: true,
    sameSite: 'Lax',
  });
}

export function endPreview(headers: AnswerHeaders): void {
  clearAnswerCookie(headers, PREVIEW_COOKIE, { path: '/', secure: true });
}

export type PreviewCookie =
  | { state: 'none' }
  | { state: 'valid'; variant: string }
  | { state: 'valid'; route: PreviewedRoute }
  /** not_configured: a cookie reached a worker without the key (outside development). */
  | { state: 'invalid'; reason: PreviewRejection | 'not_configured' };

/**
 * What the request's preview cookie (`token`, its value) says, checked against the key
 * (previewKey) at `nowMs` for the request's holder: the id its `userUuid` cookie holds (null:
 * none, so no preview is this browser's; no HMAC is spent on it), and the marketer Access says
 * it is from (`author`, asked only when there is a cookie; null: nobody signed in, so no
 * preview is theirs).
 */
export async function readPreviewCookie(
  token: string | undefined,
  key: string | null,
  nowMs: number,
  holder: { visitorId: string | null; author: () => Promise<string | null> },
): Promise<PreviewCookie> {
  if (token === undefined) return { state: 'none' };
  if (key === null) return { state: 'invalid', reason: 'not_configured' };
  const { visitorId } = holder;
  if (visitorId === null) return { state: 'invalid', reason: 'no_visitor_id' };
  const author = await holder.author();
  if (author === null) return { state: 'invalid', reason: 'no_identity' };
  const verdict = await verifyPreview(key, token, nowMs, { visitorId, author });
  if (!verdict.ok) return { state: 'invalid', reason: verdict.reason };
  return 'route' in verdict
    ? { state: 'valid', route: verdict.route }
    : { state: 'valid', variant: verdict.variant };
}

/**
 * A preview cookie the page does not honour (forged, expired, tampered with, or naming a variant
 * that is gone): one warning line, and the cookie is cleared so the next page does not repeat it.
 */
export function ignorePreviewCookie(
  headers: AnswerHeaders,
  requestId: string,
  reason: PreviewRejection | 'not_configured' | 'unknown_variant' | 'unknown_arm',
): void {
  logLine({ id: requestId, level: 'warn', warning: 'preview_cookie_ignored', reason });
  endPreview(headers);
}

/**
 * A draft content a marketer previews in the console (worker/console/content-route.ts): the
 * console's route draws the screen by handing the app a request it made itself, with the draft
 * attached here, and the visitor's country the preview shows, if it names one. Only a request
 * object the worker created can carry them, so nothing a browser sends (header, cookie, query)
 * can make a public page show a draft or pick its country.
 */
interface DraftView {
  content: ContentDocument;
  country: string | null;
  /** The console's author who asked for the drawing: the holder of its preview. */
  author: string;
}

const drafts = new WeakMap<Request, DraftView>();

/**
 * `request`, which the worker made for `author`'s console, drawn with `content` in place of the
 * live content.
 */
export function withDraftContent(
  request: Request,
  content: ContentDocument,
  { country = null, author }: { country?: string | null; author: string },
): Request {
  drafts.set(request, { content, country, author });
  return request;
}

/** The draft content attached to `request`, if the worker attached one. */
export function draftContentOf(request: Request): ContentDocument | undefined {
  return drafts.get(request)?.content;
}

/**
 * Who holds a request's preview cookie (readPreviewCookie's `author`), asked once a cookie needs
 * it: the console's author for a drawing the worker made for them, else the marketer Cloudflare
 * Access says the request is from (its CF_Authorization cookie), else nobody.
 */
export function previewAuthorOf(
  access: AccessCheck,
  env: Bindings,
  request: Request,
): () => Promise<string | null> {
  return async () => {
    const drawnFor = drafts.get(request)?.author;
    if (drawnFor !== undefined) return drawnFor;
    const verdict = await access(env, request);
    return verdict.ok ? verdict.author : null;
  };
}

/** The country a draft's preview is drawn for (worker/request/visit-facts.ts), else null. */
export function draftCountryOf(request: Request): string | null {
  return drafts.get(request)?.country ?? null;
}
