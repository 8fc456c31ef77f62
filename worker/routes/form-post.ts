import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { every } from 'hono/combine';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { isSpeculative } from '../experiments/exposure/exposure-rules';
import type { AppEnv, BaseEnv } from '../middleware/envs';
import { sameOriginOnly } from '../middleware/same-origin';

/**
 * The answers of a form the worker takes without JavaScript (the consent banner's
 * `POST /consent`, the login link's `POST /app/login`) when it refuses the request: plain text,
 * as the form's only outcomes other than success are a bug or a forgery.
 */

/** Another site must not post the visitor's form (the worker's one same-origin rule). */
export function refuseForeignForm<E extends BaseEnv>(c: Context<E>): Response {
  c.get('logFields').error = 'cross_origin';
  return c.text('Forbidden\n', 403);
}

/**
 * However the body comes: a declared Content-Length over `maxBytes` is refused unread, and a
 * chunked body is cut off as soon as it passes it, before parseBody buffers it.
 */
export function formBodyLimit<E extends BaseEnv>(maxBytes: number): MiddlewareHandler<E> {
  return bodyLimit({
    maxSize: maxBytes,
    onError: (c) => {
      c.get('logFields').error = 'payload_too_large';
      return c.text('Payload too large\n', 413);
    },
  });
}

/** A few short fields (a number and its country, an email); anything bigger is not our form. */
const SCREEN_FORM_MAX_BYTES = 2048;

/**
 * The guards of a screen's own form (the landing's phone form, the signup screen's email form),
 * as of the other no-script forms (./consent.ts): same origin, small body.
 */
export const screenFormGuard: MiddlewareHandler<AppEnv> = every(
  sameOriginOnly(refuseForeignForm),
  formBodyLimit(SCREEN_FORM_MAX_BYTES),
);

const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data'];

export type FormReading =
  | { ok: true; fields: Record<string, unknown> }
  | { ok: false; response: Response };

/** A form's fields as a browser posts them; anything else is answered 415 or 400. */
export async function readFormFields(c: Context<AppEnv>): Promise<FormReading> {
  const type = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (!FORM_TYPES.includes(type)) {
    c.get('logFields').error = 'unsupported_media_type';
    return { ok: false, response: c.text('Unsupported media type\n', 415) };
  }
  try {
    return { ok: true, fields: await c.req.parseBody() };
  } catch {
    c.get('logFields').error = 'malformed_form';
    return { ok: false, response: c.text('Bad request\n', 400) };
  }
}

/** A form field's text, or '' when it was not sent (or sent as a file). */
export function textField(fields: Record<string, unknown>, name: string): string {
  const value = fields[name];
  return typeof value === 'string' ? value : '';
}

/**
 * What a no-script form hands the next screen (an accepted number, a new account) travels in a
 * short-lived HttpOnly cookie rather than the URL, where the tracker's page URL, the Referer and
 * every ad pixel would read it. Long enough for the redirect on a slow connection, short enough
 * to be gone.
 */
const CARRIED_MAX_AGE = 600;

/**
 * Sets the carried value on this answer (the redirect to the next screen). The page posting the
 * form had that screen prefetched by its speculation rules (worker/render/), without the value:
 * Chromium would show that copy after the redirect. Clear-Site-Data drops it, so the next screen
 * is asked for again, with the cookie.
 */
export function carryToNextScreen(c: Context<AppEnv>, name: string, value: string): void {
  c.header('Clear-Site-Data', '"prefetchCache", "prerenderCache"');
  setCookie(c, name, value, {
    maxAge: CARRIED_MAX_AGE,
    path: '/',
    httpOnly: true,
    secure: true,
    sameSite: 'Lax',
  });
}

/**
 * The carried value, if any, cleared as it is read: a later visit starts from the browser's own
 * state. A prefetch leaves it alone, as the visitor may never see that answer.
 */
export function takeCarried(c: Context<AppEnv>, name: string): string | undefined {
  const raw = getCookie(c, name);
  if (raw === undefined || isSpeculative((header) => c.req.header(header))) return undefined;
  deleteCookie(c, name, { path: '/', secure: true });
  return raw;
}
