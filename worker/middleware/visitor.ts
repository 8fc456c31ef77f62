import type { MiddlewareHandler } from 'hono';
import { storedOrNewVisitorId } from '../request/cookies';
import type { BaseVariables, EnvOf, VisitorVariables } from '../request/envs';

export function visitor(): MiddlewareHandler<EnvOf<BaseVariables & VisitorVariables>> {
  return async function visitorMiddleware(c, next) {
    c.set('visitorId', storedOrNewVisitorId(c));
    await next();
  };
}
