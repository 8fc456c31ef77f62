import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMoney } from '../../shared/plans/money';
import { discountedRenewal } from '../../shared/plans/save-offer-actions';
import { DEVELOPMENT_SUBSCRIBER_LINK_KEY } from '../../worker/subscriber-links/link-key';
import { signSubscriberLink } from '../../worker/subscriber-links/link-token';
import { saveOfferTest } from '../fixtures/save-offer-test';
import { runAxe, seriousViolations } from './a11y-checks';
import { type BrowserSession, startBrowserSession } from './harness';
import { buy, httpVisitor } from './http-visitors';
import { reviewShot } from './layout-checks';
import { uniqueEmail } from './visitor-steps';

/**
 * A save offer that acts, as a subscriber meets it in Chromium (docs/marketers.md, "The save
 * offer before a cancel"): on the cancel's confirm, the test's variant offers 50% off the next
 * renewal beside Keep my subscription, and the reasons for leaving stand in the cancel's form.
 * One subscriber takes the offer by keyboard and keeps the subscription at half the price; another
 * picks a reason with the arrow keys and cancels. Each buys by HTTP, as the islands' own client
 * and payment state machine send it (http-visitors.ts): only the subscriber's pages are
 * Chromium's here. The counting and the product API's side are proven in workerd
 * (test/worker/subscriber-links/save-offer-actions.test.ts).
 */

let session: BrowserSession;
beforeAll(async () => {
  session = await startBrowserSession();
  await session.worker.putConfig('content', {
    screens: {},
    saveOffer: {
      title: { en: 'Before you go' },
      text: { en: 'We would miss you.' },
      reasons: {
        too_expensive: { en: 'It costs too much' },
        not_using: { en: 'I do not use it' },
      },
      variants: {
        half_price: {
          title: { en: 'Stay for half price' },
          action: { kind: 'discount', percentOff: 50, renewals: 1 },
        },
      },
    },
  });
  await session.worker.putConfig('experiments', {
    version: 'save-offer-walk',
    experiments: { 'save-half': saveOfferTest({ control: 0, half: 1 }) },
  });
});
afterAll(() => session?.stop());

let buyers = 0;

/**
 * A buyer of the 7-day trial, by HTTP (the money path in Chromium is the checkout files'), and
 * their subscription's cancel confirm opened from its link in Chromium on a phone.
 */
async function cancelConfirm(label: string): Promise<Page> {
  buyers += 1;
  const bought = await buy(httpVisitor(session, buyers), { email: uniqueEmail(label) });
  expect(bought.told).toBe('succeeded');
  const row = await session.worker.portalDb
    .prepare('SELECT id, plan_id FROM subscriptions WHERE user_id = ?')
    .bind(bought.userId)
    .first<{ id: string; plan_id: string }>();
  expect(row?.plan_id).toBe('monthly_7d_intro_usd');
  const link = await signSubscriberLink(
    DEVELOPMENT_SUBSCRIBER_LINK_KEY,
    'manage',
    row?.id ?? '',
    Date.now(),
  );
  const { page } = await session.newVisitor({ viewport: { width: 390, height: 844 } });
  // Plain forms, no script: nothing to wait for but the page.
  await page.goto(`/subscription/${link.token}/cancel`);
  await page.getByRole('heading', { name: 'Stay for half price' }).waitFor();
  return page;
}

describe('the save offer on the cancel’s confirm', () => {
  it('is taken by keyboard and keeps the subscription at half price; a reason goes with a cancel', async () => {
    const taker = await cancelConfirm('save-offer-taker');
    const take = taker.getByRole('button', { name: 'Take 50% off my next renewal' });
    expect(await take.getAttribute('aria-describedby')).toBe('save-offer-text');
    await reviewShot(taker, 'save-offer-phone-confirm');
    await taker.setViewportSize({ width: 1280, height: 900 });
    await reviewShot(taker, 'save-offer-desktop-confirm');
    expect(seriousViolations(await runAxe(taker))).toEqual([]);
    // The offer's button comes first, then Keep my subscription, then the reasons and the cancel.
    await taker.locator('body').press('Tab');
    for (let tab = 0; tab < 10; tab++) {
      if (await take.evaluate((element) => element === document.activeElement)) break;
      await taker.keyboard.press('Tab');
    }
    await taker.keyboard.press('Enter');
    await taker.getByRole('heading', { name: 'Your subscription continues' }).waitFor();
    // 39.99 a month after the trial, the next renewal at half, as every coupon rounds it.
    const half = formatMoney(discountedRenewal(3999, 50), 'USD', 'en');
    expect(await taker.locator('.lead').textContent()).toMatch(
      new RegExp(`^It next renews on .+ for \\${half}\\.$`),
    );
    await reviewShot(taker, 'save-offer-desktop-taken');
    await taker.getByRole('link', { name: 'Back to my subscription' }).click();
    await taker.getByRole('heading', { name: 'Your subscription' }).waitFor();
    expect(await taker.locator('.subscriber').textContent()).toContain(half);

    const leaver = await cancelConfirm('save-offer-leaver');
    const reasons = leaver.getByRole('group', { name: 'Why are you leaving? (optional)' });
    await reasons.getByRole('radio', { name: 'It costs too much' }).focus();
    await leaver.keyboard.press('Space');
    await leaver.keyboard.press('ArrowDown');
    expect(await reasons.getByRole('radio', { name: 'I do not use it' }).isChecked()).toBe(true);
    await reviewShot(leaver, 'save-offer-phone-reason');
    await leaver.getByRole('button', { name: 'Yes, cancel my subscription' }).click();
    await leaver.getByRole('heading', { name: 'Your subscription is canceled' }).waitFor();
    const canceled = session.worker.logs.find((line) => line.event === 'subscriber_canceled');
    expect(canceled).toMatchObject({ reason: 'not_using' });
  });
});
