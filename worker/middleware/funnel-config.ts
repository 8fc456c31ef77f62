import type { MiddlewareHandler } from 'hono';
import type { ConfigSource } from '../config/load';
import type { AppEnv } from '../request/envs';
import { decodeConfig } from '../request/visit-facts';

/** Puts the validated funnel config on the context (worker/request/visit-facts.ts decodeConfig). */
export function funnelConfig(source: ConfigSource): MiddlewareHandler<AppEnv> {
  return async function funnelConfigMiddleware(c, next) {
    await decodeConfig(c, source);
    await next();
  };
}
