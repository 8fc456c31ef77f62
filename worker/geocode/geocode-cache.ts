import { Coordinates } from '../../shared/api/contract';
import { GEOCODE_API_PATH } from '../../shared/api/geocode';
import { describeError, logError } from '../../shared/log';

/** A cache of its own, apart from anything else the worker might cache. */
const CACHE_NAME = 'geocode';

/**
 * How long a point is reused: the Google Maps Platform terms let a geocoded latitude and
 * longitude be cached for at most 30 consecutive days.
 */
const GEOCODE_CACHE_SECONDS = 30 * 24 * 60 * 60;

/**
 * One key per address, whatever its spelling's case: the canonical URL of the route on this
 * worker's origin (Cloudflare keys its cache per zone; nothing ever serves this URL from it).
 */
function cacheKey(origin: string, city: string, country: string): string {
  const query = new URLSearchParams({ country, city: city.toLowerCase() });
  return `${origin}${GEOCODE_API_PATH}?${query}`;
}

/**
 * The point Google gave for this address within the last 30 days in this data center (the
 * Cache API does not replicate between them), or null. A failing cache is logged and missed.
 */
export async function cachedLocation(
  origin: string,
  city: string,
  country: string,
): Promise<Coordinates | null> {
  try {
    const hit = await (await caches.open(CACHE_NAME)).match(cacheKey(origin, city, country));
    if (!hit) return null;
    const location = Coordinates.safeParse(await hit.json());
    return location.success ? location.data : null;
  } catch (error) {
    logError('geocoding_cache_failed', { detail: describeError(error) });
    return null;
  }
}

/** Keeps a point Google gave, so the same address costs no second paid call for 30 days. */
export async function cacheLocation(
  origin: string,
  city: string,
  country: string,
  location: Coordinates,
): Promise<void> {
  try {
    const cache = await caches.open(CACHE_NAME);
    await cache.put(
      cacheKey(origin, city, country),
      Response.json(location, {
        headers: { 'cache-control': `max-age=${GEOCODE_CACHE_SECONDS}` },
      }),
    );
  } catch (error) {
    logError('geocoding_cache_failed', { detail: describeError(error) });
  }
}
