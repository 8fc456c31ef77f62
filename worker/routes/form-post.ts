import { parseBody } from 'hono/utils/body';
import type { LogFields } from '../../shared/log';
import { cookieValue } from '../attribution/cookie-header';
import { isSpeculative } from '../experiments/exposure/exposure-rules';
import { type AnswerHeaders, clearAnswerCookie, setAnswerCookie } from '../http/answer-cookies';

/**
 * What a screen's own form posted, as the worker reads it without JavaScript (./phone-form.ts,
 * ./signup-form.ts); the guards before it are worker/middleware/form-guards.ts.
 */

const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data'];

/** A post that is no form of ours, answered in plain text by the handler. */
export interface MalformedForm {
  status: 400 | 415;
  text: string;
}

export type FormReading =
  | { ok: true; fields: Record<string, unknown> }
  | { ok: false; malformed: MalformedForm };

/** A form's fields as a browser posts them; anything else is answered 415 or 400. */
export async function readFormFields(request: Request, log: LogFields): Promise<FormReading> {
  const type =
    (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (!FORM_TYPES.includes(type)) {
    log.error = 'unsupported_media_type';
    return { ok: false, malformed: { status: 415, text: 'Unsupported media type\n' } };
  }
  try {
    return { ok: true, fields: await parseBody(request) };
  } catch {
    log.error = 'malformed_form';
    return { ok: false, malformed: { status: 400, text: 'Bad request\n' } };
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
export function carryToNextScreen(answer: AnswerHeaders, name: string, value: string): void {
  answer.header('Clear-Site-Data', '"prefetchCache", "prerenderCache"');
  setAnswerCookie(answer, name, value, {
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
export function takeCarried(
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
