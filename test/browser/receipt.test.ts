import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordFailedRenewal } from '../../portal/pay-due';
import { findSubscription } from '../../portal/store/subscriptions';
import { LIFECYCLE_PATH } from '../../shared/api/lifecycle';
import { formatMoney } from '../../shared/plans/money';
import { DEVELOPMENT_SUBSCRIBER_LINK_KEY } from '../../worker/subscriber-links/link-key';
import { signSubscriberLink } from '../../worker/subscriber-links/link-token';
import { runAxe, seriousViolations } from './a11y-checks';
import { type CollectorTap, startCollectorTap } from './collector-tap';
import { type BrowserSession, startBrowserSession, watchPage } from './harness';
import { reviewShot } from './layout-checks';
import {
  checkoutVisitor,
  payButton,
  receiptDialog,
  THREE_D_SECURE_CARD,
  typeTestCard,
} from './money-path';
import { PATIENCE_MS } from './patience';
import { interactive, islandsHydrated, submitEmail, uniqueEmail } from './visitor-steps';

/**
 * The receipt moment and the honest upsell, as a paying visitor meets them in Chromium: the
 * charge confirmed in a dialog before anything else is offered (what was paid, what renews when
 * and at what price, the card, where the receipt goes, how to cancel), the upsell naming the
 * card it charges and options that say what differs, and success repeating the order. The
 * visitor goes through the collector tap, so the popup's analytics event is read as sent.
 */

let session: BrowserSession;
let tap: CollectorTap;
beforeAll(async () => {
  session = await startBrowserSession();
  tap = await startCollectorTap(session.worker.url);
});
afterAll(async () => {
  await tap?.stop();
  await session?.stop();
});

/** Intl writes a no-break space between amount and a trailing symbol; read it as a space. */
const plain = (text: string | null) => (text ?? '').replace(/[\u00a0\u202f]/g, ' ').trim();

/** A fresh visitor through the tap, signed up in `language`, paying 4242 on the checkout. */
async function paidVisitor(language: string, label: string) {
  const context = await session.browser.newContext({
    baseURL: tap.url.href,
    locale: language,
    extraHTTPHeaders: { 'Accept-Language': language },
    viewport: { width: 390, height: 844 },
  });
  const page = await context.newPage();
  const { problems } = watchPage(page);
  await page.goto('/signup?skip_split=true');
  await interactive(page);
  const email = uniqueEmail(label);
  await submitEmail(page, email);
  await page.waitForURL((url) => url.pathname === '/checkout_v3_tr', { timeout: PATIENCE_MS });
  await interactive(page);
  await typeTestCard(page, '4242 4242 4242 4242');
  const paidAt = Date.now();
  await payButton(page).click();
  await page.locator('dialog[open]').waitFor({ timeout: PATIENCE_MS });
  return { context, page, problems, email, paidAt };
}

/** The receipt's rows as label → value, one record per list (a purchase, then the method). */
async function receiptLists(page: Page, scope: string): Promise<Record<string, string>[]> {
  const lists: Record<string, string>[] = [];
  for (const list of await page.locator(`${scope} .receipt__rows`).all()) {
    const entries: [string, string][] = [];
    for (const row of await list.locator('.receipt__row').all()) {
      entries.push([
        plain(await row.locator('dt').textContent()),
        plain(await row.locator('dd').textContent()),
      ]);
    }
    lists.push(Object.fromEntries(entries));
  }
  return lists;
}

/** Every row of the receipt as label → value (the dialog's rows are each named once). */
async function receiptRows(page: Page, scope: string): Promise<Record<string, string>> {
  return Object.assign({}, ...(await receiptLists(page, scope)));
}

