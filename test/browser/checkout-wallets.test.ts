import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityProblems } from './a11y-checks';
import { serveFakeStripeJs, walletAnswered } from './fake-stripe-js';
import { type BrowserSession, startBrowserSession } from './harness';
import { payButton } from './money-path';
import { PATIENCE_MS } from './patience';
import { interactive, submitEmail, uniqueEmail } from './visitor-steps';

/**
 * Apple Pay and Google Pay in Chromium, offered only once the provider says this browser can pay
 * that way (SPEC.md §2 "one-click payment"). The embedded portal names Stripe here; Stripe.js
 * is the one thing stood in (fake-stripe-js.ts), its canMakePayment answering as Stripe's does
 * in a browser with or without a wallet. Headless Chromium has neither wallet.
 */

let session: BrowserSession;
beforeAll(async () => {
  session = await startBrowserSession({
    bindings: { PORTAL_PAYMENT_GATEWAY: 'stripe', PORTAL_STRIPE_PUBLISHABLE_KEY: 'pk_test_fake' },
  });
});
afterAll(() => session?.stop());

/**
 * A visitor signed up on a one-click checkout (Apple Pay and Google Pay first), the page watched
 * from its first byte for any wallet or "not available" text it ever shows.
 */
async function oneClickCheckout(wallets: { applePay: boolean; googlePay: boolean } | null) {
  const visitor = await session.newVisitor({ viewport: { width: 390, height: 844 } });
  const { page, context } = visitor;
  await serveFakeStripeJs(context, wallets);
  await page.goto('/signup?skip_split=true');
  await interactive(page);
  await submitEmail(page, uniqueEmail('wallet'));
  await page.waitForURL((url) => url.pathname === '/checkout_v3_tr', { timeout: PATIENCE_MS });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __walletSeen: string[] }).__walletSeen = seen;
    const payTops = new Set<number>();
    (window as unknown as { __payTops: Set<number> }).__payTops = payTops;
    const look = () => {
      const text = document.querySelector('form.payment-form')?.textContent ?? '';
      const match = /Apple Pay|Google Pay|One-click|not available/.exec(text);
      if (match) seen.push(match[0]);
      const pay = document.getElementById('continue-button');
      if (pay) payTops.add(Math.round(pay.getBoundingClientRect().top + window.scrollY));
    };
    new MutationObserver(look).observe(document, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
    });
  });
  await page.goto('/checkout_v3_pp?skip_split=true');
  await interactive(page);
  await expect.poll(() => payButton(page).isEnabled(), { timeout: PATIENCE_MS }).toBe(true);
  return visitor;
}

const walletSeen = (page: Page) =>
  page.evaluate(() => (window as unknown as { __walletSeen: string[] }).__walletSeen);

describe('one-click payment in Chromium (SPEC.md §2)', () => {
  it('a browser without a wallet never sees a wallet, nor is told one is unavailable', async () => {
    const { context, page, problems } = await oneClickCheckout(null);
    // Stripe.js was asked and has answered: the page shows what it does with no wallet.
    await walletAnswered(page);
    expect(await walletSeen(page)).toEqual([]);
    expect(await page.getByRole('group', { name: 'One-click payment' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /Pay with/ }).count()).toBe(0);
    expect(await page.locator('.checkout-callout__title').textContent()).not.toMatch(/one tap/);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a browser with Apple Pay gets its button under Pay, which stays where it was', async () => {
    const { context, page, problems } = await oneClickCheckout({
      applePay: true,
      googlePay: false,
    });
    const wallet = page.getByRole('button', { name: 'Pay with Apple Pay' });
    await wallet.waitFor({ timeout: PATIENCE_MS });
    // Pay stood at one place from the server's HTML on: neither the card fields nor the wallet
    // moved it.
    expect(
      await page.evaluate(() => [...(window as unknown as { __payTops: Set<number> }).__payTops]),
    ).toHaveLength(1);
    const pay = await payButton(page).boundingBox();
    const apple = await wallet.boundingBox();
    expect(apple!.y).toBeGreaterThan(pay!.y + pay!.height);
    // The same width as Pay, in the column, as Stripe's card fields are.
    expect(apple!.width).toBe(pay!.width);
    const slots = await page
      .locator('.card-field__input')
      .evaluateAll((elements) =>
        elements.map((element) => Math.round(element.getBoundingClientRect().right)),
      );
    expect(slots).toHaveLength(3);
    for (const right of slots) expect(right).toBeLessThanOrEqual(Math.round(pay!.x + pay!.width));
    await wallet.click();
    expect(
      await page.evaluate(() => (window as unknown as { __walletSheets: number }).__walletSheets),
    ).toBe(1);
    expect(await accessibilityProblems(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
