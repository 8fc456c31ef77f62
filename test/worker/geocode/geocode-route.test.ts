import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { switchFaultOn } from '../../../portal/faults';
import { migratePortalBeforeEach } from '../api/embedded-portal-fixture';
import { captureLogsPerTest } from '../api/log-capture';
import { freshApp, productionApp } from '../fetch-app';

/**
 * GET /api/geocode (worker/geocode/, SPEC.md §5, §7, §8): the searching screens' map point from
 * Google with the server's key. Google is a mock of `fetch` for its host only; any other request
 * fails the test, so nothing reaches the internet.
 */

const logs = captureLogsPerTest();
migratePortalBeforeEach();

const KEY = 'AIzaSyTEST-geocoding-key-0123456789';
const GOOGLE = 'https://maps.googleapis.com/maps/api/geocode/json';

/** Google's answer for a place it found (the fields the worker reads, and a few it does not). */
function found(lat: unknown, lng: unknown) {
  return {
    results: [
      {
        formatted_address: 'Somewhere',
        geometry: { location: { lat, lng }, location_type: 'APPROXIMATE' },
        place_id: 'ChIJ-test',
        types: ['locality', 'political'],
      },
    ],
    status: 'OK',
  };
}

let google: MockInstance<typeof fetch>;
/** What Google answers next; a test replaces it. */
let answer: () => Response | Promise<Response>;

beforeEach(() => {
  answer = () => Response.json(found(45.764, 4.8357));
  google = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    if (!request.url.startsWith(`${GOOGLE}?`)) throw new Error(`unexpected fetch ${request.url}`);
    return answer();
  });
});
afterEach(() => google.mockRestore());

/** The URLs Google was asked at. */
const asked = () => google.mock.calls.map(([input, init]) => new URL(new Request(input, init).url));

/** A city no other test of this run uses: the Cache API outlives a test. */
let cities = 0;
const freshCity = () => `Town ${crypto.randomUUID().slice(0, 8)} ${++cities}`;

function geocode(
  query: Record<string, string>,
  options: { bindings?: Partial<Cloudflare.Env>; ip?: string; production?: boolean } = {},
) {
  const bindings = { GEOCODING_API_KEY: KEY, ...options.bindings };
  const fetchApp = options.production ? productionApp({}, bindings) : freshApp({}, bindings);
  return fetchApp(`/api/geocode?${new URLSearchParams(query)}`, {
    headers: { 'cf-connecting-ip': options.ip ?? '203.0.113.7' },
  });
}

/** The error lines of geocoding (the config's fallback to its defaults writes others). */
const geocodingErrors = () =>
  logs.errors().filter((line) => String(line.error).startsWith('geocoding'));

const failure = (reason: string) =>
  expect.objectContaining({
    error: 'geocoding_failed',
    message: 'Geocoding request failed',
    reason,
    call: 'geocode',
  });

