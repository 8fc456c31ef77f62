import type { Coordinates } from './contract';

/**
 * The worker's geocoding route (SPEC.md §7 Geocoding): the searching screens' map point for a
 * number's city and country. Not a call of the product API: the worker asks Google with a key
 * that never leaves the server (worker/geocode/). Kept free of zod, which the page never loads;
 * the worker checks the query (worker/geocode/geocode-query.ts).
 *
 * `GET /api/geocode?city=<city>&country=<ISO 3166-1 alpha-2>` answers 200 {@link GeocodeAnswer};
 * any failure answers the §7 error shape, and the page falls back to the country's capital.
 */
export const GEOCODE_API_PATH = '/api/geocode';

export interface GeocodeAnswer {
  /** Google's `results[0].geometry.location` of "<city>, <country>". */
  location: Coordinates;
}
