import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAxe } from './a11y-checks';
import { arrangedLooks, openArranged, topOf } from './content-steps';
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

// One page per language, opened at a phone's width and then widened to a desktop's: the same
// checks at each width, the layout drawn again by the resize as by a load at that width.
describe('a searching screen with its sections arranged', () => {
  it.each([
    ['en', [390, 1280]],
    ['ar', [320, 1280]],
  ])('in %s at %j px shows the trust labels above the search', async (language, widths) => {
    const page = await openSearching(widths[0]!, language);
    for (const width of widths) {
      await page.setViewportSize({ width, height: 900 });
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
      // The testimonials bring their own styles: each quote on a card; nothing wider than the
      // window.
      expect(await arrangedLooks(page)).toEqual({ card: '12px', sideways: 0 });
      expect((await runAxe(page)).violations.map((v) => v.id)).toEqual([]);
    }
    await page.context().close();
  });
});
