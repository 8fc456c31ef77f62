import type { MiddlewareHandler } from 'hono';
import type { BaseVariables, EnvOf, VisitorVariables } from '../request/envs';
import { decodeVisitor } from '../request/visit-facts';

/** The visitor's id (worker/request/visit-facts.ts decodeVisitor). */
export function visitor(): MiddlewareHandler<EnvOf<BaseVariables & VisitorVariables>> {
  return async function visitorMiddleware(c, next) {
    decodeVisitor(c);
    await next();
  };
}
