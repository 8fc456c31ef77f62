import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppEnv } from '../env';

/**
 * The answers of a form the worker takes without JavaScript (the consent banner's
 * `POST /consent`, the login link's `POST /app/login`) when it refuses the request: plain text,
 * as the form's only outcomes other than success are a bug or a forgery.
 */

/** Another site must not post the visitor's form (the worker's one same-origin rule). */
export function refuseForeignForm(c: Context<AppEnv>): Response {
  c.get('logFields').error = 'cross_origin';
  return c.text('Forbidden\n', 403);
}

/**
 * However the body comes: a declared Content-Length over `maxBytes` is refused unread, and a
 * chunked body is cut off as soon as it passes it, before parseBody buffers it.
 */
export function formBodyLimit(maxBytes: number): MiddlewareHandler<AppEnv> {
  return bodyLimit({
    maxSize: maxBytes,
    onError: (c) => {
      c.get('logFields').error = 'payload_too_large';
      return c.text('Payload too large\n', 413);
    },
  });
}
