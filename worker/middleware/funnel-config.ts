import type { MiddlewareHandler } from 'hono';
import { type ConfigSource, DEFAULT_CONFIG_TTL_MS } from '../config/load';
import { draftContentOf } from '../funnel/preview';
import type { AppEnv } from '../request/envs';

/** Puts the validated funnel config (split weights and flows) on the context. */
export function funnelConfig(source: ConfigSource): MiddlewareHandler<AppEnv> {
  return async function funnelConfigMiddleware(c, next) {
    const ttl = Number(c.env.CONFIG_CACHE_TTL_MS ?? DEFAULT_CONFIG_TTL_MS);
    const ttlMs = Number.isFinite(ttl) && ttl >= 0 ? ttl : DEFAULT_CONFIG_TTL_MS;
    const config = await source.load(c.env.FUNNEL_CONFIG, ttlMs);
    // The console's preview of a draft content (worker/funnel/preview.ts, withDraftContent).
    const draft = draftContentOf(c.req.raw);
    c.set('config', draft ? { ...config, content: draft } : config);
    await next();
  };
}
