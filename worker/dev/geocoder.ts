import { kitFaultIsOn } from '../../portal/faults';
import type { Coordinates } from '../../shared/api/contract';
import { CAPITALS } from '../../shared/phone/capitals';
import { isDevelopment } from '../environment';
import { EMBEDDED_GEOCODER_URL, type GeocoderFetch } from '../geocode/geocoder-transport';

/**
 * A few large cities beside the capitals, so that a point that is not the capital can be seen
 * locally (a product API answering one of them, a test).
 */
const OTHER_CITIES: Readonly<Record<string, Readonly<Record<string, Coordinates>>>> = {
  US: {
    'New York': { lat: 40.7128, lng: -74.006 },
    'Los Angeles': { lat: 34.0522, lng: -118.2437 },
    Chicago: { lat: 41.8781, lng: -87.6298 },
  },
  CA: { Toronto: { lat: 43.6532, lng: -79.3832 } },
  BR: { 'São Paulo': { lat: -23.5505, lng: -46.6333 } },
  GB: { Manchester: { lat: 53.4808, lng: -2.2426 } },
  DE: { Munich: { lat: 48.1351, lng: 11.582 } },
  FR: { Lyon: { lat: 45.764, lng: 4.8357 } },
  ES: { Barcelona: { lat: 41.3874, lng: 2.1686 } },
  IT: { Milan: { lat: 45.4642, lng: 9.19 } },
  IN: { Mumbai: { lat: 19.076, lng: 72.8777 } },
  AU: { Sydney: { lat: -33.8688, lng: 151.2093 } },
};

/** A city's name as compared: case and accents aside (Bogota finds Bogotá). */
function comparable(name: string): string {
  return name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The point of "<city>, <country>", as far as the capitals and OTHER_CITIES know it. */
function placeOf(address: string): { city: string; country: string; location: Coordinates } | null {
  const at = address.lastIndexOf(', ');
  if (at < 0) return null;
  const city = comparable(address.slice(0, at));
  const country = address.slice(at + 2);
  const capital = CAPITALS[country];
  const known: [string, Coordinates][] = [
    ...(capital ? [[capital.city, capital.location] as [string, Coordinates]] : []),
    ...Object.entries(OTHER_CITIES[country] ?? {}),
  ];
  const found = known.find(([name]) => comparable(name) === city);
  return found ? { city: found[0], country, location: found[1] } : null;
}

/** Google's answer for one place: the fields of a result the worker and a reader look at. */
function googleResult(place: { city: string; country: string; location: Coordinates }) {
  return {
    formatted_address: `${place.city}, ${place.country}`,
    geometry: { location: place.location, location_type: 'APPROXIMATE' },
    place_id: `development-${place.country}-${comparable(place.city).replace(/\W+/g, '-')}`,
    types: ['locality', 'political'],
  };
}

/**
 * DevKit.geocode: answers the worker's geocoding requests as Google's Geocoding API would
 * (status OK with the place, ZERO_RESULTS for a place it does not know), without a key and
 * without the network. While the emulator's failure switch `geocode` is on
 * (`npm run portal -- fail geocode [count]`), it answers UNKNOWN_ERROR, Google's word for a
 * failure on its side. Requests to any other origin (Google, with a key) go to the network.
 */
export const developmentGeocoder: GeocoderFetch = async (request, env) => {
  const url = new URL(request.url);
  if (`${url.origin}${url.pathname}` !== EMBEDDED_GEOCODER_URL) return fetch(request);
  if (!isDevelopment(env)) return new Response('Not found', { status: 404 });
  if (env.PORTAL_DB && (await kitFaultIsOn(env.PORTAL_DB, 'geocode'))) {
    return Response.json({
      results: [],
      status: 'UNKNOWN_ERROR',
      error_message: 'Emulated failure of geocode',
    });
  }
  const place = placeOf(url.searchParams.get('address') ?? '');
  return Response.json(
    place
      ? { results: [googleResult(place)], status: 'OK' }
      : { results: [], status: 'ZERO_RESULTS' },
  );
};
