import { AREA_MAP_API_PATH } from '../../shared/api/area-map';
import { describeError, logError } from '../../shared/log';

/** A cache of its own, apart from anything else the worker might cache. */
const CACHE_NAME = 'area-map';

/**
 * How long a picture is reused, here and in the visitor's browser: a day, as Google's own
 * answers allow a browser to keep them, and never longer than the Maps terms let.
 */
export const AREA_MAP_CACHE_SECONDS = 24 * 60 * 60;

/** One key per point: the route's canonical URL (nothing serves this URL from the cache). */
function cacheKey(origin: string, point: string): string {
  return `${origin}${AREA_MAP_API_PATH}?at=${point}`;
}

/** The picture of `point` drawn within a day in this data center, or null. Failures miss. */
export async function cachedAreaMap(origin: string, point: string): Promise<Response | null> {
  try {
    return (await (await caches.open(CACHE_NAME)).match(cacheKey(origin, point))) ?? null;
  } catch (error) {
    logError('area_map_cache_failed', { detail: describeError(error) });
    return null;
  }
}

/**
 * Keeps a picture Google drew, so the same point costs no second paid call for a day. Stored
 * public: the Cache API keeps nothing marked private; what a visitor is answered is decided by
 * the route, which asks the cache only for the point that visitor may see.
 */
export async function cacheAreaMap(
  origin: string,
  point: string,
  image: ReadableStream,
): Promise<void> {
  const stored = new Response(image, {
    headers: {
      'content-type': 'image/png',
      'cache-control': `public, max-age=${AREA_MAP_CACHE_SECONDS}`,
    },
  });
  try {
    await (await caches.open(CACHE_NAME)).put(cacheKey(origin, point), stored);
  } catch (error) {
    logError('area_map_cache_failed', { detail: describeError(error) });
  }
}
