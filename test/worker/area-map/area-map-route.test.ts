import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { migratePortalBeforeEach } from '../api/embedded-portal-fixture';
import { captureLogsPerTest } from '../api/log-capture';
import { freshApp, productionApp, setCookies } from '../fetch-app';

/**
 * GET /api/area-map (worker/area-map/): the located area as Google's static map, drawn through
 * the worker with its key. Google (geocoding and static maps) is a mock of `fetch` for its hosts
 * only; any other request fails the test, so nothing reaches the internet.
 */

const logs = captureLogsPerTest();
migratePortalBeforeEach();

const GEOCODING_KEY = 'AIzaSyTEST-geocoding-key-0123456789';
const MAPS_KEY = 'AIzaSyTEST-static-maps-key-9876543210';
const GEOCODE = 'https://maps.googleapis.com/maps/api/geocode/json';
const STATIC_MAPS = 'https://maps.googleapis.com/maps/api/staticmap';
/** The first bytes of a PNG, standing in for Google's picture. */
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

let google: MockInstance<typeof fetch>;
/** What Google's Static Maps answers next; a test replaces it. */
let picture: () => Response | Promise<Response>;
/** Where Google's geocoding puts the next city. */
let located = { lat: 48.8566, lng: 2.3522 };

beforeEach(() => {
  picture = () =>
    new Response(PNG, {
      headers: { 'content-type': 'image/png', 'content-length': String(PNG.length) },
    });
  google = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    if (request.url.startsWith(`${GEOCODE}?`)) {
      return Response.json({ results: [{ geometry: { location: located } }], status: 'OK' });
    }
    if (request.url.startsWith(`${STATIC_MAPS}?`)) return picture();
    throw new Error(`unexpected fetch ${request.url}`);
  });
});
afterEach(() => google.mockRestore());

/** The Static Maps URLs Google was asked at. */
const drawn = () =>
  google.mock.calls
    .map(([input, init]) => new URL(new Request(input, init).url))
    .filter((url) => url.href.startsWith(STATIC_MAPS));

/** A place no other test of this run uses: the Cache API outlives a test, per point. */
let places = 0;
function freshPlace() {
  places++;
  located = { lat: 10 + Math.random() * 50, lng: -100 + Math.random() * 200 };
  return `Town ${crypto.randomUUID().slice(0, 8)} ${places}`;
}

const BINDINGS = { GEOCODING_API_KEY: GEOCODING_KEY, STATIC_MAPS_API_KEY: MAPS_KEY };

/** One browser: its visitor cookie, and whatever the worker sets on it. */
function visitor(bindings: Partial<Cloudflare.Env> = BINDINGS, ip = '203.0.113.7') {
  const app = freshApp({}, bindings);
  const jar = new Map([['userUuid', crypto.randomUUID()]]);
  const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  return {
    async get(path: string) {
      const response = await app(path, { headers: { cookie: cookie(), 'cf-connecting-ip': ip } });
      for (const [name, value] of setCookies(response)) jar.set(name, value);
      return response;
    },
    /** Locates a fresh city as the searching screen does: the point geocoding answered. */
    async locate(): Promise<string> {
      const answer = await this.get(`/api/geocode?city=${freshPlace()}&country=FR`);
      const { location } = (await answer.json()) as { location: typeof located };
      return `${location.lat.toFixed(4)},${location.lng.toFixed(4)}`;
    },
  };
}

