import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatInternational } from '../../shared/phone/phone-number';
import { type BrowserSession, startBrowserSession } from './harness';
import { PATIENCE_MS } from './patience';

let session: BrowserSession;
beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(() => session?.stop());

/** A visitor on a 350px phone whose landing already stored `phone` (E.164), or none. */
async function visitorWithNumber(
  phone: string | null,
  options: { reducedMotion?: 'reduce' | 'no-preference' } = {},
) {
  const context = await session.browser.newContext({
    baseURL: session.worker.url.href,
    viewport: { width: 350, height: 740 },
    ...options,
  });
  // What the landing's phone form stores: the number in E.164 and as people write it.
  if (phone)
    await context.addInitScript(
      ([value, display]) => {
        if (!localStorage.getItem('gf:map:phone')) {
          localStorage.setItem('gf:map:phone', JSON.stringify(value));
          localStorage.setItem('gf:map:phoneDisplay', JSON.stringify(display));
        }
      },
      [phone, formatInternational(phone)],
    );
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      problems.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  return { context, page, problems };
}

async function booted(page: Page) {
  await page.waitForSelector('html[data-booted="yes"]', { state: 'attached' });
}

const horizontalOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/**
 * The search played with motion allowed, taking a few seconds, is sign-up.test.ts's journey;
 * opened without a number, the screen's notice and its link back to the landing with the query
 * are the island's and the screen's (test/unit/searching/SearchProgress.test.tsx,
 * searching-screens.test.tsx).
 */
describe('searching screens in Chromium (SPEC.md §2)', () => {
  it.each(['searching', 'searching_2', 'searching_ai'])(
    '%s locates the stored number: steps, ring, map and results at 350px, no console problem, nothing from another site',
    async (screen) => {
      const { context, page, problems } = await visitorWithNumber('+447400123456', {
        reducedMotion: 'reduce',
      });
      // The map is drawn here: no third-party script, tile or image.
      const foreign: string[] = [];
      page.on('request', (request) => {
        if (new URL(request.url()).origin !== session.worker.url.origin)
          foreign.push(request.url());
      });
      await page.goto(`/${screen}?skip_split=true`);
      await booted(page);
      const continueButton = page.locator('#continue-button');
      // Before the island hydrates, the server's Continue is enabled (so the screen works
      // without JavaScript); the finished search is what to wait for.
      await expect
        .poll(() => page.locator('.search__step--done').count(), { timeout: PATIENCE_MS })
        .toBe(4);
      expect(await continueButton.isEnabled()).toBe(true);
      expect(await page.locator('.search__number-value').textContent()).toBe('+44 7400 123456');
      expect(
        await page.getByRole('img', { name: 'Map of the area around the located phone' }).count(),
      ).toBe(1);
      const rows = await page.locator('.search__row dd').allTextContents();
      expect(rows).toEqual([
        'Mobile network',
        'United Kingdom',
        expect.stringMatching(/^GMT(\+0|\+1)? \(London\)$/),
        'London',
        '51.5074, -0.1278',
      ]);
      expect(await horizontalOverflow(page)).toBe(0);
      // Done, the title says so, and on a 390 px phone Continue is on the first screen, not
      // below the animation, the details and the map.
      expect(await page.locator('h1').innerText()).toBe(
        screen === 'searching_ai' ? 'AI has located the number' : 'Number located',
      );
      await page.setViewportSize({ width: 390, height: 844 });
      const box = await continueButton.boundingBox();
      expect(box!.y + box!.height).toBeLessThanOrEqual(844);
      // And nothing covers it: a press lands on it.
      const pressed = await continueButton.evaluate((button) => {
        const { x, y, width, height } = button.getBoundingClientRect();
        return button.contains(document.elementFromPoint(x + width / 2, y + height / 2));
      });
      expect(pressed).toBe(true);
      expect(foreign, 'requests to other sites').toEqual([]);
      expect(problems).toEqual([]);
      await context.close();
    },
  );
});
