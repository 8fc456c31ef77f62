/** SPEC.md §9 Geometry: the earth radius the offset is computed with, in metres. */
export const EARTH_RADIUS_M = 6_371_000;
/** SPEC.md §9 Geometry: coordinates are offset by 3000 metres. */
export const MAP_OFFSET_M = 3000;

export interface Coordinates {
  lat: number;
  lng: number;
}

export interface Area {
  north: number;
  south: number;
  east: number;
  west: number;
}

const DEGREES_PER_RADIAN = 180 / Math.PI;

/**
 * The point `north` metres north and `east` metres east of `from` (negative goes south / west),
 * on a sphere of SPEC.md §9's radius. Small-distance approximation: a longitude degree shrinks
 * with the cosine of the latitude; exact enough for a few kilometres away from the poles.
 */
export function offsetCoordinates(from: Coordinates, north: number, east: number): Coordinates {
  const lat = from.lat + (north / EARTH_RADIUS_M) * DEGREES_PER_RADIAN;
  const lng =
    from.lng +
    (east / (EARTH_RADIUS_M * Math.cos(from.lat / DEGREES_PER_RADIAN))) * DEGREES_PER_RADIAN;
  // Back into -180..180 when the move crossed the antimeridian.
  const wrapped = lng > 180 ? lng - 360 : lng < -180 ? lng + 360 : lng;
  return { lat, lng: wrapped };
}

/** The map area the searching screens show: `metres` (SPEC.md §9: 3000) each way from the point. */
export function areaAround(centre: Coordinates, metres = MAP_OFFSET_M): Area {
  const northEast = offsetCoordinates(centre, metres, metres);
  const southWest = offsetCoordinates(centre, -metres, -metres);
  return { north: northEast.lat, east: northEast.lng, south: southWest.lat, west: southWest.lng };
}

/**
 * Where a point falls on a `width`×`height` drawing of `area` (x to the east, y to the south).
 * An area crossing the antimeridian is unwrapped so its east edge stays east of its west edge.
 */
export function projectOnto(
  point: Coordinates,
  area: Area,
  width: number,
  height: number,
): { x: number; y: number } {
  const east = area.east < area.west ? area.east + 360 : area.east;
  const lng = point.lng < area.west ? point.lng + 360 : point.lng;
  return {
    x: ((lng - area.west) / (east - area.west)) * width,
    y: ((area.north - point.lat) / (area.north - area.south)) * height,
  };
}
