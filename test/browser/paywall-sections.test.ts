import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAxe } from './a11y-checks';
import { openArranged, topOf } from './content-steps';
import { type BrowserSession, startBrowserSession } from './harness';
import { reviewShot } from './layout-checks';

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

const openCheckout = (width: number, language: string) =>
  openArranged(session, 'checkout_v3_tr', width, language);

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
      const testimonials = await topOf(page, '.signup__testimonials');
      expect(testimonials).toBeLessThan(await topOf(page, '.plan-guarantee'));
      expect(await topOf(page, '.plan-guarantee')).toBeLessThan(
        await topOf(page, '[data-island="PlanChoice"]'),
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
      await reviewShot(page, `checkout-sections-${width}-${language}`);
      await page.context().close();
    },
  );
});
