import type { Coordinates } from '../api/contract';
import capitals from './capitals.json';

export interface RepresentativePlace {
  city: string;
  /** IANA time zone. */
  timezone: string;
  location: Coordinates;
}

/**
 * A representative place per country (its capital) for the most common visitor countries: the
 * embedded portal's phone lookup answers with it, since the phone library knows a number's
 * country but not its city or time zone. City names are data, like carrier names, so they sit
 * in capitals.json.
 */
export const CAPITALS: Readonly<Record<string, RepresentativePlace>> = capitals;
