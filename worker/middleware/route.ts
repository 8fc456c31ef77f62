import type { MiddlewareHandler } from 'hono';
import type { RouteMiddlewareEnv } from '../request/envs';
import { decodeRoute } from '../request/visit-facts';

/**
 * The visitor's route (worker/request/visit-facts.ts decodeRoute): chosen on a page request and
 * kept for the visit in `gf_route`, read from it elsewhere.
 */
export function route(options: { now?: () => number } = {}): MiddlewareHandler<RouteMiddlewareEnv> {
  const now = options.now ?? Date.now;
  return async function routeMiddleware(c, next) {
    await decodeRoute(c, now());
    await next();
  };
}
