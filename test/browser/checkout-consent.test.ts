import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pinnedToVariant } from '../fixtures/signed-cookies';
import { type BrowserSession, startBrowserSession } from './harness';
import { SCREENSHOT_DIR } from './layout-checks';
import {
  continueAfterReceipt,
  payButton,
  payThroughChallenge,
  portalSubscriptions,
  THREE_D_SECURE_CARD,
  typeTestCard,
} from './money-path';
import { PATIENCE_MS } from './patience';
import { interactive, postSignUp, signupField, uniqueEmail } from './visitor-steps';

/**
 * A charge is what the visitor agreed to, in Chromium against the built worker and the embedded
 * portal: the upsell after a Braintree checkout whose 3-D Secure failed once is bought through
 * Braintree; on a phone, the amount, the terms and Pay stay in view while the card is typed.
 * The countdown's end under a ticked renewal box (cleared, the new amount said, paid at the
 * regular price once ticked again) is test/unit/plans/checkout-payment.test.tsx's, on the
 * checkout's islands with the props the worker gives a US visitor; the old consent refused after
 * the deadline, test/worker/purchases/offer-deadline.test.ts's.
 */

let session: BrowserSession;
beforeAll(async () => {
  session = await startBrowserSession();
  // The default flow for visitors who skip the split; lp11ch8b (Braintree's checkout) for a
  // visitor pinned to it.
  await session.worker.putConfig('split', {
    version: 'consent',
    defaultVariant: 'default',
    variants: {
      default: { weight: 1, flow: 'default' },
      lp11ch8b: { weight: 1, flow: 'lp11ch8b' },
    },
  });
});
afterAll(() => session?.stop());

/**
 * Signs the visitor up with a fresh address by the form at `signup` posted without script, and
 * opens the checkout at `checkout` it leads to.
 */
async function signUpToCheckout(
  { context, page }: { context: BrowserContext; page: Page },
  signup: string,
  checkout: string,
): Promise<string> {
  const next = await postSignUp(context, session.worker.url, signup, uniqueEmail('consent'));
  expect(next.pathname).toBe(checkout);
  await page.goto(next.href);
  await interactive(page);
  return (await signupField(page, 'userId')) as string;
}

describe('the upsell after a Braintree checkout whose 3-D Secure failed', () => {
  // slow: sign-up, a failed and a passed 3-D Secure challenge, the purchase, then the upsell's charge
  it('is bought with the card on file through the provider that charged the purchase', async () => {
    const { context, page, problems } = await session.newVisitor();
    await context.addCookies(await pinnedToVariant(session.worker.url.href, 'lp11ch8b'));
    const userId = await signUpToCheckout(
      { context, page },
      '/signup',
      '/checkout_h3_pp_braintree',
    );
    await typeTestCard(page, THREE_D_SECURE_CARD);
    await payButton(page).click();
    await page
      .frameLocator('iframe.tgw-challenge__frame')
      .getByRole('button', { name: 'Fail authentication' })
      .click({ timeout: PATIENCE_MS });
    // Braintree's failed verification is the payment error beside Pay, the form usable again.
    await expect
      .poll(() => page.locator('.payment-methods__error').textContent(), { timeout: PATIENCE_MS })
      .toMatch(/could not authenticate/);

    // The same card passes the bank's check this time.
    await payThroughChallenge(page);
    await continueAfterReceipt(page);
    await page.waitForURL((url) => url.pathname === '/upsell_an_private', { timeout: PATIENCE_MS });
    await interactive(page);
    await page.getByRole('button', { name: /^Add to my plan/ }).click();
    await page.waitForURL((url) => url.pathname === '/success', {
      timeout: PATIENCE_MS,
      waitUntil: 'commit',
    });
    const bought = await portalSubscriptions(session, userId);
    expect(bought.filter((row) => row.status === 'active').map((row) => row.plan_id)).toEqual([
      'monthly_7d_intro_usd',
      'upsell_monthly_999_usd',
    ]);
    expect(
      session.worker.logs.filter((line) => line.warning === 'provider_not_offered'),
    ).toHaveLength(0);
    // The first charge's 'User action required' is the direct call's answer, not a problem.
    expect(problems.filter((problem) => !problem.startsWith('422 '))).toEqual([
      expect.stringContaining('[geofunnel] payment ProviderError'),
    ]);
    await context.close();
  });
});

