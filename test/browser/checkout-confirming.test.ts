import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POLLING } from '../../islands/payments/poll-result';
import enErrors from '../../locales/en/errors.json';
import enPlans from '../../locales/en/plans.json';
import { type BrowserSession, startBrowserSession } from './harness';
import {
  checkoutVisitor,
  payButton,
  portalSubscriptions,
  receiptDialog,
  settleCharges,
  typeTestCard,
} from './money-path';
import { PATIENCE_MS } from './patience';
import { interactive } from './visitor-steps';

/**
 * A payment whose result is still pending. A reload while the page polls resumes the same
 * attempt; past POLLING.deadlineMs the page shows 'Confirming your payment…' with Pay held, and
 * keeps reading the same polling id until the result is final, never posting again; if the
 * attempt vanishes meanwhile (another tab, cleared storage), Pay stays held and the visitor is
 * told the payment may have gone through.
 *
 * The embedded portal keeps each result pending (PORTAL_POLLING_DELAY_MS) until the test settles
 * it, while the page runs on Playwright's fake clock (installed before the first page loads, so
 * every timer of the page is the clock's): the test jumps the page past the deadline without
 * waiting a minute. The clock otherwise flows with real time, so the page's re-checks go on as
 * they would.
 */

const CONFIRMING = enPlans.plans.pay.confirming;
const MAY_HAVE_GONE_THROUGH = enErrors.errors.payment_may_have_gone_through;
const ATTEMPT_KEY = 'gf:checkout:attempt';
const PLAN = 'monthly_7d_intro_usd';
/** Past the deadline of the polling run the page is in. */
const PAST_DEADLINE_MS = POLLING.deadlineMs + 1000;

let session: BrowserSession;
beforeAll(async () => {
  // Pending far longer than any test: only settleCharges ends a charge's wait.
  session = await startBrowserSession({ bindings: { PORTAL_POLLING_DELAY_MS: String(3_600_000) } });
});
afterAll(() => session?.stop());

/** Every visitor of `session` runs on the fake clock from the first page on. */
function onFakeClock(session: BrowserSession): BrowserSession {
  return {
    ...session,
    async newVisitor(options) {
      const visitor = await session.newVisitor(options);
      await visitor.context.clock.install();
      return visitor;
    },
  };
}

/** The subscription POSTs the page makes and the polling ids it reads, in order. */
function watchCharges(page: Page): { posts: string[]; polled: string[] } {
  const posts: string[] = [];
  const polled: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (request.method() === 'POST' && path.startsWith('/api/users/me/subscriptions/'))
      posts.push(path);
    const polling = /^\/api\/polling\/get-result\/([^/]+)$/.exec(path);
    if (polling?.[1]) polled.push(polling[1]);
  });
  return { posts, polled };
}

const confirmingStatus = (page: Page) => page.getByRole('status').filter({ hasText: CONFIRMING });

/** The first read of a polling result from now on: the polling run has set its deadline. */
const firstPoll = (page: Page) =>
  page.waitForRequest((request) =>
    new URL(request.url()).pathname.startsWith('/api/polling/get-result/'),
  );

/** Jumps the page's clock past the deadline of the polling run that made `poll`. */
async function pastTheDeadline(page: Page, poll: Promise<unknown>): Promise<void> {
  await poll;
  await page.clock.fastForward(PAST_DEADLINE_MS);
  await confirmingStatus(page).waitFor({ state: 'visible', timeout: PATIENCE_MS });
}

/**
 * A fresh visitor on the fake clock pays with the test gateway's succeeding card; its result
 * stays pending (PORTAL_POLLING_DELAY_MS).
 */
async function payPending(session: BrowserSession, label: string) {
  const visitor = await checkoutVisitor(onFakeClock(session), label);
  const { page } = visitor;
  const charges = watchCharges(page);
  await typeTestCard(page, '4242 4242 4242 4242');
  const poll = firstPoll(page);
  await payButton(page).click();
  return { ...visitor, ...charges, poll };
}

/**
 * Pay is held: disabled, so no press can start a second charge; busy while the page is still
 * working on the payment, not once it is only waiting for the visitor to reload.
 */
async function expectPayHeld(page: Page, working = true): Promise<void> {
  expect(await payButton(page).isDisabled()).toBe(true);
  expect(await payButton(page).getAttribute('aria-busy')).toBe(working ? 'true' : null);
}

/** The polling id of the attempt the page stored, once the portal named it. */
async function storedPollingId(page: Page): Promise<string | null> {
  const raw = await page.evaluate((key) => localStorage.getItem(key), ATTEMPT_KEY);
  const attempt = raw ? (JSON.parse(raw) as { pollingId?: string | null } | null) : null;
  return attempt?.pollingId ?? null;
}

