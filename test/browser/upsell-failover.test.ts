import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { switchFaultOn, switchFaultOnUntil } from '../../portal/faults';
import { runAxe, seriousViolations } from './a11y-checks';
import { type BrowserSession, startBrowserSession } from './harness';
import { reviewShot } from './layout-checks';
import {
  checkoutVisitor,
  continueAfterReceipt,
  payButton,
  portalSubscriptions,
  typeTestCard,
} from './money-path';
import { PATIENCE_MS } from './patience';
import { interactive } from './visitor-steps';

/**
 * docs/payments.md "A visitor already paying when the provider fails", for an upsell, in
 * Chromium: the visitor bought their plan on Stripe (played by the test gateway), whose card on
 * file then cannot be charged for the upsell while Stripe fails. The page says nothing was
 * charged and offers the other provider's form, announced and focused; there the upsell's page
 * asks for the card again, names it in its charge line, and the card typed pays the upsell once.
 * A file of its own: the checkout's failover leaves Stripe counted failing for a minute.
 */

let session: BrowserSession;
beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(async () => {
  await switchFaultOn(session.worker.portalDb, 'charge-stripe', 0);
  await session?.stop();
});

describe('an upsell whose provider fails as it is bought', () => {
  // slow: a purchase, then an upsell whose provider fails mid-payment, then the other's form
  it("offers an upsell's buyer the other provider's form when the card on file cannot be charged", async () => {
    const { context, page, userId } = await checkoutVisitor(session, 'upsell-failover');
    await typeTestCard(page, '4242 4242 4242 4242');
    await payButton(page).click();
    await continueAfterReceipt(page);
    await page.waitForURL((url) => url.pathname === '/upsell_an_private', { timeout: PATIENCE_MS });
    await interactive(page);
    await switchFaultOnUntil(
      session.worker.portalDb,
      'charge-stripe',
      Date.now() + 10 * 60_000,
      'before',
    );
    await page.getByRole('button', { name: /^Add to my plan for / }).click();

    const offer = page.getByRole('button', { name: 'Pay with another payment form' });
    await offer.waitFor({ timeout: PATIENCE_MS });
    expect(await page.locator('.payment-methods__error').textContent()).toBe(
      'Card payments through this form are not working right now, and nothing was charged. You can pay with another payment form: type your card again.',
    );
    await expect
      .poll(() => offer.evaluate((button) => button === document.activeElement))
      .toBe(true);
    await reviewShot(page, 'upsell-other-provider-offered');
    await page.keyboard.press('Enter');

    // The same offer on the other provider's form: the card asked for again, named so.
    await page.waitForURL((url) => url.searchParams.get('card') === 'again', {
      timeout: PATIENCE_MS,
    });
    await interactive(page);
    // The card number takes the focus, as the checkout's does after its move.
    const number = page.frameLocator('iframe.card-frame').getByLabel('Card number');
    await expect
      .poll(() => number.evaluate((field) => field === document.activeElement))
      .toBe(true);
    expect(await page.locator('.upsell-charge').textContent()).toMatch(
      /is charged now to the card you type in/,
    );
    const buy = page.getByRole('button', { name: /^Add to my plan for / });
    await typeTestCard(page, '5555 5555 5555 4444', buy);
    await page.setViewportSize({ width: 390, height: 844 });
    await reviewShot(page, 'upsell-card-again-phone');
    expect(seriousViolations(await runAxe(page))).toEqual([]);
    await buy.click();
    await page.waitForURL((url) => url.pathname === '/success', {
      timeout: PATIENCE_MS,
      waitUntil: 'commit',
    });
    // The skip and the next screen carry the visitor's query on, not the card asked again.
    expect(new URL(page.url()).searchParams.has('card')).toBe(false);

    const active = (await portalSubscriptions(session, userId)).filter(
      (row) => row.status === 'active',
    );
    expect(active.map((row) => row.plan_id).sort()).toEqual([
      'monthly_7d_intro_usd',
      'upsell_monthly_999_usd',
    ]);
    await context.close();
  });
});
