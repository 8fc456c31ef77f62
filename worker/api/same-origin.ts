import type { MiddlewareHandler } from 'hono';
import { refusal, refuse } from '../http/api-json';
import type { ApiEnv } from '../request/envs';
import { sameOriginOnly } from '../request/same-origin';

/**
 * Mutating `/api` calls come only from our own pages: a cross-site form or script must
 * not sign a visitor up or start a payment with their cookies. The rule is the worker's one
 * same-origin rule (worker/request/same-origin.ts); `/api` says no in its own JSON shape,
 * 403 `cross_origin`.
 */
export function sameOrigin(): MiddlewareHandler<ApiEnv> {
  return sameOriginOnly(function refuseCrossOrigin(c) {
    return refuse(c, refusal('cross_origin'));
  });
}
