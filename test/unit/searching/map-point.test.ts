import { describe, expect, it, vi } from 'vitest';
import { mapPointOf } from '../../../islands/phone/map-point';

/** A number of Manchester, whose lookup placed it at the capital. */
const MANCHESTER = {
  city: 'Manchester',
  country: 'GB',
  location: { lat: 51.5074, lng: -0.1278 },
};
const LONDON = { lat: 51.5074, lng: -0.1278 };

function answering(status: number, body: unknown) {
  return vi.fn<typeof fetch>(async () =>
    typeof body === 'string' ? new Response(body, { status }) : Response.json(body, { status }),
  );
}

describe('mapPointOf (SPEC.md §7 geocoding, §8 fallback to the capital)', () => {
  it('asks the worker to geocode the city and country, and takes its point', async () => {
    const fetch = answering(200, { location: { lat: 53.4808, lng: -2.2426 } });
    expect(await mapPointOf(MANCHESTER, { fetch })).toEqual({ lat: 53.4808, lng: -2.2426 });
    expect(fetch).toHaveBeenCalledOnce();
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/api/geocode?city=Manchester&country=GB');
    expect(init?.method).toBe('GET');
  });

  it('falls back to the country’s capital when geocoding fails, whatever the failure', async () => {
    const offline = vi.fn<typeof fetch>(async () => {
      throw new TypeError('Failed to fetch');
    });
    for (const fetch of [
      answering(502, { errors: { messages: [] }, code: 'geocoding_failed' }),
      answering(429, { errors: { messages: [] }, code: 'rate_limited' }),
      answering(200, '<html>'),
      answering(200, { location: { lat: '53.48', lng: '-2.24' } }),
      answering(200, {}),
      offline,
    ]) {
      expect(await mapPointOf({ ...MANCHESTER, location: null }, { fetch })).toEqual(LONDON);
    }
  });

  it('goes straight to the capital when the lookup has no city', async () => {
    const fetch = answering(200, { location: { lat: 1, lng: 1 } });
    expect(await mapPointOf({ ...MANCHESTER, city: null }, { fetch })).toEqual(LONDON);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('keeps the lookup’s point for a country outside the capitals table, asking nobody', async () => {
    const fetch = answering(200, { location: { lat: 1, lng: 1 } });
    const iceland = { city: 'Reykjavik', country: 'IS', location: { lat: 64.1466, lng: -21.9426 } };
    expect(await mapPointOf(iceland, { fetch })).toEqual(iceland.location);
    expect(await mapPointOf({ city: null, country: null, location: null }, { fetch })).toBeNull();
    expect(fetch).not.toHaveBeenCalled();
  });
});
