import { Hono } from 'hono';
import type { CountryResponse } from '../../shared/api/contract';
import type { PortalBindings } from '../env';
import { emulatedFault } from '../faults';

const COUNTRY = /^[A-Z]{2}$/;
/** Cloudflare's answers for "no country": unknown (XX) and Tor (T1). */
const NO_COUNTRY = new Set(['XX', 'T1']);

/**
 * GET /cf-country (SPEC.md §7): the visitor's country as the edge saw it. The worker forwards the
 * visitor's `cf-ipcountry`; a portal reached directly on Cloudflare has `request.cf.country`.
 */
export const countryRoutes = new Hono<{ Bindings: PortalBindings }>().get(
  '/cf-country',
  emulatedFault('cf-country'),
  (c) => {
    const fromCf = (c.req.raw.cf as { country?: unknown } | undefined)?.country;
    const candidate = c.req.header('cf-ipcountry') ?? (typeof fromCf === 'string' ? fromCf : '');
    const code = candidate.trim().toUpperCase();
    const answer: CountryResponse = {
      country_code: COUNTRY.test(code) && !NO_COUNTRY.has(code) ? code : null,
    };
    return c.json(answer);
  },
);
