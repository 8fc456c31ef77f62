import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityProblems } from './a11y-checks';
import { serveFakeStripeJs, walletAnswered } from './fake-stripe-js';
import { type BrowserSession, startBrowserSession } from './harness';
import { payButton } from './money-path';
import { PATIENCE_MS } from './patience';
import { interactive, submitEmail, uniqueEmail } from './visitor-steps';

/**
 * The combo paywall leads with Apple Pay (SPEC.md §2 "3-day combo paywall, Apple Pay first"):
 * where Stripe says the browser has it, its button is the first way to pay, above the card;
 * where it does not, the card form is all there is, with no room kept and no word of a wallet.
 * Neither may move what the visitor sees: the browser's own cumulative layout shift (layout-shift
 * entries not caused by the visitor's input) stays under 0.01. Stripe.js is stood in
 * (fake-stripe-js.ts), its wallet check answering after 800 ms, as a real one takes its time.
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
  /** Where the card form's top has been seen since the form opened. */
  __cardTops: Set<number>;
}

/**
 * A signed-up visitor on the combo paywall at 390 × 844, who reads it for two seconds and opens
 * its payment form, watched from the first byte: the layout shift the browser scores, and any
 * wallet text the page ever shows.
 */
async function comboPaywall(
  wallets: { applePay: boolean; googlePay: boolean } | null,
  { pressedBeforeAnswer = false } = {},
) {
  const visitor = await session.newVisitor({ viewport: { width: 390, height: 844 } });
  const { page, context } = visitor;
  await serveFakeStripeJs(context, wallets, { answerMs: 800 });
  await page.goto('/signup?skip_split=true');
  await interactive(page);
  await submitEmail(page, uniqueEmail('walletfirst'));
  await page.waitForURL((url) => url.pathname === '/checkout_v3_tr', { timeout: PATIENCE_MS });
  await page.addInitScript(() => {
    const watched = window as unknown as Watched;
    watched.__shift = 0;
    watched.__walletSeen = [];
    watched.__cardTops = new Set();
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        value: number;
        hadRecentInput: boolean;
      })[]) {
        if (!entry.hadRecentInput) watched.__shift += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
    const look = () => {
      const match = /Apple Pay|Google Pay|one tap|one click|one-click|not available/i.exec(
        document.body?.innerText ?? '',
      );
      if (match) watched.__walletSeen.push(match[0]);
      const card = document.querySelector('form.payment-form:not([class*=behind-gate]) .card-form');
      if (card) watched.__cardTops.add(Math.round(card.getBoundingClientRect().top + scrollY));
    };
    new MutationObserver(look).observe(document, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
    });
  });
  await page.goto('/paycheck_combo_3d?skip_split=true');
  await interactive(page);
  // The visitor reads while the browser's wallet check answers, or presses at once.
  if (!pressedBeforeAnswer) await walletAnswered(page);
  await page.getByRole('button', { name: 'Start my 3-day trial' }).click();
  await expect.poll(() => payButton(page).isEnabled(), { timeout: PATIENCE_MS }).toBe(true);
  // What the answer could move has moved.
  await walletAnswered(page);
  const watched = () =>
    page.evaluate(() => {
      const { __shift, __walletSeen, __cardTops } = window as unknown as Watched;
      return { shift: __shift, walletSeen: __walletSeen, cardTops: [...__cardTops] };
    });
  return { ...visitor, watched };
}

describe('the combo paywall leads with Apple Pay where the browser has it (SPEC.md §2)', () => {
  // slow: a paywall opened and watched for layout shift until its wallet has drawn, then axe and a keyboard walk
  it('with Apple Pay: its button comes first, above the card, and nothing moves', async () => {
    const { context, page, problems, watched } = await comboPaywall({
      applePay: true,
      googlePay: false,
    });
    const wallet = page.getByRole('button', { name: 'Pay with Apple Pay' });
    const apple = (await wallet.boundingBox())!;
    const card = (await page.locator('.card-form').boundingBox())!;
    const pay = (await payButton(page).boundingBox())!;
    const form = (await page.locator('form.payment-form').boundingBox())!;
    expect(apple.y).toBe(form.y);
    expect(apple.y + apple.height).toBeLessThan(card.y);
    expect(card.y).toBeLessThan(pay.y);
    expect(apple.width).toBe(pay.width);
    // The keyboard meets it first too.
    await page.locator('form.payment-form').focus();
    await page.keyboard.press('Tab');
    expect(await wallet.evaluate((element) => element === document.activeElement)).toBe(true);
    const { shift } = await watched();
    expect(shift).toBeLessThan(0.01);
    await wallet.click();
    expect(
      await page.evaluate(() => (window as unknown as { __walletSheets: number }).__walletSheets),
    ).toBe(1);
    expect(await accessibilityProblems(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('pressed before Stripe has answered, the form waits for it and still leads with Apple Pay', async () => {
    const { context, page, problems, watched } = await comboPaywall(
      { applePay: true, googlePay: false },
      { pressedBeforeAnswer: true },
    );
    const apple = (await page.getByRole('button', { name: 'Pay with Apple Pay' }).boundingBox())!;
    const card = (await page.locator('.card-form').boundingBox())!;
    expect(apple.y + apple.height).toBeLessThan(card.y);
    // The card form was never shown where the wallet's arrival would then push it from.
    expect((await watched()).cardTops).toHaveLength(1);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('without a wallet: the card form alone, no room kept, no wallet named, nothing moves', async () => {
    const { context, page, problems, watched } = await comboPaywall(null);
    const form = (await page.locator('form.payment-form').boundingBox())!;
    const card = (await page.locator('.card-form').boundingBox())!;
    expect(card.y).toBe(form.y);
    expect(await page.getByRole('group', { name: 'One-click payment' }).count()).toBe(0);
    const { shift, walletSeen } = await watched();
    expect(walletSeen).toEqual([]);
    expect(await page.locator('body').innerText()).not.toMatch(WALLET_TEXT);
    expect(shift).toBeLessThan(0.01);
    expect(await accessibilityProblems(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