describe('a payment still pending across a reload and past the polling deadline', () => {
  // slow: a checkout, a payment held pending across a reload and past the polling deadline, then settled
  it('resumes the same attempt, says it is confirming with Pay held, then opens the receipt: one POST, one subscription', async () => {
    const { context, page, problems, userId, posts, polled } = await payPending(
      session,
      'reloader',
    );
    await expect.poll(() => payButton(page).getAttribute('aria-busy')).toBe('true');
    // The charge was posted and the page is polling its result.
    await expect.poll(() => storedPollingId(page), { timeout: PATIENCE_MS }).toMatch(/./);
    const pollingId = await storedPollingId(page);
    expect(posts).toHaveLength(1);

    // A reload resumes the same attempt, and the visitor cannot start another one.
    const resumedPoll = firstPoll(page);
    await page.reload();
    expect(new URL(page.url()).pathname).toBe('/checkout_v3_tr');
    await interactive(page);
    await expect.poll(() => payButton(page).getAttribute('aria-busy')).toBe('true');
    await expectPayHeld(page);
    expect(await storedPollingId(page)).toBe(pollingId);

    // Past the resumed run's deadline: confirming, Pay held.
    await pastTheDeadline(page, resumedPoll);
    await expectPayHeld(page);
    expect(await payButton(page).textContent()).toBe(CONFIRMING);
    const readBeforeConfirming = polled.length;

    // The portal's result turns final; a re-check reads it and the receipt opens.
    await settleCharges(session);
    await receiptDialog(page).waitFor({ timeout: PATIENCE_MS });
    expect(posts).toHaveLength(1);
    // The re-checks read the same charge's result again, never another.
    expect(polled.length).toBeGreaterThan(readBeforeConfirming);
    expect(new Set(polled)).toEqual(new Set([pollingId]));
    expect(await portalSubscriptions(session, userId)).toEqual([
      { plan_id: PLAN, status: 'active' },
    ]);
    // The resumed purchase is queued for the tracker once, with the stored attempt's plan
    // (test/unit/payments/payment-store.test.ts); the queue reaches the collector once with its
    // SPEC.md §3 payload (analytics-journey.test.ts).
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('an attempt that vanishes while its payment is being confirmed', () => {
  // The result stays pending for the whole test: only the vanished attempt ends the wait.
  it('keeps Pay held and says the payment may have gone through; nothing is posted again', async () => {
    const { context, page, problems, userId, posts, poll } = await payPending(session, 'vanish');
    await pastTheDeadline(page, poll);

    // Another tab of the site shares the storage and clears the attempt.
    const otherTab = await context.newPage();
    await otherTab.goto('/robots.txt');
    expect(await otherTab.evaluate((key) => localStorage.getItem(key), ATTEMPT_KEY)).not.toBeNull();
    // Waits for the page to get the storage event: a store listening for it (added earlier) has
    // run, and one not listening reads localStorage afresh.
    const storageEvent = await page.evaluateHandle(
      (key) => ({
        heard: new Promise<void>((resolve) =>
          addEventListener('storage', (event) => event.key === key && resolve()),
        ),
      }),
      ATTEMPT_KEY,
    );
    await otherTab.evaluate((key) => localStorage.removeItem(key), ATTEMPT_KEY);
    await storageEvent.evaluate((event) => event.heard);

    // Ends the wait between re-checks, or the deadline of a re-check begun before the attempt
    // vanished; the next re-check finds no attempt.
    await page.clock.fastForward(PAST_DEADLINE_MS);
    // Matched as it shows: the toast clears itself after 3 s (SPEC.md §4).
    await page
      .locator('.toast')
      .getByText(MAY_HAVE_GONE_THROUGH, { exact: true })
      .waitFor({ timeout: PATIENCE_MS });
    await expectPayHeld(page, false);
    expect(await confirmingStatus(page).count()).toBe(0);

    // A minute later the toast is gone; the notice and the hold stay until a reload.
    await page.clock.fastForward(60_000);
    await page.locator('.toast__message').waitFor({ state: 'hidden', timeout: 5000 });
    await page
      .locator('form')
      .getByRole('alert')
      .filter({ hasText: MAY_HAVE_GONE_THROUGH })
      .waitFor();
    await expectPayHeld(page, false);
    expect(new URL(page.url()).pathname).toBe('/checkout_v3_tr');
    expect(posts).toHaveLength(1);
    // It did go through: the one charge the page made.
    expect(await portalSubscriptions(session, userId)).toEqual([
      { plan_id: PLAN, status: 'active' },
    ]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
