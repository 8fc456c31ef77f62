import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, startBrowserSession } from './harness';
import { MANCHESTER_NUMBER } from './manchester-number';
import { interactive } from './visitor-steps';

/**
 * The searching screen's map point (SPEC.md §7 Geocoding, §8 'Geocoding request failed'): the
 * page asks the worker to geocode the number's city and country; the development kit's geocoder
 * answers (no key), and the emulator's switch `geocode` makes it fail, when the page shows the
 * country's capital.
 */

let session: BrowserSession;
beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(() => session?.stop());

async function searchForManchesterNumber() {
  const visitor = await session.newVisitor({ reducedMotion: 'reduce' });
  const { page } = visitor;
  await page.addInitScript(() => localStorage.setItem('gf:map:phone', '"+447400123456"'));
  await page.route('**/api/phone-number-info/**', (route) =>
    route.fulfill({ json: MANCHESTER_NUMBER }),
  );
  const geocoded = page.waitForResponse((response) => response.url().includes('/api/geocode?'));
  await page.goto('/searching?skip_split=true');
  await interactive(page);
  return { ...visitor, geocoded: await geocoded };
}

const locationRow = (page: Page) =>
  page.locator('.search__row', { hasText: 'Location' }).locator('dd').textContent();

describe('the searching screen’s map point', () => {
  it('is the city the worker geocoded', async () => {
    const { context, page, problems, geocoded } = await searchForManchesterNumber();
    expect(new URL(geocoded.url()).search).toBe('?city=Manchester&country=GB');
    expect(geocoded.status()).toBe(200);
    await expect.poll(() => locationRow(page)).toBe('53.4808, -2.2426');
    expect(await page.locator('#continue-button').isEnabled()).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem('gf:map:initCoords'))).toBe(
      '{"lat":53.4808,"lng":-2.2426}',
    );
    expect(problems).toEqual([]);
    await context.close();
  });

  it('is the country’s capital when geocoding fails, and the screen carries on', async () => {
    await session.worker.portalDb
      .prepare("INSERT INTO emulator_faults (call, remaining) VALUES ('geocode', 1)")
      .run();
    const { context, page, problems, geocoded } = await searchForManchesterNumber();
    expect(geocoded.status()).toBe(502);
    await expect.poll(() => locationRow(page)).toBe('51.5074, -0.1278');
    expect(await page.locator('#continue-button').isEnabled()).toBe(true);
    expect(await page.locator('.area-map__pin').count()).toBe(1);
    expect(problems).toEqual([`502 ${geocoded.url()}`]);
    await context.close();
  });
});
