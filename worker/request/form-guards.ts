import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { every } from 'hono/combine';
import type { AppEnv, BaseEnv } from './envs';
import { type CrossOriginRefusal, sameOriginOnly } from './same-origin';

/**
 * The guards of a form the worker takes without JavaScript (the consent banner's
 * `POST /consent`, the login link's `POST /app/login`, a screen's own form). Their refusals are
 * plain text, as the form's only outcomes other than success are a bug or a forgery.
 */

/** Another site must not post the visitor's form (the worker's one same-origin rule). */
const refuseForeignForm: CrossOriginRefusal<BaseEnv> = (c) => {
  c.get('logFields').error = 'cross_origin';
  return c.text('Forbidden\n', 403);
};

/** A form's same-origin guard: another site's post gets a plain 403. */
export function formOriginOnly(): MiddlewareHandler<BaseEnv> {
  return sameOriginOnly(refuseForeignForm);
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

/**
 * A few short fields (a number and its country, an email, a quiz's answer); anything bigger is
 * not our form. The longest a quiz's answer is: a text of 200 characters (shared/quiz/
 * question.ts), each of four UTF-8 bytes percent-encoded (12 characters), 2,400 bytes.
 */
const SCREEN_FORM_MAX_BYTES = 4096;

/**
 * The guards of a screen's own form (the landing's phone form, the signup screen's email form,
 * a quiz question's), as of the other no-script forms (worker/routes/consent.ts): same origin,
 * small body.
 */
export const screenFormGuard: MiddlewareHandler<AppEnv> = every(
  sameOriginOnly(refuseForeignForm),
  formBodyLimit(SCREEN_FORM_MAX_BYTES),
);
