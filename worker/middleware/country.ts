import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env';

const COUNTRY = /^[A-Z]{2}$/;

/** `request.cf.country`, else the `CF-IPCountry` header, else unknown (null). */
export function country(): MiddlewareHandler<AppEnv> {
  return async function countryMiddleware(c, next) {
    const fromCf = (c.req.raw.cf as { country?: unknown } | undefined)?.country;
    const candidate = typeof fromCf === 'string' ? fromCf : c.req.header('cf-ipcountry');
    const code = candidate?.toUpperCase();
    // 'XX' and 'T1' (Tor) are Cloudflare's "no country" answers.
    c.set('country', code && COUNTRY.test(code) && code !== 'XX' ? code : null);
    await next();
  };
}
