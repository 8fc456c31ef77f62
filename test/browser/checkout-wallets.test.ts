import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityProblems } from './a11y-checks';
import { serveFakeStripeJs, walletAnswered } from './fake-stripe-js';
import { type BrowserSession, startBrowserSession } from './harness';
import { payButton } from './money-path';
import { PATIENCE_MS } from './patience';
import { interactive, postSignUp, uniqueEmail } from './visitor-steps';

/**
 * Apple Pay and Google Pay in Chromium, offered only once the provider says this browser can pay
 * that way (SPEC.md §2 "one-click payment"), where they stand and what they move. The embedded
 * portal names Stripe here; Stripe.js is the one thing stood in (fake-stripe-js.ts), its wallet
 * check answering after 800 ms, as a real one takes its time. Headless Chromium has neither
 * wallet. Each visitor signs up once and opens the combo paywall, which leads with Apple Pay
 * (SPEC.md §2 "3-day combo paywall, Apple Pay first"), and the one-click checkout, where the
 * wallet stands under Pay. Neither may move what the visitor sees: the browser's own cumulative
 * layout shift (layout-shift entries not caused by the visitor's input) stays under 0.01.
 *
 * In happy-dom (test/unit/plans/checkout-payment.test.tsx): a wallet offered only once Stripe
 * says the device has it, never one it lacks, nor "not available"; the combo paywall pressed
 * before Stripe answers opening its card form only under the wallet. The checkouts' headlines
 * promise no wallet (test/unit/plans/screens.test.tsx).
 */

let session: BrowserSession;
beforeAll(async () => {
  session = await startBrowserSession({
    bindings: { PORTAL_PAYMENT_GATEWAY: 'stripe', PORTAL_STRIPE_PUBLISHABLE_KEY: 'pk_test_fake' },
  });
});
afterAll(() => session?.stop());

const WALLET_TEXT = /Apple Pay|Google Pay|one tap|one click|one-click|not available/i;

interface Watched {
  __shift: number;
  __walletSeen: string[];
  /** Where the open card form's top has been seen. */
  __cardTops: Set<number>;
  /** Where Pay's top has been seen. */
  __payTops: Set<number>;
  __walletSheets: number;
}

/**
 * A visitor at 390 × 844 signed up by the sign-up form's post (no page loaded: the first screen
 * they open takes the account over), whose every page is watched from its first byte: the layout
 * shift the browser scores, any wallet text the page ever shows, and where the card form and Pay
 * have stood.
 */
async function signedUpVisitor(wallets: { applePay: boolean; googlePay: boolean } | null) {
  const visitor = await session.newVisitor({ viewport: { width: 390, height: 844 } });
  const { page, context } = visitor;
  await serveFakeStripeJs(context, wallets, { answerMs: 800 });
  await postSignUp(context, session.worker.url, '/signup?skip_split=true', uniqueEmail('wallet'));
  await page.addInitScript(() => {
    const watched = window as unknown as Watched;
    watched.__shift = 0;
    watched.__walletSeen = [];
    watched.__cardTops = new Set();
    watched.__payTops = new Set();
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        value: number;
        hadRecentInput: boolean;
      })[]) {
        if (!entry.hadRecentInput) watched.__shift += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
    const top = (element: Element | null) =>
      element ? Math.round(element.getBoundingClientRect().top + scrollY) : null;
    const look = () => {
      const match = /Apple Pay|Google Pay|one tap|one click|one-click|not available/i.exec(
        document.body?.innerText ?? '',
      );
      if (match) watched.__walletSeen.push(match[0]);
      const card = top(
        document.querySelector('form.payment-form:not([class*=behind-gate]) .card-form'),
      );
      if (card !== null) watched.__cardTops.add(card);
      const pay = top(document.getElementById('continue-button'));
      if (pay !== null) watched.__payTops.add(pay);
    };
    new MutationObserver(look).observe(document, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
    });
  });
  return visitor;
}

const watched = (page: Page) =>
  page.evaluate(() => {
    const { __shift, __walletSeen, __cardTops, __payTops, __walletSheets } =
      window as unknown as Watched;
    return {
      shift: __shift,
      walletSeen: __walletSeen,
      cardTops: [...__cardTops],
      payTops: [...__payTops],
      sheets: __walletSheets,
    };
  });

