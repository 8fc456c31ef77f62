import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAxe } from './a11y-checks';
import { type BrowserSession, startBrowserSession } from './harness';
import { islandsHydrated } from './visitor-steps';

/**
 * A checkout as a marketer's content arranges it, in Chromium: what other families say and the
 * guarantee above the plans, the countdown hidden. A visitor on a phone and on a desktop, in
 * English and in Arabic, sees them there, styled as on the signup screen, the plans and the
 * payment form still working, and axe finds nothing.
 */

let session: BrowserSession;

const SECTIONS = [
  'heading',
  'testimonials',
  'guarantee',
  'callout',
  'plans',
  'payment',
  'trust',
  'providers',
  'support',
];

beforeAll(async () => {
  session = await startBrowserSession();
  await session.worker.putConfig('content', {
    screens: {
      checkout_v3_tr: {
        sections: [
          { id: 'countdown', visible: false },
          ...SECTIONS.map((id) => ({ id, visible: true })),
        ],
      },
    },
  });
});
afterAll(async () => {
  await session?.worker.deleteConfig('content');
  await session?.stop();
});

async function openCheckout(width: number, language: string): Promise<Page> {
  const { page, problems } = await session.newVisitor({
    viewport: { width, height: 900 },
    locale: language,
  });
  await page.goto(
    new URL(`/checkout_v3_tr?skip_split=true&custom_lng=${language}`, session.worker.url).href,
  );
  await islandsHydrated(page);
  expect(problems).toEqual([]);
  return page;
}

const top = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((node) => node.getBoundingClientRect().top);

describe('a checkout with its sections arranged', () => {
  it.each([
    [390, 'en'],
    [320, 'ar'],
    [1280, 'en'],
    [1280, 'ar'],
  ])(
    'at %i px in %s shows the testimonials and guarantee above the plans',
    async (width, language) => {
      const page = await openCheckout(width, language);
      expect(await page.locator('.offer-banner').count()).toBe(0);
      const testimonials = await top(page, '.signup__testimonials');
      expect(testimonials).toBeLessThan(await top(page, '.plan-guarantee'));
      expect(await top(page, '.plan-guarantee')).toBeLessThan(
        await top(page, '[data-island="PlanChoice"]'),
      );
      // Each quote on a card of its own, as the signup screen draws them.
      const card = await page
        .locator('.signup__testimonial')
        .first()
        .evaluate((node) => getComputedStyle(node).borderRadius);
      expect(card).toBe('12px');
      expect(await page.locator('.signup__testimonial').count()).toBe(3);
      // The plans still choose: the second plan picked by a tap.
      const options = page.locator('[data-island="PlanChoice"] [role="radio"]');
      await options.nth(1).click();
      expect(await options.nth(1).getAttribute('aria-checked')).toBe('true');
      const widths = await page.evaluate(() => [
        document.documentElement.scrollWidth,
        document.documentElement.clientWidth,
      ]);
      expect(widths[0]).toBe(widths[1]);
      expect((await runAxe(page)).violations.map((v) => v.id)).toEqual([]);
      await page.screenshot({
        path: `/tmp/h51/checkout-sections-${width}-${language}.png`,
        fullPage: true,
      });
      await page.context().close();
    },
  );
});
