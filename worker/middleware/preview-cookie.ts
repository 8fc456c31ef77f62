import type { MiddlewareHandler } from 'hono';
import type { AccessCheck } from '../access/console-access';
import type { BaseVariables, EnvOf, PreviewCookieVariables } from '../request/envs';
import { decodePreview } from '../request/visit-facts';

/**
 * Reads a marketer's preview cookie once per request (worker/request/visit-facts.ts
 * decodePreview), before anything that treats a preview apart.
 */
export function previewCookie(
  access: AccessCheck,
): MiddlewareHandler<EnvOf<BaseVariables & PreviewCookieVariables>> {
  return async function previewCookieMiddleware(c, next) {
    await decodePreview(c, access);
    await next();
  };
}