/** Where the pay bar's parts and the card's frame are in the window. */
function payBarInView(page: Page) {
  return page.evaluate(() => {
    const rect = (selector: string) => document.querySelector(selector)!.getBoundingClientRect();
    const inView = (box: DOMRect) => box.top >= 0 && box.bottom <= innerHeight;
    const frame = rect('iframe.card-frame');
    const bar = rect('.pay-card__action');
    // The frame's middle is the frame, not the bar over it.
    const middle = document.elementFromPoint(frame.left + frame.width / 2, frame.top + 40);
    return {
      total: inView(rect('.pay-card__total')),
      pay: inView(rect('#continue-button')),
      terms: inView(rect('.pay-card__terms')),
      frameUncovered: middle?.matches('iframe.card-frame') ?? false,
      barTop: Math.round(bar.top),
      payY: Math.round(rect('#continue-button').top + scrollY),
    };
  });
}

describe('on a phone the amount, the terms and Pay stay in view while the card is typed', () => {
  it('at 390 px the pay bar stays at the bottom over the card; at 1280 px the pay card is beside it', async () => {
    const { context, page, problems } = await session.newVisitor({
      viewport: { width: 390, height: 844 },
    });
    await signUpToCheckout({ context, page }, '/signup?skip_split=true', '/checkout_v3_tr');
    await page.evaluate(() => scrollTo(0, 0));
    // The card is typed as a visitor does: a tap on the number, then the keyboard.
    const frame = page.frameLocator('iframe.card-frame');
    await frame.getByLabel('Card number').click();
    await page.keyboard.type('4242424242424242');
    const typing = await payBarInView(page);
    expect(typing).toMatchObject({ total: true, pay: true, terms: true, frameUncovered: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(390);
    // What the window shows while typing (reviewShot draws the whole page).
    if (process.env.SCREENSHOTS === '1') {
      await page.screenshot({ path: `${SCREENSHOT_DIR}/review/checkout-pay-bar-390.png` });
    }
    await page.keyboard.press('Tab');
    await page.keyboard.type('1234');
    await page.keyboard.press('Tab');
    await page.keyboard.type('123');
    expect(await payBarInView(page)).toMatchObject({ total: true, pay: true, terms: true });
    await expect.poll(() => payButton(page).isEnabled()).toBe(true);
    // Scrolled back until the card is low in the window, where Pay's own place is below it: the
    // bar stays at the bottom, under the card, not over it.
    await page.evaluate(() => {
      const frame = document.querySelector('iframe.card-frame')!.getBoundingClientRect();
      scrollBy(0, frame.top - (innerHeight - 400));
    });
    const low = await payBarInView(page);
    expect(low).toMatchObject({ total: true, pay: true, terms: true, frameUncovered: true });
    expect(low.barTop).toBeGreaterThan(844 - 400);
    if (process.env.SCREENSHOTS === '1') {
      await page.screenshot({ path: `${SCREENSHOT_DIR}/review/checkout-pay-bar-390-stuck.png` });
    }

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.evaluate(() => scrollTo(0, 0));
    expect(await payBarInView(page)).toMatchObject({ total: true, pay: true, terms: true });
    // The desktop's pay card is no bar: it stands in its column.
    expect(
      await page.locator('.pay-card__action').evaluate((bar) => getComputedStyle(bar).position),
    ).toBe('static');
    expect(problems).toEqual([]);
    await context.close();
  });
});
