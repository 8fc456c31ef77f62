import fc from 'fast-check';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { Bindings } from '../../../worker/env';
import { country } from '../../../worker/middleware/country';
import type { AppEnv } from '../../../worker/request/envs';

const app = new Hono<AppEnv>();
app.use(country());
app.get('/', (c) => c.text(String(c.get('country'))));

const PRODUCTION = { ENVIRONMENT: 'production' } as Bindings;
const DEVELOPMENT = { ENVIRONMENT: 'development' } as Bindings;

/** The country a request with this header and `cf.country` gets under `bindings`. */
async function countryOf(
  bindings: Bindings,
  header: string | undefined,
  cf?: { country: string },
): Promise<string> {
  const req = new Request('https://funnel.test/', {
    headers: header === undefined ? {} : { 'cf-ipcountry': header },
    cf,
  } as RequestInit);
  return (await app.fetch(req, bindings)).text();
}

describe('on the edge (production, and any ENVIRONMENT but development)', () => {
  it('takes request.cf.country first', async () => {
    expect(await countryOf(PRODUCTION, 'FR', { country: 'DE' })).toBe('DE');
    expect(await countryOf({} as Bindings, 'FR', { country: 'DE' })).toBe('DE');
  });

  it('falls back to the CF-IPCountry header', async () => {
    expect(await countryOf(PRODUCTION, 'fr')).toBe('FR');
  });

  it('is unknown without either, and for Cloudflare placeholders or junk', async () => {
    expect(await countryOf(PRODUCTION, undefined)).toBe('null');
    for (const value of ['XX', 'T1', 'DEU', '<b>']) {
      expect(await countryOf(PRODUCTION, value), value).toBe('null');
    }
  });
});

describe('in development, where wrangler dev gives every request a cf.country', () => {
  it('takes the CF-IPCountry header first', async () => {
    expect(await countryOf(DEVELOPMENT, 'de', { country: 'US' })).toBe('DE');
  });

  it('keeps cf.country without a header, or with one Cloudflare would not send', async () => {
    expect(await countryOf(DEVELOPMENT, undefined, { country: 'US' })).toBe('US');
    for (const value of ['XX', 'T1', 'DEU', '<b>', '']) {
      expect(await countryOf(DEVELOPMENT, value, { country: 'US' }), value).toBe('US');
    }
  });
});

/** Any header value a client can send: visible ASCII and spaces, short or long. */
const headerValue = fc.stringMatching(/^[\x20-\x7e]{0,12}$/);

it('in production no CF-IPCountry value a visitor sends changes the edge’s country', async () => {
  await fc.assert(
    fc.asyncProperty(headerValue, async (value) => {
      expect(await countryOf(PRODUCTION, value, { country: 'US' })).toBe('US');
    }),
  );
});

it('in development a header gives its own country, or leaves wrangler dev’s', async () => {
  await fc.assert(
    fc.asyncProperty(headerValue, async (value) => {
      const code = value.trim().toUpperCase();
      const expected = /^[A-Z]{2}$/.test(code) && code !== 'XX' ? code : 'US';
      expect(await countryOf(DEVELOPMENT, value, { country: 'US' })).toBe(expected);
    }),
  );
});
