import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, startBrowserSession } from './harness';
import { MANCHESTER_NUMBER } from './manchester-number';
import { interactive } from './visitor-steps';

/**
 * The searching screen's real map (worker/area-map/): with a maps key set, the page lays the
 * worker's picture of the geocoded point over its drawn map. The worker's own answers to it are
 * proven in workerd against a mocked Google (test/worker/area-map/); here the picture's answer is
 * stood in for in the page, so nothing asks Google, and what a visitor sees is checked. The drawn
 * map kept when the worker draws none (its 204 an image that fails to load) is
 * test/unit/searching/SearchProgress.test.tsx's.
 */

let session: BrowserSession;
beforeAll(async () => {
  session = await startBrowserSession({ bindings: { STATIC_MAPS_API_KEY: 'test-maps-key' } });
});
afterAll(() => session?.stop());

/** A 1×1 PNG, standing in for Google's picture. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

async function searchWithPicture(
  answer: { status: number; body?: Buffer },
  held: Promise<void> = Promise.resolve(),
) {
  const visitor = await session.newVisitor({ reducedMotion: 'reduce' });
  const { page } = visitor;
  await page.addInitScript(() => localStorage.setItem('gf:map:phone', '"+447400123456"'));
  await page.route('**/api/phone-number-info/**', (route) =>
    route.fulfill({ json: MANCHESTER_NUMBER }),
  );
  const asked: string[] = [];
  await page.route('**/api/area-map?**', async (route) => {
    asked.push(new URL(route.request().url()).search);
    await held;
    return route.fulfill({ status: answer.status, contentType: 'image/png', body: answer.body });
  });
  await page.goto('/searching?skip_split=true');
  await interactive(page);
  await expect.poll(() => page.locator('#continue-button').isEnabled()).toBe(true);
  return { ...visitor, asked };
}

describe('the searching screen’s real map', () => {
  it('covers the drawn map exactly once the worker’s picture of the geocoded point loads', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { context, page, problems, asked } = await searchWithPicture(
      { status: 200, body: PNG },
      held,
    );
    // Asked, not yet answered: the drawn map shows, and nothing below it moves when it arrives.
    await page.locator('.area-map img').waitFor({ state: 'attached' });
    const boxes = () =>
      Promise.all(['.search__rows', '#continue-button'].map((s) => page.locator(s).boundingBox()));
    const before = await boxes();
    release();
    const picture = page.locator('.area-map__picture--shown');
    await picture.waitFor();
    expect(await boxes()).toEqual(before);
    expect(asked).toEqual(['?at=53.4808,-2.2426']);
    const drawn = await page.locator('.area-map svg').boundingBox();
    expect(await picture.boundingBox()).toEqual(drawn);
    expect(await picture.getAttribute('alt')).toBe('');
    // The drawn map still names the area for a screen reader.
    expect(await page.getByRole('img', { name: /map/i }).count()).toBe(1);
    expect(problems).toEqual([]);
    await context.close();
  });
});
