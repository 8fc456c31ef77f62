import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordFailedRenewal } from '../../portal/pay-due';
import { listSubscriptions } from '../../portal/store/listings';
import { listPayments } from '../../portal/store/subscription-payments';
import { findSubscription } from '../../portal/store/subscriptions';
import { archivedObjects } from '../../scripts/events/archive';
import { SUBSCRIPTION_COLUMNS } from '../../scripts/portal/listings';
import { formatTable } from '../../scripts/portal/table';
import { addUtcMonths } from '../../shared/plans/renewal';
import { readArchiveObject } from '../../worker/collector/event-archive';
import { DEVELOPMENT_SUBSCRIBER_LINK_KEY } from '../../worker/subscriber-links/link-key';
import { signSubscriberLink } from '../../worker/subscriber-links/link-token';
import { copyArchiveDay, duckDbReconciliation, inCents, listingTotals } from '../reconciliation';
import { runAxe, seriousViolations } from './a11y-checks';
import { subscribedThroughApi } from './api-subscriber';
import { type BrowserSession, startBrowserSession } from './harness';
import { reviewShot } from './layout-checks';
import { THREE_D_SECURE_CARD, typeTestCard } from './money-path';
import { PATIENCE_MS } from './patience';
import { interactive } from './visitor-steps';

/**
 * Recovery that keeps the money (docs/payments.md, "Pay what is due", "Update the card"), as a
 * subscriber meets it in Chromium: a failed renewal paid through the recovery link renews on the
 * card that paid, on a date that starts at the payment, which the manage link's page then shows;
 * the money-back claim there, by keyboard. And on a manage link while something is due: the
 * card updated, then paid at once with it ("Pay $39.99 now with this card"). Then the money of
 * both, as the worker archived what the portal told it: docs/analytics.md's reconciliation equals
 * the portal's listing of payments to the cent, and `npm run portal -- subscriptions` says each
 * one's state as it is.
 */

let session: BrowserSession;
/** The subscriptions this file's subscribers bought, in the order they did. */
const walked: string[] = [];
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

/**
 * A subscriber who bought the 7-day trial with 4242 (through the worker's API: the purchase
 * itself is receipt.test.ts's), whose first renewal then failed, and a fresh browser for the
 * links of their email.
 */
