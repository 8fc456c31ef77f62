import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env';
import { refusal, refuse } from './api-error';

/**
 * Mutating `/api` calls come only from our own pages (issue 4): a cross-site form or script must
 * not sign a visitor up or start a payment with their cookies. Browsers send `Sec-Fetch-Site` on
 * every fetch; older ones send only `Origin`. A request with neither is not from a browser page
 * of ours, so it is refused rather than trusted.
 */
export function sameOrigin(): MiddlewareHandler<AppEnv> {
  return async function sameOriginMiddleware(c, next) {
    const site = c.req.header('sec-fetch-site');
    const origin = c.req.header('origin');
    const allowed =
      site !== undefined ? site === 'same-origin' : origin === new URL(c.req.url).origin;
    if (!allowed) return refuse(c, refusal('cross_origin'));
    await next();
  };
}
