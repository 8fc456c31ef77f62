import type { Coordinates, PhoneInfo } from '../../shared/api/contract';
import { CAPITALS } from '../../shared/phone/capitals';
import { getGeocode } from '../api/client';

function isPoint(value: unknown): value is Coordinates {
  const point = value as Partial<Coordinates> | null;
  return Number.isFinite(point?.lat) && Number.isFinite(point?.lng);
}

/**
 * Where the searching screens centre the map for a located number (SPEC.md §3 initCoords): its
 * city and country geocoded by the worker (GET /api/geocode, SPEC.md §7), else the country's
 * capital (shared/phone/capitals.ts) when geocoding fails (the worker logs 'Geocoding request
 * failed', §8) or there is no city to geocode, else the lookup's own point. Never rejects.
 * Loaded only once the lookup has answered, so neither the table nor the call delays the screen.
 */
export async function mapPointOf(
  info: Pick<PhoneInfo, 'city' | 'country' | 'location'>,
  options: { fetch?: typeof fetch } = {},
): Promise<Coordinates | null> {
  const capital = info.country ? (CAPITALS[info.country]?.location ?? null) : null;
  // The worker geocodes only the countries the table has: it is where a failure falls back to.
  if (!capital) return info.location;
  if (!info.city) return capital;
  try {
    const point = await getGeocode(info.city, info.country ?? '', options);
    return isPoint(point) ? { lat: point.lat, lng: point.lng } : capital;
  } catch {
    return capital;
  }
}