describe('GET /api/geocode with a key (Google)', () => {
  it('answers the first result’s point of "<city>, <country>", asked with the server’s key', async () => {
    const city = freshCity();
    const response = await geocode({ city, country: 'FR' });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({ location: { lat: 45.764, lng: 4.8357 } });
    const [url] = asked();
    expect(url?.searchParams.get('address')).toBe(`${city}, FR`);
    expect(url?.searchParams.get('key')).toBe(KEY);
    expect(logs.requests().at(-1)).toMatchObject({ call: 'geocode', geocode: 'google' });
  });

  it('never hands the key to the browser: not in the answer, its headers or the page', async () => {
    const answered = await geocode({ city: freshCity(), country: 'FR' });
    const text = `${[...answered.headers].join('\n')}\n${await answered.text()}`;
    expect(text).not.toContain(KEY);
    const page = await freshApp({}, { GEOCODING_API_KEY: KEY })('/searching?skip_split=true');
    expect(page.status).toBe(200);
    expect(await page.text()).not.toContain(KEY);
  });

  it('asks Google once for an address, then answers it from the cache', async () => {
    const city = freshCity();
    const first = await geocode({ city, country: 'DE' });
    // Another spelling of the same address, from another visitor and address.
    const second = await geocode(
      { city: `  ${city.toUpperCase()} `, country: 'DE' },
      { ip: '198.51.100.9' },
    );
    expect(await second.json()).toEqual(await first.json());
    expect(google).toHaveBeenCalledOnce();
    expect(logs.requests().at(-1)).toMatchObject({ call: 'geocode', geocode: 'cache' });
  });

  it.each([
    ['ZERO_RESULTS', { results: [], status: 'ZERO_RESULTS' }],
    ['REQUEST_DENIED', { results: [], status: 'REQUEST_DENIED', error_message: 'Bad key' }],
    ['OVER_QUERY_LIMIT', { results: [], status: 'OVER_QUERY_LIMIT' }],
    ['no_results', { results: [], status: 'OK' }],
    ['malformed', found('45.7', '4.8')],
  ])(
    'logs "Geocoding request failed" (%s) and answers 502 for the page to fall back',
    async (reason, body) => {
      answer = () => Response.json(body);
      const response = await geocode({ city: freshCity(), country: 'GB' });
      expect(response.status).toBe(502);
      expect(await response.json()).toEqual({
        errors: { messages: [] },
        code: 'geocoding_failed',
      });
      expect(geocodingErrors()).toEqual([failure(reason)]);
    },
  );

  it('does not cache a failure: the next visitor asks Google again', async () => {
    const city = freshCity();
    answer = () => Response.json({ results: [], status: 'UNKNOWN_ERROR' });
    expect((await geocode({ city, country: 'GB' })).status).toBe(502);
    answer = () => Response.json(found(53.4808, -2.2426));
    expect(await (await geocode({ city, country: 'GB' })).json()).toEqual({
      location: { lat: 53.4808, lng: -2.2426 },
    });
    expect(google).toHaveBeenCalledTimes(2);
  });

  it('keeps the key out of the log even when Google’s message or the network error names it', async () => {
    answer = () =>
      Response.json({
        results: [],
        status: 'REQUEST_DENIED',
        error_message: `The provided API key is invalid. (${KEY})`,
      });
    await geocode({ city: freshCity(), country: 'GB' });
    answer = () => Promise.reject(new TypeError(`connect failed for ${GOOGLE}?key=${KEY}`));
    await geocode({ city: freshCity(), country: 'GB' });
    expect(geocodingErrors()).toEqual([failure('REQUEST_DENIED'), failure('unreachable')]);
    expect(JSON.stringify([logs.errors(), logs.requests()])).not.toContain(KEY);
  });

  it('gives up on a Google that does not answer within 3 s', async () => {
    answer = () => new Promise<Response>(() => {});
    const started = Date.now();
    const response = await geocode({ city: freshCity(), country: 'GB' });
    expect(response.status).toBe(502);
    expect(Date.now() - started).toBeLessThan(6_000);
    expect(geocodingErrors()).toEqual([failure('timeout')]);
  });

  it('limits the calls that reach Google to 30 an hour per address, then answers 429', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      statuses.push((await geocode({ city: freshCity(), country: 'US' })).status);
    }
    expect(statuses.slice(0, 30)).toEqual(Array(30).fill(200));
    expect(statuses[30]).toBe(429);
    expect(google).toHaveBeenCalledTimes(30);
    expect(logs.errors()).toContainEqual(
      expect.objectContaining({ error: 'rate_limited', call: 'geocode', rule: 'geocode_per_ip' }),
    );
    // Another address is not held back, nor is a point already cached.
    expect((await geocode({ city: freshCity(), country: 'US' }, { ip: '192.0.2.1' })).status).toBe(
      200,
    );
  });
});

