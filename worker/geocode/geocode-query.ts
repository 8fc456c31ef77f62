import * as z from 'zod';
import { CAPITALS } from '../../shared/phone/capitals';

/** Longer than any city's name in use; a query past it is not a city. */
const CITY_MAX_LENGTH = 80;

/**
 * Letters and digits of any script, with the spaces and marks city names use (Saint-Étienne,
 * St. John's, Kyiv (Kiev)). No comma: the address Google reads is "<city>, <country>".
 */
const CITY_NAME = /^[\p{L}\p{M}\p{N}][\p{L}\p{M}\p{N} .'’()-]*$/u;

/** One spelling per city: composed accents, no outer or repeated spaces. */
function normalizeCity(text: string): string {
  return text.normalize('NFC').trim().replace(/\s+/g, ' ');
}

/**
 * What `GET /api/geocode` takes (shared/api/geocode.ts). Both parts come from the page, so from
 * anyone: the city is short text of a name's characters, and the country one the capitals table
 * (shared/phone/capitals.ts) has, the place the page falls back to.
 */
export const GeocodeQuery = z.object({
  city: z
    .string({ error: 'a city name is required' })
    .transform(normalizeCity)
    .pipe(
      z
        .string()
        // One problem at a time: an empty or overlong name is not also read for its characters.
        .min(1, { error: 'a city name is required', abort: true })
        .max(CITY_MAX_LENGTH, { error: `at most ${CITY_MAX_LENGTH} characters`, abort: true })
        .regex(CITY_NAME, "letters, digits, spaces and . ' ’ ( ) - only"),
    ),
  country: z
    .string({ error: 'a country code is required' })
    .refine(
      (code) => Object.hasOwn(CAPITALS, code),
      'an ISO 3166-1 alpha-2 code of the capitals table, e.g. GB',
    ),
});
export type GeocodeQuery = z.infer<typeof GeocodeQuery>;
