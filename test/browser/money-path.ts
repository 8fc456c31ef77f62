import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { BrowserSession } from './harness';
import { PATIENCE_MS } from './patience';
import { interactive, postSignUp, signupField, submitEmail, uniqueEmail } from './visitor-steps';

/**
 * Steps of the money path shared by the Chromium checkout tests: a signed-up visitor on
 * the default flow's checkout, a card typed into the test gateway's frame, and what the embedded
 * portal stored.
 */

/**
 * A fresh visitor signed up by the signup screen's form posted without script (postSignUp), on
 * the default flow's checkout it leads to, interactive with the account taken over. `session`'s
 * newVisitor may prepare the browser first (a fake clock, a route).
 */
export async function checkoutVisitor(session: BrowserSession, label = 'payer') {
  const visitor = await session.newVisitor();
  const { context, page } = visitor;
  const next = await postSignUp(
    context,
    session.worker.url,
    '/signup?skip_split=true',
    uniqueEmail(label),
  );
  expect(next.pathname).toBe('/checkout_v3_tr');
  await page.goto(next.href);
  await interactive(page);
  const userId = (await signupField(page, 'userId')) as string;
  expect(userId).toMatch(/\S/);
  return { ...visitor, userId };
}

export const payButton = (page: Page) => page.locator('#continue-button');

/** The confirmation a checkout's successful charge opens before anything else is offered. */
export const receiptDialog = (page: Page) =>
  page.getByRole('dialog', { name: 'Payment confirmed' });

/** Waits for the checkout's receipt dialog and presses its Continue (to the upsell or success). */
export async function continueAfterReceipt(page: Page): Promise<void> {
  await receiptDialog(page)
    .getByRole('button', { name: 'Continue' })
    .click({ timeout: PATIENCE_MS });
}

/**
 * Walks the default flow from `/` to success as one visitor: a phone number, the search to its
 * end, an email sign-up, 4242 on the checkout, the upsell bought. `ready` is how long the visitor
 * stays on each screen before acting (at least until it is interactive). Resolves the signed-up
 * user id once the success screen is ready.
 */
export async function walkToSuccess(
  page: Page,
  options: { emailLabel: string; ready: (page: Page, path: string) => Promise<void> },
): Promise<string> {
  const { ready } = options;
  await page.goto('/');
  await ready(page, '/');
  await page.locator('input[type="tel"]').fill('415 555 2671');
  await page.locator('#continue-button').click();

  // Continue is enabled once the search has run to completion.
  await ready(page, '/searching');
  await page.locator('#continue-button:not([disabled])').click({ timeout: PATIENCE_MS });

  await ready(page, '/signup');
  await submitEmail(page, uniqueEmail(options.emailLabel));

  await ready(page, '/checkout_v3_tr');
  const userId = (await signupField(page, 'userId')) as string;
  expect(userId).toEqual(expect.any(String));
  await typeTestCard(page, '4242 4242 4242 4242');
  await payButton(page).click();
  await continueAfterReceipt(page);

  await ready(page, '/upsell_an_private');
  await page.getByRole('button', { name: 'Add to my plan' }).click();

  await ready(page, '/success');
  return userId;
}

/**
 * Types a card into the test gateway's frame (any future expiry, any CVC); waits for Pay (the
 * checkout's, or `pay`).
 */
export async function typeTestCard(
  page: Page,
  number: string,
  pay: Locator = payButton(page),
): Promise<void> {
  const frame = page.frameLocator('iframe.card-frame');
  await frame.getByLabel('Card number').fill(number);
  await frame.getByLabel('Expiry date').fill('12/34');
  await frame.getByLabel('CVV').fill('123');
  await expect.poll(() => pay.isEnabled(), { timeout: PATIENCE_MS }).toBe(true);
}

/** The test gateway's card that asks for 3-D Secure (Stripe's documented one). */
export const THREE_D_SECURE_CARD = '4000 0027 6000 3184';

/** Pays with the 3-D Secure card and completes the bank's challenge in its frame. */
export async function payThroughChallenge(page: Page): Promise<void> {
  await typeTestCard(page, THREE_D_SECURE_CARD);
  await payButton(page).click();
  const challenge = page.frameLocator('iframe.tgw-challenge__frame');
  await challenge.getByRole('button', { name: 'Complete authentication' }).click({
    timeout: PATIENCE_MS,
  });
}

/** The visitor's subscriptions in the portal's database, oldest first. */
export async function portalSubscriptions(session: BrowserSession, userId: string) {
  const { results } = await session.worker.portalDb
    .prepare('SELECT plan_id, status FROM subscriptions WHERE user_id = ? ORDER BY created_at')
    .bind(userId)
    .all<{ plan_id: string; status: string }>();
  return results;
}

/**
 * For a portal started with a long PORTAL_POLLING_DELAY_MS: every pending charge's result turns
 * final now, as when the product API's processing ends.
 */
export async function settleCharges(session: BrowserSession): Promise<void> {
  await session.worker.portalDb
    .prepare('UPDATE polling_results SET ready_at = ?')
    .bind(new Date().toISOString())
    .run();
}

/**
 * Back on the checkout after the move to the other provider (from 'Payment declined' or from
 * the checkout's own offer): its form opens empty with the number focused, and the card typed
 * again pays: the receipt opens. Where it leads is receipt.test.ts's.
 */
export async function payOnTheOtherProvidersForm(page: Page): Promise<void> {
  await page.waitForURL((url) => url.pathname === '/checkout_v3_tr');
  await interactive(page);
  const frame = page.frameLocator('iframe.card-frame');
  await expect
    .poll(() => frame.getByLabel('Card number').evaluate((el) => el === document.activeElement))
    .toBe(true);
  await typeTestCard(page, '4242 4242 4242 4242');
  await payButton(page).click();
  await receiptDialog(page).waitFor({ timeout: PATIENCE_MS });
}
