import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, startBrowserSession } from './harness';
import { reviewShot } from './layout-checks';
import { islandsHydrated } from './visitor-steps';

let session: BrowserSession;
beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(() => session?.stop());

/**
 * What the plans screens show only in a real browser: Chromium's own Intl and the sign's place in
 * a right-to-left line, and the picker's sizes. Each screen's prices in the visitor's currency
 * are its HTML's (test/unit/plans/screens.test.tsx, plan-picker.test.tsx; the worker's choice of
 * currency by country and a UK charge in pounds: test/worker/purchases/offer.test.ts); the
 * picker's clicks, keys and remembered choice, and the countdown, are the islands' in happy-dom
 * (test/unit/plans/plan-picker.test.tsx, plan-choice.test.tsx, offer-countdown.test.tsx; the
 * deadline the server fixes: test/worker/purchases/offer-deadline.test.ts); where Skip and Try
 * again lead and the images fetched ahead, workerd's (test/worker/next-screen-html.test.ts,
 * test/unit/plans/try-again.test.tsx).
 */
describe('plans in Chromium', () => {
  it('an Arabic visitor sees the price as Intl formats it, never "$US"', async () => {
    const { context, page, problems } = await session.newVisitor();
    await context.setExtraHTTPHeaders({ 'CF-IPCountry': 'US', 'Accept-Language': 'ar' });
    await page.goto('/checkout_v3_tr');
    await islandsHydrated(page);
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    // Chromium's own Intl, for the page's language: what the visitor's browser would write.
    const intl = await page.evaluate(() =>
      new Intl.NumberFormat(document.documentElement.lang, {
        style: 'currency',
        currency: 'USD',
      }).format(6.99),
    );
    const total = (await page.locator('.order-summary__row--total dd').textContent()) ?? '';
    expect(total.replace(/[\u2068\u2069]/g, '')).toBe(intl);
    // The sign sits in an isolate, so the "$" stays after "US" in a right-to-left line.
    expect(total).toContain('\u2068US$\u2069');
    // The picker's big price: the sign to the left of the digits, as the isolated text shows it.
    const item = page.locator('.plan-picker [role="radio"]').first();
    const sign = item.locator('.plan-picker__sign');
    expect(await sign.textContent()).toBe('US$');
    const signBox = await sign.boundingBox();
    const wholeBox = await item.locator('.plan-picker__whole').boundingBox();
    expect(signBox && wholeBox && signBox.x < wholeBox.x).toBe(true);
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await reviewShot(page, `i57-currency-ar-${width}`);
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  it('lays plan items out 82px high with an 18px label bar, and Continue 56px high', async () => {
    const { context, page } = await session.newVisitor();
    await page.setViewportSize({ width: 350, height: 800 });
    await page.goto('/checkout_v3_tr');
    await islandsHydrated(page);
    const sizes = await page.evaluate(() =>
      [...document.querySelectorAll('.plan-picker__item')].map((item) => ({
        item: item.getBoundingClientRect().height,
        label: item.querySelector('.plan-picker__label')?.getBoundingClientRect().height ?? 0,
      })),
    );
    expect(sizes).toEqual([
      { item: 100, label: 18 },
      { item: 82, label: 0 },
      { item: 100, label: 18 },
    ]);
    const button = await page.locator('#continue-button').boundingBox();
    expect(button?.height).toBe(56);
    const width = await page.evaluate(() => document.querySelector('.plan-picker')!.clientWidth);
    expect(width).toBeLessThanOrEqual(343);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(350);
    await context.close();
  });
});
