import { base64url } from 'jose';
import { base64urlBytes, HMAC_BYTES, hmacSign, hmacVerify } from '../hmac';

/**
 * A marketer's preview of one variant or one route (the console's preview links): a token naming
 * what is previewed and when the preview ends, signed with HMAC-SHA256 so that no visitor can
 * make one and skip the split test or the routes, or hide their visits from the experiment. Pure
 * over WebCrypto; the cookie that carries it is preview-cookie.ts.
 *
 * A variant's token reads `<variant, base64url>.<expiry, epoch seconds>.<HMAC of the first two,
 * base64url>`: a variant key may hold any character, so it is encoded rather than split on.
 * A route's reads `r.<route JSON, base64url>.<expiry>.<HMAC of the first three>`: four parts, so
 * neither kind can pass for the other, and the variant tokens of before still read as they did.
 * A route's token carries its flow and plans, not just its id, so "test a visitor" can preview a
 * route of a draft that is not published yet.
 */

/** How long a preview lasts: time to walk a flow, short enough that a forgotten one ends. */
export const PREVIEW_TTL_SECONDS = 60 * 60;

export type PreviewRejection = 'malformed' | 'bad_signature' | 'expired';

/** The route a preview shows, as the console's "test a visitor" found it. */
export interface PreviewedRoute {
  id: string;
  flow: string;
  plans: string[] | null;
  /** The upsell's and the guide's plans; absent or null: the screens' own. */
  upsellPlans?: string[] | null;
  guidePlans?: string[] | null;
}

export type PreviewVerdict =
  | { ok: true; variant: string; expiresAt: number }
  | { ok: true; route: PreviewedRoute; expiresAt: number }
  | { ok: false; reason: PreviewRejection };

const ROUTE_MARK = 'r';
/** Route ids, flow names and plan families as the routing section allows them. */
const NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const MAX_PLANS = 4;

const EXPIRY = /^\d{1,12}$/;
const utf8 = new TextDecoder();

/** A preview token for `variant`, valid until `expiresAt` (epoch seconds). */
export async function signPreview(
  secret: string,
  variant: string,
  expiresAt: number,
): Promise<string> {
  const signed = `${base64url.encode(variant)}.${Math.floor(expiresAt)}`;
  return `${signed}.${await hmacSign(secret, signed)}`;
}

/** A preview token for `route`, valid until `expiresAt` (epoch seconds). */
export async function signRoutePreview(
  secret: string,
  route: PreviewedRoute,
  expiresAt: number,
): Promise<string> {
  const json = JSON.stringify({
    id: route.id,
    flow: route.flow,
    plans: route.plans,
    ...(route.upsellPlans ? { upsellPlans: route.upsellPlans } : {}),
    ...(route.guidePlans ? { guidePlans: route.guidePlans } : {}),
  });
  const signed = `${ROUTE_MARK}.${base64url.encode(json)}.${Math.floor(expiresAt)}`;
  return `${signed}.${await hmacSign(secret, signed)}`;
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
 * them, at most MAX_PLANS plans a list), or null: what a token carries, and what the content
 * editor's preview of a route is given (worker/console/content-route.ts).
 */
export function previewedRouteOf(data: unknown): PreviewedRoute | null {
  const { id, flow, plans, upsellPlans, guidePlans } = (data ?? {}) as Record<string, unknown>;
  if (typeof id !== 'string' || !NAME.test(id) || typeof flow !== 'string' || !NAME.test(flow)) {
    return null;
  }
  const lists = [plans, upsellPlans ?? null, guidePlans ?? null].map(planListOf);
  if (lists.some((list) => list === undefined)) return null;
  const [main, upsell, guide] = lists as (string[] | null)[];
  const route: PreviewedRoute = { id, flow, plans: main ?? null };
  if (upsell) route.upsellPlans = upsell;
  if (guide) route.guidePlans = guide;
  return route;
}

/** A token's plan list: null, the list, or undefined when it is not one. */
function planListOf(plans: unknown): string[] | null | undefined {
  if (plans === null) return null;
  const valid =
    Array.isArray(plans) &&
    plans.length <= MAX_PLANS &&
    plans.every((plan) => typeof plan === 'string' && NAME.test(plan));
  return valid ? (plans as string[]) : undefined;
}

/**
 * What a token previews (a variant or a route), if `secret` signed it and it has not expired at `nowMs`. The
 * signature is checked by crypto.subtle.verify, which compares in constant time, and before the
 * expiry, so a forged token is reported as forged whatever time it names.
 */
export async function verifyPreview(
  secret: string,
  token: string,
  nowMs: number,
): Promise<PreviewVerdict> {
  const parts = token.split('.');
  if (parts.length === 4 && parts[0] === ROUTE_MARK)
    return verifyRoutePreview(secret, parts, nowMs);
  if (parts.length !== 3) return { ok: false, reason: 'malformed' };
  const [variantPart = '', expiryPart = '', macPart = ''] = parts;
  const mac = base64urlBytes(macPart);
  const variantBytes = base64urlBytes(variantPart);
  if (!EXPIRY.test(expiryPart) || mac?.length !== HMAC_BYTES || !variantBytes) {
    return { ok: false, reason: 'malformed' };
  }
  const authentic = await hmacVerify(secret, `${variantPart}.${expiryPart}`, mac);
  if (!authentic) return { ok: false, reason: 'bad_signature' };
  const expiresAt = Number(expiryPart);
  if (expiresAt * 1000 <= nowMs) return { ok: false, reason: 'expired' };
  return { ok: true, variant: utf8.decode(variantBytes), expiresAt };
}

async function verifyRoutePreview(
  secret: string,
  parts: string[],
  nowMs: number,
): Promise<PreviewVerdict> {
  const [, routePart = '', expiryPart = '', macPart = ''] = parts;
  const mac = base64urlBytes(macPart);
  const routeBytes = base64urlBytes(routePart);
  if (!EXPIRY.test(expiryPart) || mac?.length !== HMAC_BYTES || !routeBytes) {
    return { ok: false, reason: 'malformed' };
  }
  const authentic = await hmacVerify(secret, `${ROUTE_MARK}.${routePart}.${expiryPart}`, mac);
  if (!authentic) return { ok: false, reason: 'bad_signature' };
  const expiresAt = Number(expiryPart);
  if (expiresAt * 1000 <= nowMs) return { ok: false, reason: 'expired' };
  const route = routeOf(routeBytes);
  return route ? { ok: true, route, expiresAt } : { ok: false, reason: 'malformed' };
}