async function failedRenewal(label: string) {
  const { userId } = await subscribedThroughApi(session, label);
  const db = session.worker.portalDb;
  const row = await db
    .prepare('SELECT id FROM subscriptions WHERE user_id = ?')
    .bind(userId)
    .first<{ id: string }>();
  const subscription = await findSubscription(db, row?.id ?? '');
  if (subscription === null) throw new Error('no subscription in the portal');
  // As `npm run portal -- renewal-failed` makes it; the product API's email has the link.
  await recordFailedRenewal(db, subscription, new Date());
  walked.push(subscription.id);
  const link = (purpose: 'recover' | 'manage') =>
    signSubscriberLink(DEVELOPMENT_SUBSCRIBER_LINK_KEY, purpose, subscription.id, Date.now());
  return { ...(await session.newVisitor()), subscriptionId: subscription.id, link };
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
  // slow: the recovery page paid twice (a decline, then 3-D Secure) and a refund claimed by
  // keyboard in Chromium, with axe four times
  it('pays it through the recovery link, a decline advised, then 3-D Secure; renews on that card from the payment; claims the money back by keyboard in one confirm', async () => {
    const {
      context,
      page: recover,
      problems,
      subscriptionId,
      link,
    } = await failedRenewal('recovery');
    await recover.setViewportSize({ width: 390, height: 844 });
    const recoverLink = `/subscription/${(await link('recover')).token}`;
    await recover.goto(recoverLink);
    await interactive(recover);
    expect(await rowsIn(recover, '.pay-due')).toEqual({
      'Paid with': 'Visa •••• 4242',
      'Amount due': '$39.99',
    });
    const pay = recover.getByRole('button', { name: 'Pay $39.99' });
    await reviewShot(recover, 'recovery-phone-due');
    await recover.setViewportSize({ width: 1280, height: 900 });
    await reviewShot(recover, 'recovery-desktop-due');
    expect(seriousViolations(await runAxe(recover))).toEqual([]);

    // A card without the funds: the declined page's advice for its class, the form kept.
    await typeTestCard(recover, '4000 0000 0000 9995', pay);
    await pay.click();
    await recover
      .getByRole('alert')
      .filter({ hasText: "Nothing was charged: the card's balance or limit was too low." })
      .waitFor({ timeout: PATIENCE_MS });
    expect(seriousViolations(await runAxe(recover))).toEqual([]);

    // Another card, by keyboard: the frame's fields, then Pay, then the bank's challenge.
    await typeTestCard(recover, THREE_D_SECURE_CARD, pay);
    await pay.focus();
    await recover.keyboard.press('Enter');
    const challenge = recover.frameLocator('iframe.tgw-challenge__frame');
    await challenge.getByRole('button', { name: 'Complete authentication' }).click({
      timeout: PATIENCE_MS,
    });
    const paid = recover.getByRole('heading', { name: 'Paid: your subscription goes on' });
    await paid.waitFor({ timeout: PATIENCE_MS });
    expect(await focusedOn(paid)).toBe(true);
    const renews = await renewsAfterPayment(subscriptionId);
    expect(await rowsIn(recover, '.pay-due--paid')).toEqual({
      Paid: '$39.99',
      'Paid with': 'Visa •••• 3184',
      'Next renewal': `${renews}, $39.99`,
    });
    // The card that failed is named nowhere any more: the renewals use the one that paid.
    expect(await recover.getByText('Visa •••• 4242').count()).toBe(0);
    await reviewShot(recover, 'recovery-desktop-paid');
    await recover.setViewportSize({ width: 390, height: 844 });
    await reviewShot(recover, 'recovery-phone-paid');
    expect(seriousViolations(await runAxe(recover))).toEqual([]);
    // The link is spent now: replayed, its payment and its page answer 410, "This link has been
    // used" (test/worker/subscriber-links/pay-due.test.ts), the page every spent, edited or
    // expired link gets (subscriber-page.test.ts).

    // The manage link: renewing on the card that paid, on the date the payment started.
    const manage = recover;
    await manage.setViewportSize({ width: 1280, height: 900 });
    await manage.goto(`/subscription/${(await link('manage')).token}`);
    await interactive(manage);
    expect(await rowsIn(manage, '.subscriber')).toMatchObject({
      'Next renewal': `${renews}, $39.99`,
      'Paid with': 'Visa •••• 3184',
    });
    expect(await manage.locator('.pay-due').count()).toBe(0);

    // The money-back guarantee, by keyboard (a plain form, with script or without: its posts are
    // test/worker/subscriber-links/subscriber-page.test.ts's): one confirm that names the amount,
    // focus on its question, the confirm's button the next Tab stop; the whole first payment
    // back, the subscription ended.
    const claim = manage.getByRole('button', { name: 'Get my money back' });
    await claim.focus();
    await manage.keyboard.press('Enter');
    const question = manage.getByRole('heading', { name: 'Get your money back?' });
    await question.waitFor();
    expect(await manage.title()).toBe('Get your money back? · Geozilla');
    expect(await focusedOn(question)).toBe(true);
    const confirm = manage.getByRole('button', { name: 'Yes, refund me and end my subscription' });
    const effect = await manage.locator('#claim-effect').textContent();
    expect(plain(effect)).toMatch(/^\$6\.99, your whole first payment, goes back to the card/);
    expect(await confirm.getAttribute('aria-describedby')).toBe('claim-effect');
    expect(await manage.getByRole('link', { name: 'Keep my subscription' }).count()).toBe(1);
    await reviewShot(manage, 'claim-desktop-confirm');
    await manage.setViewportSize({ width: 390, height: 844 });
    await reviewShot(manage, 'claim-phone-confirm');
    expect(seriousViolations(await runAxe(manage))).toEqual([]);
    await manage.keyboard.press('Tab');
    expect(await focusedOn(confirm)).toBe(true);
    await manage.keyboard.press('Enter');
    await manage
      .getByRole('heading', { name: 'Your money is on its way back' })
      .waitFor({ timeout: PATIENCE_MS });
    expect(plain(await manage.locator('.lead').textContent())).toContain('$6.99');
    await reviewShot(manage, 'claim-phone-done');
    const refunded = await session.worker.portalDb
      .prepare('SELECT refunded_at FROM subscriptions WHERE id = ?')
      .bind(subscriptionId)
      .first<{ refunded_at: string | null }>();
    expect(refunded?.refunded_at).toBeTruthy();
    // The decline's answer is all that went wrong.
    expect(problems).toEqual([`402 ${new URL(`${recoverLink}/pay-due`, session.worker.url).href}`]);
    await context.close();
  });

  // slow: a card update and a payment by link in Chromium, with axe three times
  it('on the manage link while something is due: the card updated, then the due paid at once with it', async () => {
    const {
      context,
      page: manage,
      problems,
      subscriptionId,
      link,
    } = await failedRenewal('manage-due');
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
    // The link is not spent: opened again, it renews on the card that paid, from the payment,
    // and still cancels (test/worker/subscriber-links/pay-due.test.ts).
    expect(problems).toEqual([]);
    await context.close();
  });
});

