import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAxe } from './a11y-checks';
import { openArranged, topOf } from './content-steps';
import { type BrowserSession, startBrowserSession } from './harness';

/**
 * The AI searching screen as a marketer's content arranges it, in Chromium: its badge hidden,
 * the trust labels between the heading and the search, what other families say and the support
 * links below it. A visitor on a phone and on a desktop, in English and in Arabic, sees them
 * there, styled, the search still running, and axe finds nothing.
 */

let session: BrowserSession;

beforeAll(async () => {
  session = await startBrowserSession();
  await session.worker.putConfig('content', {
    screens: {
      searching_ai: {
        sections: [
          { id: 'ai_badge', visible: false },
          ...['heading', 'trust', 'search', 'testimonials', 'support'].map((id) => ({
            id,
            visible: true,
          })),
        ],
      },
    },
  });
});
afterAll(async () => {
  await session?.worker.deleteConfig('content');
  await session?.stop();
});

const openSearching = (width: number, language: string) =>
  openArranged(session, 'searching_ai', width, language);

describe('a searching screen with its sections arranged', () => {
  it.each([
    [390, 'en'],
    [320, 'ar'],
    [1280, 'en'],
    [1280, 'ar'],
  ])('at %i px in %s shows the trust labels above the search', async (width, language) => {
    const page = await openSearching(width, language);
    expect(await page.locator('.searching__badge').count()).toBe(0);
    expect(await topOf(page, '#screen-title')).toBeLessThan(await topOf(page, '.trust-labels'));
    expect(await topOf(page, '.trust-labels')).toBeLessThan(
      await topOf(page, '[data-island="SearchProgress"]'),
    );
    expect(await topOf(page, '[data-island="SearchProgress"]')).toBeLessThan(
      await topOf(page, '.signup__testimonials'),
    );
    expect(await topOf(page, '.signup__testimonials')).toBeLessThan(
      await topOf(page, '.support-links'),
    );
    // The testimonials bring their own styles: each quote on a card.
    const card = await page
      .locator('.signup__testimonial')
      .first()
      .evaluate((node) => getComputedStyle(node).borderRadius);
    expect(card).toBe('12px');
    const widths = await page.evaluate(() => [
      document.documentElement.scrollWidth,
      document.documentElement.clientWidth,
    ]);
    expect(widths[0]).toBe(widths[1]);
    expect((await runAxe(page)).violations.map((v) => v.id)).toEqual([]);
    await page.context().close();
  });
});
