import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  areaAround,
  EARTH_RADIUS_M,
  MAP_OFFSET_M,
  offsetCoordinates,
  projectOnto,
} from '../../../islands/phone/geo-offset';

/** Great-circle distance, independent of the code under test. */
function haversine(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.sqrt(h));
}

describe('coordinate offset (SPEC.md §9 Geometry)', () => {
  it('uses the spec’s constants: 3000 m on an earth of radius 6 371 000 m', () => {
    expect(MAP_OFFSET_M).toBe(3000);
    expect(EARTH_RADIUS_M).toBe(6_371_000);
  });

  it('moves 3000 m north by 3000 / 6 371 000 radians of latitude', () => {
    const moved = offsetCoordinates({ lat: 51.5, lng: -0.12 }, 3000, 0);
    expect(moved.lat - 51.5).toBeCloseTo((3000 / 6_371_000) * (180 / Math.PI), 10);
    expect(moved.lng).toBe(-0.12);
  });

  it('moves east by more degrees the further from the equator', () => {
    const atEquator = offsetCoordinates({ lat: 0, lng: 10 }, 0, 3000).lng - 10;
    const at60 = offsetCoordinates({ lat: 60, lng: 10 }, 0, 3000).lng - 10;
    expect(atEquator).toBeCloseTo(0.02698, 5);
    // cos 60° = 1/2: a degree of longitude is half as long there.
    expect(at60).toBeCloseTo(atEquator * 2, 8);
  });

  it('goes south and west with negative distances', () => {
    const moved = offsetCoordinates({ lat: 10, lng: 10 }, -3000, -3000);
    expect(moved.lat).toBeLessThan(10);
    expect(moved.lng).toBeLessThan(10);
  });

  it('wraps longitude across the antimeridian', () => {
    const moved = offsetCoordinates({ lat: 0, lng: 179.99 }, 0, 3000);
    expect(moved.lng).toBeCloseTo(-179.983, 3);
  });

  it('lands the given distance away, anywhere people live', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -70, max: 70, noNaN: true }),
        fc.double({ min: -179, max: 179, noNaN: true }),
        fc.double({ min: -5000, max: 5000, noNaN: true }),
        fc.double({ min: -5000, max: 5000, noNaN: true }),
        (lat, lng, north, east) => {
          const moved = offsetCoordinates({ lat, lng }, north, east);
          const expected = Math.hypot(north, east);
          expect(Math.abs(haversine({ lat, lng }, moved) - expected)).toBeLessThan(
            expected * 0.002 + 0.01,
          );
        },
      ),
    );
  });
});

describe('map area around a point', () => {
  it('reaches 3000 m each way from the located point', () => {
    const centre = { lat: 38.9072, lng: -77.0369 };
    const area = areaAround(centre);
    expect(haversine(centre, { lat: area.north, lng: centre.lng })).toBeCloseTo(3000, 0);
    expect(haversine(centre, { lat: area.south, lng: centre.lng })).toBeCloseTo(3000, 0);
    expect(haversine(centre, { lat: centre.lat, lng: area.east })).toBeCloseTo(3000, -1);
    expect(haversine(centre, { lat: centre.lat, lng: area.west })).toBeCloseTo(3000, -1);
  });

  it('puts the located point in the middle of the drawing', () => {
    const centre = { lat: -33.4489, lng: -70.6693 };
    const { x, y } = projectOnto(centre, areaAround(centre), 343, 200);
    expect(x).toBeCloseTo(171.5, 6);
    expect(y).toBeCloseTo(100, 6);
  });

  it('draws north up and east right, also across the antimeridian', () => {
    const centre = { lat: -17, lng: 179.99 };
    const area = areaAround(centre);
    expect(area.east).toBeLessThan(area.west);
    const north = projectOnto(offsetCoordinates(centre, 1000, 0), area, 300, 300);
    const east = projectOnto(offsetCoordinates(centre, 0, 1000), area, 300, 300);
    expect(north.y).toBeLessThan(150);
    expect(east.x).toBeGreaterThan(150);
    expect(east.x).toBeCloseTo(200, 0);
  });
});