/** A day `days` or `months` after `epoch`, as the page writes a date. */
function longDate(epoch: number, after: { days?: number; months?: number }, language: string) {
  const date = new Date(epoch);
  date.setUTCDate(date.getUTCDate() + (after.days ?? 0));
  // Calendar months keep the day where the month has it, else take its last (29 November plus
  // three months is 28 February), as shared/plans/renewal.ts documents.
  const day = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() + (after.months ?? 0));
  const last = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, last));
  return new Intl.DateTimeFormat(language, { dateStyle: 'long' }).format(date);
}

describe('after a successful charge', () => {
  // slow: a purchase from sign-up to success through the collector tap; 6 s alone, 10.6 s once
  // in a full run
  it('the checkout confirms it in a dialog before the upsell, which names the card; success repeats it', async () => {
    const { context, page, problems, email, paidAt } = await paidVisitor('en-US', 'receipt');
    const dialog = receiptDialog(page);
    // Modal, named, and the keyboard is in it: Continue has focus.
    expect(await dialog.getAttribute('aria-describedby')).toBeTruthy();
    expect(
      await page.evaluate(() => document.activeElement?.closest('dialog')?.open === true),
    ).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/checkout_v3_tr');
    const money = (cents: number) => plain(formatMoney(cents, 'USD', 'en-US'));
    const subscriptionReference = expect.stringMatching(/^sub_[\w-]+$/);
    expect(await receiptRows(page, 'dialog')).toEqual({
      Plan: 'Premium, 7-day trial',
      // What the contract page asks for with the email, to withdraw or cancel without a login.
      'Order reference': subscriptionReference,
      // The intro charge the product API answered, and the monthly price after the 7 days, as the
      // worker's receipt of the charge dates and prices it.
      Paid: money(699),
      'Renews on': `${longDate(paidAt, { days: 7 }, 'en-US')}${money(3999)} every month`,
      'Paid with': 'Visa •••• 4242',
      'Receipt sent to': email,
    });
    expect(await dialog.textContent()).toContain('Cancel anytime');
    expect(
      await dialog.getByRole('link', { name: 'Withdraw from contract here' }).getAttribute('href'),
    ).toBe('/contract/withdraw?theme=geozilla');
    expect(seriousViolations(await runAxe(page))).toEqual([]);

    // Escape is Continue: the purchase is over, the flow goes on.
    await page.keyboard.press('Escape');
    await page.waitForURL((url) => url.pathname === '/upsell_an_private', { timeout: PATIENCE_MS });
    // The popup's event went to the collector, from the checkout.
    await expect
      .poll(
        () =>
          tap.sent
            .filter((event) => event.event_type === 'payment_successful_popup')
            .map((event) => event.event_properties.screen_name),
        { timeout: PATIENCE_MS },
      )
      .toContain('checkout_v3_tr');
    await islandsHydrated(page);
    const charge = page.locator('.upsell-charge');
    await expect
      .poll(async () => plain(await charge.textContent()))
      .toBe(
        `${money(699)} is charged now to Visa •••• 4242, then ${money(699)} every month until you cancel.`,
      );
    expect(
      await page.getByRole('button', { name: 'Add to my plan' }).getAttribute('aria-describedby'),
    ).toBe(await charge.getAttribute('id'));
    // The two offers cost the same per period: each says its period, and its price per day.
    const options = page.locator('.plan-picker [role="radio"]');
    const optionText = async (index: number) => plain(await options.nth(index).textContent());
    expect(await optionText(0)).toContain(`${money(699)} every month`);
    expect(await optionText(1)).toContain(`${money(699)} every 3 months`);
    expect(await optionText(0)).not.toEqual(await optionText(1));
    expect(seriousViolations(await runAxe(page))).toEqual([]);

    // The quarterly offer, bought with the card on file.
    await options.nth(1).click();
    await expect
      .poll(async () => plain(await charge.textContent()))
      .toContain(`then ${money(699)} every 3 months`);
    const boughtAt = Date.now();
    await page.getByRole('button', { name: 'Add to my plan' }).click();
    await page.waitForURL((url) => url.pathname === '/success', { timeout: PATIENCE_MS });
    await islandsHydrated(page);
    const summary = page.getByRole('region', { name: 'Your order' });
    await summary.waitFor();
    // The main purchase, then the upsell bought after it, then how both were paid.
    expect(await receiptLists(page, '.receipt--summary')).toEqual([
      {
        Plan: 'Premium, 7-day trial',
        'Order reference': subscriptionReference,
        Paid: money(699),
        'Renews on': `${longDate(paidAt, { days: 7 }, 'en-US')}${money(3999)} every month`,
      },
      {
        Plan: 'Privacy pack, 3 months',
        'Order reference': subscriptionReference,
        Paid: money(699),
        'Renews on': `${longDate(boughtAt, { months: 3 }, 'en-US')}${money(699)} every 3 months`,
      },
      { 'Paid with': 'Visa •••• 4242', 'Receipt sent to': email },
    ]);
    expect(seriousViolations(await runAxe(page))).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  // slow: a purchase in Chromium, then the receipt reloaded in two languages
  it('a reload keeps the confirmation up; in Arabic it reads in Arabic, amounts in its format', async () => {
    const { context, page, problems } = await paidVisitor('en-US', 'receipt-ar');
    // The same checkout again, in Arabic (custom_lng, SPEC.md §2, outside production).
    const again = new URL(page.url());
    again.searchParams.set('custom_lng', 'ar');
    await page.goto(again.pathname + again.search);
    const dialog = page.getByRole('dialog', { name: 'تم تأكيد الدفع' });
    await dialog.waitFor();
    const rows = await receiptRows(page, 'dialog');
    expect(rows['المبلغ المدفوع']).toBe(plain(formatMoney(699, 'USD', 'ar')));
    expect(rows['طريقة الدفع']).toBe('Visa •••• 4242');
    expect(seriousViolations(await runAxe(page))).toEqual([]);
    await dialog.getByRole('button').click();
    await page.waitForURL((url) => url.pathname === '/upsell_an_private', { timeout: PATIENCE_MS });
    expect(problems).toEqual([]);
    await context.close();
  });
});

/** Whether the page's keyboard focus is on `locator`'s element. */
function focusedOn(locator: ReturnType<Page['getByRole']>) {
  return locator.evaluate((element) => element === document.activeElement);
}

/**
 * Update card on a manage page, by keyboard (docs/payments.md, "Update the card"): the form
 * opens in place with focus on it, the 3-D Secure card's challenge passes, the row shows the new
 * card with focus on the result, and the product API's read (the page opened again) returns it.
 * Screenshots of the form open and of the updated card, phone and desktop, with SCREENSHOTS=1
 * (reviewShot).
 */
async function updateCardThroughChallenge(manage: Page, userId: string) {
  await interactive(manage);
  await manage.getByRole('button', { name: 'Update card' }).focus();
  await manage.keyboard.press('Enter');
  const title = manage.getByRole('heading', { name: 'Update your card' });
  await title.waitFor();
  expect(await focusedOn(title)).toBe(true);
  const save = manage.getByRole('button', { name: 'Save card' });
  await typeTestCard(manage, THREE_D_SECURE_CARD, save);
  await manage.setViewportSize({ width: 1280, height: 900 });
  await reviewShot(manage, 'card-desktop-form');
  await manage.setViewportSize({ width: 390, height: 844 });
  await reviewShot(manage, 'card-phone-form');
  expect(seriousViolations(await runAxe(manage))).toEqual([]);
  await save.focus();
  await manage.keyboard.press('Enter');
  const challenge = manage.frameLocator('iframe.tgw-challenge__frame');
  await challenge.getByRole('button', { name: 'Complete authentication' }).click({
    timeout: PATIENCE_MS,
  });
  const done = manage.getByRole('status').filter({ hasText: 'Card updated' });
  await done.waitFor({ timeout: PATIENCE_MS });
  expect(await focusedOn(done)).toBe(true);
  expect((await receiptRows(manage, '.subscriber'))['Paid with']).toBe('Visa •••• 3184');
  await reviewShot(manage, 'card-phone-updated');
  await manage.setViewportSize({ width: 1280, height: 900 });
  await reviewShot(manage, 'card-desktop-updated');
  expect(seriousViolations(await runAxe(manage))).toEqual([]);
  // Nothing was charged: still the one subscription row; the read answers the new card.
  const { results } = await session.worker.portalDb
    .prepare('SELECT id FROM subscriptions WHERE user_id = ?')
    .bind(userId)
    .all<{ id: string }>();
  expect(results).toHaveLength(1);
  await manage.reload();
  await manage.getByRole('heading', { name: 'Your subscription' }).waitFor();
  expect((await receiptRows(manage, '.subscriber'))['Paid with']).toBe('Visa •••• 3184');
}

describe('the subscriber’s page, from the receipt’s link', () => {
  // slow: a purchase, a card updated through 3-D Secure and a cancellation, with axe and review
  // screenshots at two widths
  it('updates the card through 3-D Secure, then cancels in fewer taps than the sign-up took; the portal and the hook record it; the link is then spent', async () => {
    // Sign-up on the default flow takes four taps (walkToSuccess: Locate, the search's Continue,
    // the email's Continue, Pay); this visitor starts at the email.
    const SIGN_UP_TAPS = 4;
    const { context, page, problems, userId } = await checkoutVisitor(session, 'cancel');
    await typeTestCard(page, '4242 4242 4242 4242');
    await payButton(page).click();
    const dialog = receiptDialog(page);
    await dialog.waitFor({ timeout: PATIENCE_MS });

    let taps = 0;
    const link = dialog.getByRole('link', { name: 'Manage or cancel your subscription' });
    const [manage] = await Promise.all([context.waitForEvent('page'), link.click()]);
    taps += 1;
    await manage.waitForLoadState();
    const pageUrl = new URL(manage.url());
    expect(pageUrl.pathname).toMatch(/^\/subscription\/manage\./);
    await manage.getByRole('heading', { name: 'Your subscription' }).waitFor();
    const rows = await receiptRows(manage, '.subscriber');
    expect(rows).toMatchObject({ Plan: 'Premium, 7-day trial', 'Paid with': 'Visa •••• 4242' });
    expect(seriousViolations(await runAxe(manage))).toEqual([]);
    await updateCardThroughChallenge(manage, userId);

    // By keyboard: Tab to Cancel subscription, Enter; the confirm's button, Enter.
    const cancel = manage.getByRole('link', { name: 'Cancel subscription' });
    await cancel.focus();
    await manage.keyboard.press('Enter');
    taps += 1;
    const confirm = manage.getByRole('button', { name: 'Yes, cancel my subscription' });
    await confirm.waitFor();
    expect(seriousViolations(await runAxe(manage))).toEqual([]);
    await confirm.focus();
    await manage.keyboard.press('Enter');
    taps += 1;
    await manage.getByRole('heading', { name: 'Your subscription is canceled' }).waitFor();
    expect(taps).toBeLessThan(SIGN_UP_TAPS);

    const { results } = await session.worker.portalDb
      .prepare('SELECT canceled_at FROM subscriptions WHERE user_id = ? AND status = ?')
      .bind(userId, 'active')
      .all<{ canceled_at: string | null }>();
    expect(results).toHaveLength(1);
    expect(results[0]?.canceled_at).toBeTruthy();
    // The portal told the worker's lifecycle hook, which took it: recorded (200), or held (202)
    // until the queue brings the purchase it counts against.
    const hook = session.worker.logs.find((line) => line.path === LIFECYCLE_PATH);
    expect([200, 202]).toContain(hook?.status);

    // Replayed after its action is done, edited, expired: each a page that says so.
    await manage.goto(pageUrl.pathname);
    await manage.getByRole('heading', { name: 'This link has been used' }).waitFor();
    const edited = pageUrl.pathname.replace(
      /\.(\d)(\d+)\./,
      (_, first: string, rest: string) => `.${(Number(first) + 1) % 10}${rest}.`,
    );
    expect(edited).not.toBe(pageUrl.pathname);
    await manage.goto(edited);
    await manage.getByRole('heading', { name: 'This link does not work' }).waitFor();
    const subscriptionId = Buffer.from(
      pageUrl.pathname.split('.')[1] ?? '',
      'base64url',
    ).toString();
    const old = await signSubscriberLink(
      DEVELOPMENT_SUBSCRIBER_LINK_KEY,
      'manage',
      subscriptionId,
      Date.now() - 401 * 86_400_000,
    );
    await manage.goto(`/subscription/${old.token}`);
    await manage.getByRole('heading', { name: 'This link has expired' }).waitFor();
    expect(seriousViolations(await runAxe(manage))).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  // slow: a purchase, then the claim made without script at two widths, by keyboard
  it('claims the money-back guarantee without script, in one confirm that names the amount, by keyboard, at 390 and 1280 px', async () => {
    const { context, page, userId } = await checkoutVisitor(session, 'refund');
    await typeTestCard(page, '4242 4242 4242 4242');
    await payButton(page).click();
    const link = receiptDialog(page).getByRole('link', {
      name: 'Manage or cancel your subscription',
    });
    await link.waitFor({ timeout: PATIENCE_MS });
    const manageUrl = new URL((await link.getAttribute('href')) ?? '', page.url());
    await context.close();
    const refunded = async () => {
      const row = await session.worker.portalDb
        .prepare('SELECT refunded_at FROM subscriptions WHERE user_id = ?')
        .bind(userId)
        .first<{ refunded_at: string | null }>();
      return row?.refunded_at ?? null;
    };

    // A mail app's browser with script off: plain forms, focus where the page asks.
    const noScript = await session.newVisitor({
      javaScriptEnabled: false,
      viewport: { width: 390, height: 844 },
    });
    const manage = noScript.page;
    await manage.goto(manageUrl.pathname);
    const claim = manage.getByRole('button', { name: 'Get my money back' });
    await claim.focus();
    await manage.keyboard.press('Enter');
    const question = manage.getByRole('heading', { name: 'Get your money back?' });
    await question.waitFor();
    expect(await manage.title()).toBe('Get your money back? · Geozilla');
    expect(await question.evaluate((heading) => heading === document.activeElement)).toBe(true);
    const confirm = manage.getByRole('button', { name: 'Yes, refund me and end my subscription' });
    const effect = await manage.locator('#claim-effect').textContent();
    expect(plain(effect)).toMatch(/^\$6\.99, your whole first payment, goes back to the card/);
    expect(await confirm.getAttribute('aria-describedby')).toBe('claim-effect');
    expect(await manage.getByRole('link', { name: 'Keep my subscription' }).count()).toBe(1);
    expect(await refunded()).toBeNull();
    await reviewShot(manage, 'claim-phone-confirm');
    await manage.setViewportSize({ width: 1280, height: 900 });
    await reviewShot(manage, 'claim-desktop-confirm');

    // The same question with script on (axe needs it), at both widths: asked again, nothing
    // refunded.
    const scripted = await session.newVisitor({ viewport: { width: 390, height: 844 } });
    await scripted.page.goto(manageUrl.pathname);
    await scripted.page.getByRole('button', { name: 'Get my money back' }).click();
    await scripted.page.getByRole('heading', { name: 'Get your money back?' }).waitFor();
    expect(seriousViolations(await runAxe(scripted.page))).toEqual([]);
    await scripted.page.setViewportSize({ width: 1280, height: 900 });
    expect(seriousViolations(await runAxe(scripted.page))).toEqual([]);
    expect(scripted.problems).toEqual([]);
    await scripted.context.close();
    expect(await refunded()).toBeNull();

    // Tab from the question reaches the confirm's button first; Enter claims it, once.
    await manage.keyboard.press('Tab');
    expect(await confirm.evaluate((button) => button === document.activeElement)).toBe(true);
    await manage.keyboard.press('Enter');
    await manage.getByRole('heading', { name: 'Your money is on its way back' }).waitFor();
    expect(await refunded()).toBeTruthy();
    await reviewShot(manage, 'claim-desktop-done');

    // The link again (from the email, a second tab): spent, and nothing more is claimed.
    await manage.goto(manageUrl.pathname);
    await manage.getByRole('heading', { name: 'This link has been used' }).waitFor();
    const claims = await session.worker.portalDb
      .prepare(
        'SELECT COUNT(*) AS n FROM subscriptions WHERE user_id = ? AND refunded_at IS NOT NULL',
      )
      .bind(userId)
      .first<{ n: number }>();
    expect(claims?.n).toBe(1);
    expect(noScript.problems.filter((problem) => !problem.startsWith('410 '))).toEqual([]);
    await noScript.context.close();
  });

  // slow: a purchase, then the recovery page paid twice (a decline, then 3-D Secure), with axe
  // three times and four review screenshots
  it('a failed renewal is paid through its recovery link: a decline advised, then 3-D Secure; the link is then spent', async () => {
    const { context, page, problems, userId } = await checkoutVisitor(session, 'recover');
    await typeTestCard(page, '4242 4242 4242 4242');
    await payButton(page).click();
    await receiptDialog(page).waitFor({ timeout: PATIENCE_MS });
    // The renewal fails as `npm run portal -- renewal-failed` makes it, and the product API's
    // email carries the recovery link.
    const { results } = await session.worker.portalDb
      .prepare('SELECT id FROM subscriptions WHERE user_id = ?')
      .bind(userId)
      .all<{ id: string }>();
    const subscription = await findSubscription(session.worker.portalDb, results[0]?.id ?? '');
    if (subscription === null) throw new Error('no subscription in the portal');
    await recordFailedRenewal(session.worker.portalDb, subscription, new Date());
    const link = await signSubscriberLink(
      DEVELOPMENT_SUBSCRIBER_LINK_KEY,
      'recover',
      subscription.id,
      Date.now(),
    );
    const recover = await context.newPage();
    await recover.goto(`/subscription/${link.token}`);
    await interactive(recover);
    const due = plain(formatMoney(3999, 'USD', 'en-US'));
    expect((await receiptRows(recover, '.subscriber'))['Amount due']).toBe(due);
    const pay = recover.getByRole('button', { name: `Pay ${due}` });
    await recover.setViewportSize({ width: 390, height: 844 });
    await reviewShot(recover, 'recover-phone-before');
    await recover.setViewportSize({ width: 1280, height: 900 });
    await reviewShot(recover, 'recover-desktop-before');
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
    expect(await receiptRows(recover, '.pay-due--paid')).toMatchObject({
      Paid: due,
      'Paid with': 'Visa •••• 3184',
    });
    await reviewShot(recover, 'recover-desktop-after');
    await recover.setViewportSize({ width: 390, height: 844 });
    await reviewShot(recover, 'recover-phone-after');
    expect(seriousViolations(await runAxe(recover))).toEqual([]);
    const { results: dues } = await session.worker.portalDb
      .prepare('SELECT paid_at FROM renewal_dues WHERE subscription_id = ?')
      .bind(subscription.id)
      .all<{ paid_at: string | null }>();
    expect(dues[0]?.paid_at).toBeTruthy();

    // Replayed afterwards: the link opens nothing more.
    await recover.goto(`/subscription/${link.token}`);
    await recover.getByRole('heading', { name: 'This link has been used' }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });
});
