import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedEvents, visitorUuid } from './event-store';
import { type BrowserSession, startBrowserSession } from './harness';
import {
  checkoutVisitor,
  continueAfterReceipt,
  payButton,
  portalSubscriptions,
  settleCharges,
  typeTestCard,
} from './money-path';
import { PATIENCE_MS } from './patience';
import { interactive } from './visitor-steps';

/**
 * A reload during polling resumes the same attempt. The embedded portal keeps each charge's
 * result pending (PORTAL_POLLING_DELAY_MS) until the test settles it, so the checkout is reloaded
 * while the page is still polling.
 */

let session: BrowserSession;
beforeAll(async () => {
  session = await startBrowserSession({
    bindings: { PORTAL_POLLING_DELAY_MS: String(3_600_000) },
  });
});
afterAll(() => session?.stop());

const isSubscriptionPost = (request: Request) =>
  request.method() === 'POST' && /\/subscriptions\//.test(new URL(request.url()).pathname);

/** The properties of the visitor's subs_purchase_completed events the collector stored. */
async function storedPurchases(deviceId: string): Promise<Record<string, unknown>[]> {
  return (await storedEvents(session, deviceId))
    .filter((event) => event.event_type === 'subs_purchase_completed')
    .map((event) => event.event_properties);
}

/** The polling id of the attempt the page stored, once the portal named it. */
async function storedPollingId(page: Page): Promise<string | null> {
  const raw = await page.evaluate(() => localStorage.getItem('gf:checkout:attempt'));
  const attempt = raw ? (JSON.parse(raw) as { pollingId?: string | null } | null) : null;
  return attempt?.pollingId ?? null;
}

describe('a reload while the payment is pending', () => {
  // slow: a sign-up to the checkout, a payment held pending across a reload, then settled and followed to the upsell
  it('resumes the same attempt: Pay stays busy, the next screen opens, one subscription', async () => {
    const { context, page, problems, userId } = await checkoutVisitor(session, 'reloader');
    const posts: string[] = [];
    page.on('request', (request) => {
      if (isSubscriptionPost(request)) posts.push(request.url());
    });
    await typeTestCard(page, '4242 4242 4242 4242');
    await payButton(page).click();
    await expect.poll(() => payButton(page).getAttribute('aria-busy')).toBe('true');
    // The charge was posted and the page is polling its result.
    await expect.poll(() => storedPollingId(page), { timeout: PATIENCE_MS }).toMatch(/./);
    const pollingId = await storedPollingId(page);
    expect(posts).toHaveLength(1);

    await page.reload();
    expect(new URL(page.url()).pathname).toBe('/checkout_v3_tr');
    await interactive(page);
    // Still the same attempt, and the visitor cannot start another one.
    await expect.poll(() => payButton(page).getAttribute('aria-busy')).toBe('true');
    expect(await payButton(page).isDisabled()).toBe(true);
    expect(await storedPollingId(page)).toBe(pollingId);

    await settleCharges(session);
    await continueAfterReceipt(page);
    await page.waitForURL((url) => url.pathname === '/upsell_an_private', { timeout: PATIENCE_MS });
    expect(posts).toHaveLength(1);
    expect(await portalSubscriptions(session, userId)).toEqual([
      { plan_id: 'monthly_7d_intro_usd', status: 'active' },
    ]);
    // The purchase reaches the collector once (SPEC.md §3 payload), a test purchase outside
    // production; the tracker takes it from the page's hand-off queue.
    const subscriptionId = JSON.parse(
      (await page.evaluate(() => localStorage.getItem('gf:checkout:id')))!,
    ) as string;
    const visitor = await visitorUuid(context);
    await page.goto('about:blank'); // leaving sends what waits, by beacon
    await expect
      .poll(() => storedPurchases(visitor), { timeout: PATIENCE_MS })
      .toEqual([
        expect.objectContaining({
          sub_id: subscriptionId,
          plan: 'monthly_7d_intro_usd',
          currency: 'USD',
          pixelName: 'Purchase_test',
          screen_name: 'checkout_v3_tr',
        }),
      ]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