/**
 * The combo paywall, read while the browser's wallet check answers, then its call to action
 * pressed: resolves once Pay is usable and what the answer could move has moved.
 */
async function openComboPaywall(page: Page): Promise<void> {
  await page.goto('/paycheck_combo_3d?skip_split=true');
  await interactive(page);
  await walletAnswered(page);
  await page.getByRole('button', { name: 'Start my 3-day trial' }).click();
  await expect.poll(() => payButton(page).isEnabled(), { timeout: PATIENCE_MS }).toBe(true);
}

describe('one-click payment where the browser has Apple Pay (SPEC.md §2)', () => {
  // slow: a sign-up, then two checkouts each watched for layout shift until its wallet has drawn, each with axe
  it('leads the combo paywall, above the card, and stands under Pay on the one-click checkout; nothing moves', async () => {
    const { context, page, problems } = await signedUpVisitor({
      applePay: true,
      googlePay: false,
    });
    await openComboPaywall(page);
    const wallet = page.getByRole('button', { name: 'Pay with Apple Pay' });
    const first = {
      apple: (await wallet.boundingBox())!,
      card: (await page.locator('.card-form').boundingBox())!,
      pay: (await payButton(page).boundingBox())!,
      form: (await page.locator('form.payment-form').boundingBox())!,
    };
    expect(first.apple.y).toBe(first.form.y);
    expect(first.apple.y + first.apple.height).toBeLessThan(first.card.y);
    expect(first.card.y).toBeLessThan(first.pay.y);
    expect(first.apple.width).toBe(first.pay.width);
    // The keyboard meets it first too.
    await page.locator('form.payment-form').focus();
    await page.keyboard.press('Tab');
    expect(await wallet.evaluate((element) => element === document.activeElement)).toBe(true);
    const combo = await watched(page);
    expect(combo.shift).toBeLessThan(0.01);
    // The card form opened once, under the wallet, and never moved.
    expect(combo.cardTops).toHaveLength(1);
    await wallet.click();
    expect((await watched(page)).sheets).toBe(1);
    expect(await accessibilityProblems(page)).toEqual([]);

    // The one-click checkout: Apple Pay under Pay.
    await page.goto('/checkout_v3_pp?skip_split=true');
    await interactive(page);
    await expect.poll(() => payButton(page).isEnabled(), { timeout: PATIENCE_MS }).toBe(true);
    await wallet.waitFor({ timeout: PATIENCE_MS });
    await walletAnswered(page);
    // Pay stood at one place from the server's HTML on: neither the card fields nor the wallet
    // moved it.
    const checkout = await watched(page);
    expect(checkout.payTops).toHaveLength(1);
    const pay = (await payButton(page).boundingBox())!;
    const apple = (await wallet.boundingBox())!;
    expect(apple.y).toBeGreaterThan(pay.y + pay.height);
    // The same width as Pay, in the column, as Stripe's card fields are.
    expect(apple.width).toBe(pay.width);
    const slots = await page
      .locator('.card-field__input')
      .evaluateAll((elements) =>
        elements.map((element) => Math.round(element.getBoundingClientRect().right)),
      );
    expect(slots).toHaveLength(3);
    for (const right of slots) expect(right).toBeLessThanOrEqual(Math.round(pay.x + pay.width));
    await wallet.click();
    expect((await watched(page)).sheets).toBe(1);
    expect(await accessibilityProblems(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('the combo paywall where the browser has no wallet (SPEC.md §2)', () => {
  // slow: the paywall watched until Stripe's wallet check has answered, then axe
  it('shows the card form alone: no room kept, no wallet named, nothing moves', async () => {
    const { context, page, problems } = await signedUpVisitor(null);
    await openComboPaywall(page);
    const form = (await page.locator('form.payment-form').boundingBox())!;
    const card = (await page.locator('.card-form').boundingBox())!;
    expect(card.y).toBe(form.y);
    expect(await page.getByRole('group', { name: 'One-click payment' }).count()).toBe(0);
    const { shift, walletSeen } = await watched(page);
    expect(walletSeen).toEqual([]);
    expect(await page.locator('body').innerText()).not.toMatch(WALLET_TEXT);
    expect(shift).toBeLessThan(0.01);
    expect(await accessibilityProblems(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
