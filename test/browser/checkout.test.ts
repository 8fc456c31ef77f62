import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARD_FIELDS_DEADLINE_MS } from '../../islands/payments/card-fields-deadline';
import { switchFaultOn } from '../../portal/faults';
import { type BrowserSession, startBrowserSession } from './harness';
import {
  checkoutVisitor,
  payButton,
  payOnTheOtherProvidersForm,
  portalSubscriptions,
  receiptDialog,
  THREE_D_SECURE_CARD,
  typeTestCard,
} from './money-path';
import { PATIENCE_MS } from './patience';
import { interactive } from './visitor-steps';

/**
 * The money path's turns as a visitor walks them in Chromium: the built worker, the embedded
 * portal on D1 and its test gateway (payment settings 'test'), cards typed into the gateway's
 * iframe. What the portal stored is read from its database. A purchase walked from sign-up to
 * success (what Pay names and where its terms stand, the receipt, the upsell, the QR code) is
 * receipt.test.ts's; each declining card's advice is drawn by the worker
 * (test/worker/render/declined-by-card.test.ts), and what the declined page's actions do is
 * test/unit/payments/declined-actions.test.tsx's.
 */

let session: BrowserSession;
beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(() => session?.stop());

const active = async (userId: string) =>
  (await portalSubscriptions(session, userId)).filter((row) => row.status === 'active');

/** The labels of the actions 'Payment declined' offers, in order. */
const declinedActions = (page: Page) =>
  page.locator('.screen.declined button[type="submit"]').allTextContents();

describe('paying at the checkout through the test gateway (SPEC.md §4 Payment)', () => {
  // slow: sign-up and a checkout in Chromium, a declined charge, the declined page, then the
  // other provider's form loaded and typed into for the second charge
  it("…0002 is declined (do not honour): the bank's advice, then paid once on the other provider's form, its number focused", async () => {
    const { context, page, userId } = await checkoutVisitor(session);
    const charges: string[] = [];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (request.method() === 'POST' && pathname.startsWith('/api/users/me/subscriptions/')) {
        charges.push(pathname.includes('/polling/') ? 'card provider' : 'alternate provider');
      }
    });
    await typeTestCard(page, '4000 0000 0000 0002');
    await payButton(page).click();
    await page.waitForURL((url) => url.pathname === '/payment_declined', { timeout: PATIENCE_MS });
    await interactive(page);
    expect(new URL(page.url()).searchParams.get('skip_split'), 'the query goes along').toBe('true');
    expect(await page.locator('h1').textContent()).toBe('Payment declined');
    // generic_decline: Stripe's advice is the bank's to give (do not honour).
    expect(await page.locator('.declined__hint').allTextContents()).toEqual([
      'Your bank gave no reason. Contact it, or use another card.',
    ]);
    // Do not honour may pass on the other provider: the worker offers its form first, once.
    expect(await declinedActions(page)).toEqual([
      'Pay with another payment form',
      'Use another card',
      'Try again',
    ]);
    expect(await active(userId), 'nothing charged by the decline').toEqual([]);

    await page.getByRole('button', { name: 'Pay with another payment form' }).click();
    await payOnTheOtherProvidersForm(page);
    expect(charges).toEqual(['card provider', 'alternate provider']);
    expect(await active(userId)).toHaveLength(1);
    await context.close();
  });

  // slow: two 3-D Secure challenges in Chromium after sign-up, the first's script held back
  it('…3184 asks for 3-D Secure: a failed challenge, pressed while its script loads, is said beside Pay and charges nothing; the next one pays', async () => {
    const { context, page, userId } = await checkoutVisitor(session);
    // The bank page's script held back, as on a slow network or a busy phone.
    const challengeScript = /\/test-gateway-challenge-[^/]*\.js$/;
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(challengeScript, async (route) => {
      await held;
      await route.continue();
    });
    await typeTestCard(page, THREE_D_SECURE_CARD);
    await payButton(page).click();
    const challenge = page.frameLocator('iframe.tgw-challenge__frame');
    const fail = challenge.getByRole('button', { name: 'Fail authentication' });
    await fail.waitFor({ timeout: PATIENCE_MS });
    expect(await fail.isDisabled(), 'the challenge takes no press before its script').toBe(true);
    release();
    // The click waits until the button can answer, and the answer arrives.
    await fail.click({ timeout: PATIENCE_MS });
    await page.unroute(challengeScript);

    // Said once, beside Pay: no toast repeats it (its staying past a toast's 3 s is
    // test/unit/plans/checkout-payment.test.tsx's).
    const beside = page.locator('.payment-methods__error');
    await expect.poll(() => beside.textContent(), { timeout: PATIENCE_MS }).toMatch(/authenticat/i);
    expect(await page.locator('.toast__message').count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/checkout_v3_tr');
    await expect.poll(() => payButton(page).isEnabled(), { timeout: PATIENCE_MS }).toBe(true);
    expect(await active(userId), 'nothing charged by the failed challenge').toEqual([]);
    // It stands beside Pay, announced and describing it (SPEC.md §3 paymentError)...
    expect(await beside.getAttribute('role')).toBe('alert');
    expect((await payButton(page).getAttribute('aria-describedby'))?.split(' ')).toContain(
      await beside.getAttribute('id'),
    );
    // ...until the visitor changes the card in the gateway's frame.
    await page.frameLocator('iframe.card-frame').getByLabel('CVV').fill('456');
    await expect.poll(() => beside.textContent()).toBe('');
    expect(await payButton(page).getAttribute('aria-describedby')).not.toContain('payment-error');

    // The form works again: the same card, a new challenge, completed, pays.
    await expect.poll(() => payButton(page).isEnabled(), { timeout: PATIENCE_MS }).toBe(true);
    await payButton(page).click();
    await challenge
      .getByRole('button', { name: 'Complete authentication' })
      .click({ timeout: PATIENCE_MS });
    await receiptDialog(page).waitFor({ timeout: PATIENCE_MS });
    expect(await active(userId)).toHaveLength(1);
    await context.close();
  });
});

describe("a card provider's script that never comes (docs/payments.md, A failing provider routed around)", () => {
  it('the card form says it could not load, and the worker counts it against that provider', async () => {
    // The test gateway plays Stripe for this visitor (the worker pins the test gateway's
    // checkouts to Stripe's polling route); its next card frame comes without its script.
    await switchFaultOn(session.worker.portalDb, 'script-stripe', 1);
    const { context, page } = await checkoutVisitor({
      ...session,
      async newVisitor(options) {
        const visitor = await session.newVisitor(options);
        await visitor.context.clock.install();
        return visitor;
      },
    });
    // The frame is in the page, so its deadline runs: the page's clock jumps past it.
    await page.locator('iframe.card-frame').waitFor({ state: 'attached' });
    const report = page.waitForResponse((response) =>
      response.url().endsWith('/api/payment-provider/unavailable'),
    );
    await page.clock.fastForward(CARD_FIELDS_DEADLINE_MS + 1_000);
    expect((await report).status()).toBe(202);
    const notice = page.locator('.card-form__notice');
    await expect
      .poll(() => notice.textContent())
      .toBe('The card form could not load. Check your connection and reload the page.');
    expect(await page.locator('iframe.card-frame').count()).toBe(0);
    // Counted toward Stripe's health: the line the worker writes once its object took it.
    await expect
      .poll(() => session.worker.logs.filter((line) => line.event === 'provider_script_failed'))
      .toEqual([expect.objectContaining({ provider: 'stripe' })]);
    await context.close();
  });
});
