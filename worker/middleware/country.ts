import type { MiddlewareHandler } from 'hono';
import { type CountryMiddlewareEnv, decodeCountry } from '../request/visit-facts';

/** The visitor's country (worker/request/visit-facts.ts decodeCountry), or null when unknown. */
export function country(): MiddlewareHandler<CountryMiddlewareEnv> {
  return async function countryMiddleware(c, next) {
    await decodeCountry(c);
    await next();
  };
}
