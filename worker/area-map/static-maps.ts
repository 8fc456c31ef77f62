import { AREA_MAP_HEIGHT, AREA_MAP_WIDTH } from '../../shared/api/area-map';

/** Google's Maps Static API. */
const STATIC_MAPS_URL = 'https://maps.googleapis.com/maps/api/staticmap';

/**
 * SPEC.md §9 shows 3000 m each way around the point: zoom 13 is about 19 m a pixel at the
 * equator, so the 343 px picture spans some 6.5 km.
 */
const ZOOM = '13';

/** A picture is not worth a longer wait: past this the drawn map stays. */
const STATIC_MAP_TIMEOUT_MS = 3_000;

/** Google's 686×400 PNG of a street map is 60–150 KB; anything far past it is not one. */
const STATIC_MAP_MAX_BYTES = 400_000;

/** What came of asking Google: its image, or why there is none (logged, never shown). */
export type StaticMapOutcome =
  | { ok: true; image: Response }
  | { ok: false; reason: string; detail?: string };

/**
 * The request for `point` (areaMapPoint's text): every parameter fixed here but the point, so
 * nothing a page sends reaches Google; the size is the drawn map's, at scale 2 for sharp screens.
 */
export function staticMapRequest(point: string, key: string): Request {
  const url = new URL(STATIC_MAPS_URL);
  url.searchParams.set('center', point);
  url.searchParams.set('zoom', ZOOM);
  url.searchParams.set('size', `${AREA_MAP_WIDTH}x${AREA_MAP_HEIGHT}`);
  url.searchParams.set('scale', '2');
  url.searchParams.set('format', 'png');
  url.searchParams.set('markers', `color:red|${point}`);
  url.searchParams.set('key', key);
  return new Request(url, { headers: { accept: 'image/png' } });
}

function isImage(response: Response): boolean {
  const type = response.headers.get('content-type') ?? '';
  const length = Number(response.headers.get('content-length') ?? '0');
  return /^image\/png\b/i.test(type) && length <= STATIC_MAP_MAX_BYTES && response.body !== null;
}

/**
 * Asks Google for the picture within STATIC_MAP_TIMEOUT_MS. Success only with a 200 PNG of
 * a believable size; Google's errors come as text or an error image with another status.
 */
export async function askStaticMaps(request: Request): Promise<StaticMapOutcome> {
  let response: Response;
  try {
    response = await fetch(request, { signal: AbortSignal.timeout(STATIC_MAP_TIMEOUT_MS) });
  } catch (error) {
    const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
    return timedOut
      ? { ok: false, reason: 'timeout' }
      : { ok: false, reason: 'unreachable', detail: String(error).slice(0, 200) };
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    return { ok: false, reason: `http_${response.status}` };
  }
  if (!isImage(response)) {
    await response.body?.cancel();
    return { ok: false, reason: 'not_an_image' };
  }
  return { ok: true, image: response };
}
