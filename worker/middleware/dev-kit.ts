import type { MiddlewareHandler } from 'hono';
import type { DevKit } from '../dev-kit';
import type { RootEnv } from '../request/envs';

/**
 * Hands the development kit to every handler as `c.get('devKit')`, so a development-only
 * capability reaches a route without a new parameter through createApp. Only the development
 * entry installs it; in production `c.get('devKit')` is undefined.
 */
export function provideDevKit(devKit: DevKit): MiddlewareHandler<RootEnv> {
  return async function provideDevKitMiddleware(c, next) {
    c.set('devKit', devKit);
    await next();
  };
}
