import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordFailedRenewal } from '../../portal/pay-due';
import { findSubscription } from '../../portal/store/subscriptions';
import { addUtcMonths } from '../../shared/plans/renewal';
import { DEVELOPMENT_SUBSCRIBER_LINK_KEY } from '../../worker/subscriber-links/link-key';
import { signSubscriberLink } from '../../worker/subscriber-links/link-token';
import { runAxe, seriousViolations } from './a11y-checks';
import { type BrowserSession, startBrowserSession } from './harness';
import { reviewShot } from './layout-checks';
import { checkoutVisitor, payButton, receiptDialog, typeTestCard } from './money-path';
import { PATIENCE_MS } from './patience';
import { interactive } from './visitor-steps';

/**
 * Recovery that keeps the money (docs/payments.md, "Pay what is due", "Update the card"), as a
 * subscriber meets it in Chromium: a failed renewal paid through the recovery link renews on the
 * card that paid, on a date that starts at the payment, which the manage link's page then shows;
 * the card updated there; the money-back claim. And on a manage link while something is due: the
 * card updated, then paid at once with it ("Pay $39.99 now with this card").
 */

let session: BrowserSession;
beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(async () => {
  await session?.stop();
});

/** Intl writes a no-break space between amount and a trailing symbol; read it as a space. */
const plain = (text: string | null) => (text ?? '').replace(/[\u00a0\u202f]/g, ' ').trim();

/** Every row of the page's lists within `scope`, as label → value. */
async function rowsIn(page: Page, scope: string): Promise<Record<string, string>> {
  const entries: [string, string][] = [];
  for (const row of await page.locator(`${scope} .receipt__row`).all()) {
    entries.push([
      plain(await row.locator('dt').textContent()),
      plain(await row.locator('dd').textContent()),
    ]);
  }
  return Object.fromEntries(entries);
}

const focusedOn = (locator: Locator) =>
  locator.evaluate((element) => element === document.activeElement);

/** A visitor who bought the 7-day trial with 4242, whose first renewal then failed. */
async function failedRenewal(label: string) {
  const visitor = await checkoutVisitor(session, label);
  await typeTestCard(visitor.page, '4242 4242 4242 4242');
  await payButton(visitor.page).click();
  await receiptDialog(visitor.page).waitFor({ timeout: PATIENCE_MS });
  const db = session.worker.portalDb;
  const row = await db
    .prepare('SELECT id FROM subscriptions WHERE user_id = ?')
    .bind(visitor.userId)
    .first<{ id: string }>();
  const subscription = await findSubscription(db, row?.id ?? '');
  if (subscription === null) throw new Error('no subscription in the portal');
  // As `npm run portal -- renewal-failed` makes it; the product API's email has the link.
  await recordFailedRenewal(db, subscription, new Date());
  const link = (purpose: 'recover' | 'manage') =>
    signSubscriberLink(DEVELOPMENT_SUBSCRIBER_LINK_KEY, purpose, subscription.id, Date.now());
  return { ...visitor, subscriptionId: subscription.id, link };
}

/** The next renewal a due paid at the portal's `paid_at` moves to, as the page writes it. */
async function renewsAfterPayment(subscriptionId: string): Promise<string> {
  const due = await session.worker.portalDb
    .prepare('SELECT paid_at FROM renewal_dues WHERE subscription_id = ?')
    .bind(subscriptionId)
    .first<{ paid_at: string | null }>();
  expect(due?.paid_at).toBeTruthy();
  const at = addUtcMonths(Date.parse(due?.paid_at ?? ''), 1);
  return new Intl.DateTimeFormat('en', { dateStyle: 'long' }).format(new Date(at));
}

/**
 * Types a test card into the card fields inside `scope` (a manage page with something due has two
 * card forms: Pay what is due, and Update card's), until `button` can be pressed.
 */
async function typeCardIn(scope: Locator, number: string, button: Locator) {
  const frame = scope.frameLocator('iframe.card-frame');
  await frame.getByLabel('Card number').fill(number);
  await frame.getByLabel('Expiry date').fill('12/34');
  await frame.getByLabel('CVV').fill('123');
  await expect.poll(() => button.isEnabled(), { timeout: PATIENCE_MS }).toBe(true);
}

/** Opens the card form of Update card, types `number`, and saves it (no challenge). */
async function updateCard(page: Page, number: string) {
  await page.getByRole('button', { name: 'Update card' }).click();
  const title = page.getByRole('heading', { name: 'Update your card' });
  await title.waitFor();
  expect(await focusedOn(title)).toBe(true);
  const save = page.getByRole('button', { name: 'Save card' });
  await typeCardIn(page.locator('.card-update'), number, save);
  await save.click();
  const done = page.getByRole('status').filter({ hasText: 'Card updated' });
  await done.waitFor({ timeout: PATIENCE_MS });
  expect(await focusedOn(done)).toBe(true);
}