/** Lines of the worker's event archive with an amount (payments), per subscription in `ids`. */
async function archivedPayments(ids: readonly string[]): Promise<number> {
  const bucket = await session.worker.bucket('EVENTS_ARCHIVE');
  const seen = new Set<string>();
  for (const { key } of await archivedObjects(bucket, null)) {
    for (const line of (await readArchiveObject(bucket, key)) ?? []) {
      const id = line.event_properties.sub_id;
      if (line.revenue !== null && typeof id === 'string' && ids.includes(id)) {
        seen.add(line.insert_id);
      }
    }
  }
  return seen.size;
}

/** Each UTC day ('YYYY-MM-DD') from the first to the last of `days`. */
function daysBetween(days: readonly string[]): string[] {
  const sorted = [...days].sort();
  const out: string[] = [];
  for (
    let at = Date.parse(`${sorted[0]}T00:00:00Z`);
    at <= Date.parse(`${sorted.at(-1)}T00:00:00Z`);
    at += 86_400_000
  ) {
    out.push(new Date(at).toISOString().slice(0, 10));
  }
  return out;
}

describe("both subscribers' money, as the worker archived it", () => {
  it("reconciles with the product API's listing to the cent; the portal lists each state", async () => {
    // The two walks above: the first recovered, then refunded; the second recovered and active.
    expect(walked).toHaveLength(2);
    const db = session.worker.portalDb;
    const payments = (await listPayments(db)).filter((payment) =>
      walked.includes(payment.subscription_id),
    );
    expect(payments.map((payment) => [payment.subscription_id, payment.kind])).toEqual([
      [walked[0], 'charge'],
      [walked[0], 'recovery'],
      [walked[0], 'refund'],
      [walked[1], 'charge'],
      [walked[1], 'recovery'],
    ]);
    // Each payment the portal told the worker reaches the archive through the events queue.
    await expect
      .poll(() => archivedPayments(walked), { timeout: PATIENCE_MS, interval: 500 })
      .toBe(payments.length);

    const dir = await mkdtemp(join(tmpdir(), 'recovery-archive-'));
    try {
      const today = new Date().toISOString().slice(0, 10);
      const days = daysBetween([today, ...payments.map((p) => p.occurred_at.slice(0, 10))]);
      const bucket = await session.worker.bucket('EVENTS_ARCHIVE');
      for (const day of days) await copyArchiveDay(bucket, day, dir);
      const rows = await duckDbReconciliation(dir, { from: days[0] ?? today, to: today });
      const ours = rows.filter((row) => walked.includes(String(row.subscription_id)));
      expect(inCents(ours)).toEqual(listingTotals(payments));
      // Each bought the $6.99 trial and paid a $39.99 renewal late; the first got the $6.99 back.
      const sum = (key: 'charges' | 'refunds') =>
        inCents(ours).reduce((total, row) => total + row[key], 0);
      expect([sum('charges'), sum('refunds')]).toEqual([2 * (699 + 3999), 699]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }

    // `npm run portal -- subscriptions`, as it prints them: the state, what it took, what it gave
    // back.
    const table = formatTable(SUBSCRIPTION_COLUMNS, await listSubscriptions(db));
    const columns = (id: string | undefined) => {
      const cells = table
        .split('\n')
        .find((line) => line.startsWith(`${id} `))
        ?.split(/\s{2,}/);
      return [cells?.[4], cells?.[6], cells?.[7]];
    };
    expect(columns(walked[0])).toEqual(['refunded', '46.98 USD', '6.99 USD']);
    expect(columns(walked[1])).toEqual(['active', '46.98 USD', '0.00 USD']);
  });
});
