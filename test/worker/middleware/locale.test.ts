import { Hono } from 'hono';
import { expect, it } from 'vitest';
import { locale } from '../../../worker/middleware/language';
import type { AppEnv } from '../../../worker/request/envs';

function appIn(environment: string) {
  const app = new Hono<AppEnv>();
  app.use(locale({ supported: ['en', 'es', 'pt-BR'] }));
  app.get('/', (c) => c.text(`${c.get('language')} ${c.get('theme')}`));
  return async (path: string, headers: Record<string, string> = {}) => {
    const response = await app.request(path, { headers }, { ENVIRONMENT: environment });
    return response.text();
  };
}

it('picks the browser language: exact, then language part, then a same-language variant', async () => {
  const request = appIn('production');
  expect(await request('/', { 'accept-language': 'es-MX,en;q=0.5' })).toBe('es geozilla');
  expect(await request('/', { 'accept-language': 'pt-PT' })).toBe('pt-BR geozilla');
  expect(await request('/', { 'accept-language': 'ja' })).toBe('en geozilla');
});

it('honours custom_lng outside production only: staging and development (SPEC.md §2)', async () => {
  for (const environment of ['development', 'staging']) {
    expect(await appIn(environment)('/?custom_lng=es'), environment).toBe('es geozilla');
  }
});

it('ignores custom_lng in production and wherever ENVIRONMENT is not named exactly', async () => {
  for (const environment of ['production', 'Production', 'Staging', 'stage', '']) {
    expect(await appIn(environment)('/?custom_lng=es'), environment).toBe('en geozilla');
  }
});

it('resolves the theme and its aliases, defaulting to geozilla', async () => {
  const request = appIn('production');
  expect(await request('/?theme=fl')).toBe('en family-locator');
  expect(await request('/?theme=brainbloom')).toBe('en brainbloom');
  expect(await request('/?theme=fo')).toBe('en findo');
  expect(await request('/?theme=%3Cx%3E')).toBe('en geozilla');
});
