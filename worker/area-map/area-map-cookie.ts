import { AREA_MAP_API_PATH, areaMapPoint } from '../../shared/api/area-map';
import type { Coordinates } from '../../shared/api/contract';
import type { Bindings } from '../env';
import { cookieKey, type SignedCookies } from '../request/cookies';

/**
 * The one point a visitor may have drawn: the last one their own geocoding answer gave, signed for
 * their visitor id (worker/signing.ts), so it can be neither typed, edited nor copied from
 * another browser. Sent only to the picture's path.
 */
const AREA_MAP_COOKIE = 'gf_area';

/** A day: the searching screens and a reload or two; a later visit geocodes again. */
const AREA_MAP_COOKIE_SECONDS = 24 * 60 * 60;

/** The server's Maps Static API key, or null when none is set. */
export function staticMapsKey(env: Bindings): string | null {
  return env.STATIC_MAPS_API_KEY?.trim() || null;
}

/**
 * Whether the worker draws located areas: a maps key, and a key to sign the allowed point with
 * (without one no point is ever allowed). Else the pages keep their drawn map and ask nothing.
 */
export function drawsAreaMaps(env: Bindings): boolean {
  return staticMapsKey(env) !== null && cookieKey(env) !== null;
}

/** Leaves `point` as the one this visitor may ask a picture of, when pictures are drawn at all. */
export async function allowAreaMap(
  env: Bindings,
  cookies: SignedCookies,
  point: Coordinates,
): Promise<void> {
  if (!drawsAreaMaps(env)) return;
  await cookies.write(AREA_MAP_COOKIE, areaMapPoint(point), {
    path: AREA_MAP_API_PATH,
    httpOnly: true,
    secure: true,
    sameSite: 'Strict',
    maxAge: AREA_MAP_COOKIE_SECONDS,
  });
}

/** The point this visitor's own geocoding left (areaMapPoint's text), or null. */
export async function allowedAreaMap(cookies: SignedCookies): Promise<string | null> {
  const cookie = await cookies.read(AREA_MAP_COOKIE);
  return cookie.state === 'valid' ? cookie.value : null;
}
