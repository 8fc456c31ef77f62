import { Hono } from 'hono';
import { expect, it } from 'vitest';
import type { AppEnv } from '../../../worker/env';
import { country } from '../../../worker/middleware/country';

const app = new Hono<AppEnv>();
app.use(country());
app.get('/', (c) => c.text(String(c.get('country'))));

it('takes request.cf.country first', async () => {
  const req = new Request('https://funnel.test/', {
    headers: { 'cf-ipcountry': 'FR' },
    cf: { country: 'DE' },
  } as RequestInit);
  expect(await (await app.fetch(req)).text()).toBe('DE');
});

it('falls back to the CF-IPCountry header', async () => {
  const res = await app.request('/', { headers: { 'cf-ipcountry': 'fr' } });
  expect(await res.text()).toBe('FR');
});

it('is unknown without either, and for Cloudflare placeholders or junk', async () => {
  expect(await (await app.request('/')).text()).toBe('null');
  for (const value of ['XX', 'T1', 'DEU', '<b>']) {
    const res = await app.request('/', { headers: { 'cf-ipcountry': value } });
    expect(await res.text(), value).toBe('null');
  }
});
