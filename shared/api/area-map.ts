import type { Coordinates } from './contract';

/**
 * The worker's picture of the located area (worker/area-map/): Google's Static Maps image of the
 * point the worker itself geocoded for this visitor, drawn with a key that never leaves the
 * server. Kept free of zod, which the page never loads.
 *
 * `GET /api/area-map?at=<lat>,<lng>` answers the PNG when `at` is the point the visitor's own
 * geocoding answer left in its signed cookie; anything else is refused, and the page keeps its
 * drawn map (islands/phone/AreaMap.tsx).
 */
export const AREA_MAP_API_PATH = '/api/area-map';

/** The image's size in CSS pixels: the drawn map's (islands/phone/AreaMap.tsx), asked at 2×. */
export const AREA_MAP_WIDTH = 343;
export const AREA_MAP_HEIGHT = 200;

/** Four decimals (about 11 m): the same text for the page and the worker, whatever the float. */
export function areaMapPoint(point: Coordinates): string {
  return `${point.lat.toFixed(4)},${point.lng.toFixed(4)}`;
}

/** Where the page asks for the picture of `point`. */
export function areaMapUrl(point: Coordinates): string {
  return `${AREA_MAP_API_PATH}?at=${areaMapPoint(point)}`;
}
