import type { MiddlewareHandler } from 'hono';
import { logLine } from '../../shared/log';
import type { RootEnv } from '../request/envs';

/**
 * Gives each request an id (echoed in `X-Request-Id`) and writes one JSON log line when the
 * response is ready: ts, id, method, path, status, ms, country, variant, flow, screen, error.
 */
export function requestLog(options: { now?: () => number } = {}): MiddlewareHandler<RootEnv> {
  const now = options.now ?? (() => performance.now());
  return async function requestLogMiddleware(c, next) {
    const started = now();
    const id = c.req.header('cf-ray') ?? crypto.randomUUID();
    c.set('requestId', id);
    c.set('logFields', {});
    try {
      await next();
    } finally {
      const fields = c.get('logFields');
      const variant = c.get('variant');
      logLine({
        id,
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round((now() - started) * 10) / 10,
        country: c.get('country') ?? null,
        variant: variant?.key ?? null,
        flow: c.get('flow')?.name ?? null,
        screen: null,
        error: null,
        prefetch: c.req.header('sec-purpose')?.includes('prefetch') || undefined,
        ...fields,
      });
    }
    c.header('X-Request-Id', id);
  };
}
