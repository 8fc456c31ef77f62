import type { Context, MiddlewareHandler } from 'hono';
import { every } from 'hono/combine';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { defaultPhoneCountry } from '../../screens/landing/phone-country';
import { checkPhone, knownCountry } from '../../shared/phone/phone-number';
import {
  decodePostedPhone,
  encodePostedPhone,
  type PostedPhone,
  type RefusedPhone,
} from '../../shared/phone/posted-phone';
import type { AppEnv } from '../env';
import { isSpeculative } from '../experiments/exposure-rules';
import { sameOriginOnly } from '../middleware/same-origin';
import { formBodyLimit, refuseForeignForm } from './form-post';

/**
 * The landing's phone form without script (islands/PhoneForm.tsx before it hydrates, or with
 * JavaScript off): the worker checks the number by the island's rule and hands an accepted one
 * to the next screen in a short-lived cookie, which that screen reads once and clears.
 */

/** Carries the accepted number from the landing's post to the searching screen, and no further. */
const POSTED_PHONE_COOKIE = 'gf_phone';
/** Long enough for the redirect to be followed on a slow connection, short enough to be gone. */
const POSTED_PHONE_MAX_AGE = 600;

/** Two short fields (number and country); anything bigger is not our form. */
const MAX_BODY_BYTES = 2048;

const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data'];

/** The guards of the other no-script forms (worker/routes/consent.ts): same origin, small body. */
export const phoneFormGuard: MiddlewareHandler<AppEnv> = every(
  sameOriginOnly(refuseForeignForm),
  formBodyLimit(MAX_BODY_BYTES),
);

export type PhonePost =
  | { accepted: true; e164: string; country: string }
  | { accepted: false; refused: RefusedPhone }
  | { accepted: false; malformed: Response };

/** What the form posted, checked: `phone` and `country` as islands/kit/PhoneInput.tsx names them. */
export async function readPhonePost(c: Context<AppEnv>): Promise<PhonePost> {
  const type = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (!FORM_TYPES.includes(type)) {
    c.get('logFields').error = 'unsupported_media_type';
    return { accepted: false, malformed: c.text('Unsupported media type\n', 415) };
  }
  let body: Record<string, unknown>;
  try {
    body = await c.req.parseBody();
  } catch {
    c.get('logFields').error = 'malformed_form';
    return { accepted: false, malformed: c.text('Bad request\n', 400) };
  }
  const value = typeof body.phone === 'string' ? body.phone : '';
  // A country the select does not offer falls back to the one the page would have started with.
  const posted = typeof body.country === 'string' ? knownCountry(body.country) : undefined;
  const country = posted ?? defaultPhoneCountry(c.get('country'));
  const check = checkPhone(value, country);
  if (check.refusal === null) return { accepted: true, e164: check.e164, country };
  c.get('logFields').detail = `phone_${check.refusal}`;
  return { accepted: false, refused: { value, country, refusal: check.refusal } };
}

export function carryPostedPhone(c: Context<AppEnv>, e164: string, country: string): void {
  setCookie(c, POSTED_PHONE_COOKIE, encodePostedPhone(e164, country), {
    maxAge: POSTED_PHONE_MAX_AGE,
    path: '/',
    httpOnly: true,
    secure: true,
    sameSite: 'Lax',
  });
}

/**
 * The carried number, if any, cleared as it is read: a later visit starts from the browser's own.
 * A prefetch leaves it alone, as the visitor may never see that answer.
 */
export function takePostedPhone(c: Context<AppEnv>): PostedPhone | undefined {
  const raw = getCookie(c, POSTED_PHONE_COOKIE);
  if (raw === undefined || isSpeculative((name) => c.req.header(name))) return undefined;
  deleteCookie(c, POSTED_PHONE_COOKIE, { path: '/', secure: true });
  return decodePostedPhone(raw) ?? undefined;
}
