import type { MiddlewareHandler } from 'hono';
import type { BaseVariables, EnvOf, VisitorVariables } from '../request/envs';
import { storedOrNewVisitorId } from '../request/visitor-cookie';

export function visitor(): MiddlewareHandler<EnvOf<BaseVariables & VisitorVariables>> {
  return async function visitorMiddleware(c, next) {
    c.set('visitorId', storedOrNewVisitorId(c));
    await next();
  };
}