describe('GET /api/geocode refuses what is not a city and a country (400)', () => {
  it.each([
    [{ country: 'GB' }, 'city: a city name is required'],
    [{ city: ' ', country: 'GB' }, 'city: a city name is required'],
    [{ city: 'x'.repeat(81), country: 'GB' }, 'city: at most 80 characters'],
    [
      { city: 'London, GB&key=x', country: 'GB' },
      "city: letters, digits, spaces and . ' ’ ( ) - only",
    ],
    [{ city: 'Lon\u0000don', country: 'GB' }, "city: letters, digits, spaces and . ' ’ ( ) - only"],
    [{ city: 'London' }, 'country: a country code is required'],
    [
      { city: 'London', country: 'gb' },
      'country: an ISO 3166-1 alpha-2 code of the capitals table, e.g. GB',
    ],
    [
      { city: 'London', country: 'XX' },
      'country: an ISO 3166-1 alpha-2 code of the capitals table, e.g. GB',
    ],
  ])('%j: %s', async (query, message) => {
    const response = await geocode(query);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      errors: { messages: [message] },
      code: 'invalid_request',
    });
    expect(google).not.toHaveBeenCalled();
  });

  it('takes only GET', async () => {
    // From our own page: a forged POST is refused as forged first (test/worker/api/request-guards).
    const response = await freshApp()('/api/geocode?city=London&country=GB', {
      method: 'POST',
      headers: { 'sec-fetch-site': 'same-origin' },
    });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET');
  });
});

describe('GET /api/geocode without a key', () => {
  it('outside development: logs the failure, answers 503, asks nobody', async () => {
    const response = await geocode(
      { city: freshCity(), country: 'GB' },
      { bindings: { GEOCODING_API_KEY: undefined, ENVIRONMENT: 'production' } },
    );
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({
      errors: { messages: [] },
      code: 'geocoding_not_configured',
    });
    expect(geocodingErrors()).toEqual([failure('not_configured')]);
    expect(google).not.toHaveBeenCalled();
  });

  it('on the production entry, even with ENVIRONMENT=development: no kit to answer', async () => {
    const response = await geocode(
      { city: 'London', country: 'GB' },
      { bindings: { GEOCODING_API_KEY: undefined }, production: true },
    );
    expect(response.status).toBe(503);
    expect(google).not.toHaveBeenCalled();
  });
});

describe('the development kit’s geocoder (development, no key)', () => {
  const local = (query: Record<string, string>) =>
    geocode(query, { bindings: { GEOCODING_API_KEY: undefined } });

  it('answers a capital and a few other cities in Google’s shape, without the network', async () => {
    expect(await (await local({ city: 'london', country: 'GB' })).json()).toEqual({
      location: { lat: 51.5074, lng: -0.1278 },
    });
    expect(await (await local({ city: 'Manchester', country: 'GB' })).json()).toEqual({
      location: { lat: 53.4808, lng: -2.2426 },
    });
    expect(await (await local({ city: 'Bogota', country: 'CO' })).json()).toEqual({
      location: { lat: 4.711, lng: -74.0721 },
    });
    expect(logs.requests().at(-1)).toMatchObject({ call: 'geocode', geocode: 'development' });
    expect(google).not.toHaveBeenCalled();
  });

  it('answers ZERO_RESULTS for a city it does not know, logged as a failure', async () => {
    expect((await local({ city: 'Atlantis', country: 'GR' })).status).toBe(502);
    expect(geocodingErrors()).toEqual([failure('ZERO_RESULTS')]);
  });

  it('fails while the emulator’s switch `geocode` is on, then answers again', async () => {
    await switchFaultOn(env.PORTAL_DB, 'geocode', 1);
    expect((await local({ city: 'Paris', country: 'FR' })).status).toBe(502);
    expect(geocodingErrors()).toEqual([failure('UNKNOWN_ERROR')]);
    expect((await local({ city: 'Paris', country: 'FR' })).status).toBe(200);
  });
});