describe('GET /api/area-map with a maps key', () => {
  it("streams Google's picture of the visitor's own located point, cacheable, key kept", async () => {
    const browser = visitor();
    const at = await browser.locate();
    const response = await browser.get(`/api/area-map?at=${at}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('cache-control')).toBe('private, max-age=86400, immutable');
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(PNG);
    const [url] = drawn();
    expect(url?.searchParams.get('center')).toBe(at);
    expect(url?.searchParams.get('size')).toBe('343x200');
    expect(url?.searchParams.get('scale')).toBe('2');
    expect(url?.searchParams.get('key')).toBe(MAPS_KEY);
    expect([...response.headers].join('\n')).not.toContain(MAPS_KEY);
    expect(logs.requests().at(-1)).toMatchObject({ call: 'area_map', area_map: 'google' });
  });

  it('draws a point once: the next visitor located there gets the cached picture', async () => {
    const first = visitor();
    const at = await first.locate();
    await first.get(`/api/area-map?at=${at}`);
    // Another visitor locates the same place (the same city from geocoding's cache).
    const second = visitor(BINDINGS, '198.51.100.9');
    const again = await second.get(`/api/geocode?city=Town%20again&country=FR`);
    expect(again.status).toBe(200);
    const response = await second.get(`/api/area-map?at=${at}`);
    expect(response.status).toBe(200);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(PNG);
    expect(drawn()).toHaveLength(1);
    expect(logs.requests().at(-1)).toMatchObject({ area_map: 'cache' });
  });

  it.each([
    [
      'another point',
      (at: string) => `at=${at.replace(/^\d/, (d) => String((Number(d) + 1) % 10))}`,
    ],
    ['a size of its own', (at: string) => `at=${at}&size=640x640`],
    ['a key of its own', (at: string) => `at=${at}&key=theirs`],
    ['an address', () => 'at=Paris'],
    ['a path to proxy', () => `at=${encodeURIComponent('https://evil.example/x')}`],
    ['no point', () => ''],
  ])('draws nothing for %s: only the located point, every parameter fixed', async (_, query) => {
    const browser = visitor();
    const at = await browser.locate();
    const response = await browser.get(`/api/area-map?${query(at)}`);
    expect([400, 404]).toContain(response.status);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(drawn()).toEqual([]);
  });

  it('draws nothing for a point located by another browser, nor with a forged cookie', async () => {
    const owner = visitor();
    const at = await owner.locate();
    const stranger = visitor();
    expect((await stranger.get(`/api/area-map?at=${at}`)).status).toBe(404);
    const app = freshApp({}, BINDINGS);
    const forged = await app(`/api/area-map?at=${at}`, {
      headers: { cookie: `userUuid=${crypto.randomUUID()}; gf_area=${at}.${'A'.repeat(43)}` },
    });
    expect(forged.status).toBe(404);
    expect(drawn()).toEqual([]);
  });

  it('limits the pictures that reach Google to 10 an hour per visitor, then answers 429', async () => {
    const browser = visitor({ ...BINDINGS, RATE_LIMITS: 'production' });
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const at = await browser.locate();
      statuses.push((await browser.get(`/api/area-map?at=${at}`)).status);
    }
    expect(statuses).toEqual([...Array(10).fill(200), 429]);
    expect(drawn()).toHaveLength(10);
    expect(logs.errors()).toContainEqual(
      expect.objectContaining({
        error: 'rate_limited',
        call: 'area_map',
        rule: 'area_map_per_visitor',
      }),
    );
  });

  it.each([
    [
      'an error status',
      () => new Response('The Google Maps Platform server rejected your request.', { status: 403 }),
      'http_403',
    ],
    [
      'text, not a picture',
      () => new Response('oops', { headers: { 'content-type': 'text/html' } }),
      'not_an_image',
    ],
    [
      'a picture far too large',
      () =>
        new Response(PNG, {
          headers: { 'content-type': 'image/png', 'content-length': '5000000' },
        }),
      'not_an_image',
    ],
    [
      'no answer at all',
      () => Promise.reject(new TypeError(`connect failed ${STATIC_MAPS}?key=${MAPS_KEY}`)),
      'unreachable',
    ],
  ])(
    'answers 204, never a 5xx, when Google sends %s, and logs why without the key',
    async (_, answer, reason) => {
      picture = answer;
      const browser = visitor();
      const at = await browser.locate();
      const response = await browser.get(`/api/area-map?at=${at}`);
      expect(response.status).toBe(204);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const failures = logs.errors().filter((line) => line.error === 'area_map_failed');
      expect(failures).toEqual([expect.objectContaining({ call: 'area_map', reason })]);
      expect(JSON.stringify(logs.errors())).not.toContain(MAPS_KEY);
      // A failure is not kept: the next ask tries Google again.
      picture = () => new Response(PNG, { headers: { 'content-type': 'image/png' } });
      expect((await browser.get(`/api/area-map?at=${at}`)).status).toBe(200);
    },
  );
});

describe('GET /api/area-map without a maps key', () => {
  it('sets no cookie on geocoding and answers 404 without asking Google', async () => {
    const browser = visitor({ GEOCODING_API_KEY: GEOCODING_KEY });
    const answer = await browser.get(`/api/geocode?city=${freshPlace()}&country=FR`);
    expect(setCookies(answer).has('gf_area')).toBe(false);
    const at = `${located.lat.toFixed(4)},${located.lng.toFixed(4)}`;
    expect((await browser.get(`/api/area-map?at=${at}`)).status).toBe(404);
    expect(drawn()).toEqual([]);
  });

  it('answers only GET', async () => {
    // From our own page: a forged POST is refused as forged first (test/worker/api/request-guards).
    const response = await freshApp({}, BINDINGS)('/api/area-map?at=1.0000,2.0000', {
      method: 'POST',
      headers: { 'sec-fetch-site': 'same-origin' },
    });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET');
  });
});

describe('the searching screens', () => {
  const asksForPictures = async (app: ReturnType<typeof freshApp>) => {
    const html = await (await app('/searching?skip_split=true')).text();
    expect(html).toContain('SearchProgress');
    return html.includes('&quot;staticMap&quot;:true');
  };

  it('ask for the real map only where the worker draws one, and never carry its key', async () => {
    const drawing = freshApp({}, BINDINGS);
    expect(await asksForPictures(drawing)).toBe(true);
    expect(await (await drawing('/searching?skip_split=true')).text()).not.toContain(MAPS_KEY);
    expect(await asksForPictures(freshApp({}, { GEOCODING_API_KEY: GEOCODING_KEY }))).toBe(false);
    // No key to sign the allowed point with: no point could ever be drawn, so none is asked for.
    const unsigned = productionApp({}, { ...BINDINGS, ENVIRONMENT: 'production' });
    expect(await asksForPictures(unsigned)).toBe(false);
  });
});