describe('a subscriber recovers a failed renewal', () => {
  it('pays it through the recovery link, renews on that card from the payment, updates the card, gets a refund', async () => {
    const { context, problems, subscriptionId, link } = await failedRenewal('recovery');
    const recover = await context.newPage();
    await recover.setViewportSize({ width: 390, height: 844 });
    await recover.goto(`/subscription/${(await link('recover')).token}`);
    await interactive(recover);
    expect(await rowsIn(recover, '.pay-due')).toEqual({
      'Paid with': 'Visa •••• 4242',
      'Amount due': '$39.99',
    });
    const pay = recover.getByRole('button', { name: 'Pay $39.99' });
    await reviewShot(recover, 'recovery-phone-due');
    await typeTestCard(recover, '5555 5555 5555 4444', pay);
    await pay.click();
    const paid = recover.getByRole('heading', { name: 'Paid: your subscription goes on' });
    await paid.waitFor({ timeout: PATIENCE_MS });
    expect(await focusedOn(paid)).toBe(true);
    const renews = await renewsAfterPayment(subscriptionId);
    expect(await rowsIn(recover, '.pay-due--paid')).toEqual({
      Paid: '$39.99',
      'Paid with': 'Mastercard •••• 4444',
      'Next renewal': `${renews}, $39.99`,
    });
    // The card that failed is named nowhere any more: the renewals use the one that paid.
    expect(await recover.getByText('Visa •••• 4242').count()).toBe(0);
    await reviewShot(recover, 'recovery-phone-paid');
    expect(seriousViolations(await runAxe(recover))).toEqual([]);

    // The manage link: renewing on the card that paid, on the date the payment started.
    const manage = recover;
    await manage.setViewportSize({ width: 1280, height: 900 });
    await manage.goto(`/subscription/${(await link('manage')).token}`);
    await interactive(manage);
    expect(await rowsIn(manage, '.subscriber')).toMatchObject({
      'Next renewal': `${renews}, $39.99`,
      'Paid with': 'Mastercard •••• 4444',
    });
    expect(await manage.locator('.pay-due').count()).toBe(0);
    await updateCard(manage, '4242 4242 4242 4242');
    expect((await rowsIn(manage, '.card-update'))['Paid with']).toBe('Visa •••• 4242');
    // Nothing was due: nothing offered to pay.
    expect(await manage.getByRole('button', { name: /now with this card/ }).count()).toBe(0);
    await reviewShot(manage, 'recovery-desktop-card-updated');
    expect(seriousViolations(await runAxe(manage))).toEqual([]);

    // The money-back guarantee, after its one confirm: the whole first payment back, the
    // subscription ended.
    await manage.getByRole('button', { name: 'Get my money back' }).click();
    await manage.getByRole('heading', { name: 'Get your money back?' }).waitFor();
    await manage.getByRole('button', { name: 'Yes, refund me and end my subscription' }).click();
    await manage
      .getByRole('heading', { name: 'Your money is on its way back' })
      .waitFor({ timeout: PATIENCE_MS });
    expect(plain(await manage.locator('.lead').textContent())).toContain('$6.99');
    const refunded = await session.worker.portalDb
      .prepare('SELECT refunded_at FROM subscriptions WHERE id = ?')
      .bind(subscriptionId)
      .first<{ refunded_at: string | null }>();
    expect(refunded?.refunded_at).toBeTruthy();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('on the manage link while something is due: the card updated, then the due paid at once with it', async () => {
    const { context, problems, subscriptionId, link } = await failedRenewal('manage-due');
    const manage = await context.newPage();
    await manage.setViewportSize({ width: 390, height: 844 });
    await manage.goto(`/subscription/${(await link('manage')).token}`);
    await interactive(manage);
    expect((await rowsIn(manage, '.pay-due'))['Amount due']).toBe('$39.99');
    await reviewShot(manage, 'manage-due-phone-before');
    expect(seriousViolations(await runAxe(manage))).toEqual([]);

    await updateCard(manage, '5555 5555 5555 4444');
    await manage.getByText('Your last renewal is still due.').waitFor();
    const payNow = manage.getByRole('button', { name: 'Pay $39.99 now with this card' });
    await reviewShot(manage, 'manage-due-phone-offer');
    expect(seriousViolations(await runAxe(manage))).toEqual([]);
    await payNow.focus();
    await manage.keyboard.press('Enter');
    const paid = manage.getByRole('heading', { name: 'Paid: your subscription goes on' });
    await paid.waitFor({ timeout: PATIENCE_MS });
    expect(await focusedOn(paid)).toBe(true);
    const renews = await renewsAfterPayment(subscriptionId);
    expect(await rowsIn(manage, '.pay-due--paid')).toEqual({
      Paid: '$39.99',
      'Paid with': 'Mastercard •••• 4444',
      'Next renewal': `${renews}, $39.99`,
    });
    expect(await payNow.count()).toBe(0);
    await reviewShot(manage, 'manage-due-phone-paid');
    await manage.setViewportSize({ width: 1280, height: 900 });
    await reviewShot(manage, 'manage-due-desktop-paid');
    expect(seriousViolations(await runAxe(manage))).toEqual([]);
    // The link is not spent: opened again, it renews on the new card, and still cancels.
    await manage.reload();
    await interactive(manage);
    expect(await rowsIn(manage, '.subscriber')).toMatchObject({
      'Next renewal': `${renews}, $39.99`,
      'Paid with': 'Mastercard •••• 4444',
    });
    await manage.getByRole('link', { name: 'Cancel subscription' }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });
});
