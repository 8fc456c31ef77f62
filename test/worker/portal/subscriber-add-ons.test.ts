import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { insertSubscriptionStatement } from '../../../portal/store/subscriptions';
import { signatureHeaderFor } from '../../../shared/api/hook-signature';
import { LIFECYCLE_SIGNATURE_HEADER } from '../../../shared/api/lifecycle';
import {
  type SubscriberCallName,
  subscriberCallPath,
  subscriberCallText,
} from '../../../shared/api/subscriber-calls';
import { freshApp } from '../fetch-app';
import { freshStorage } from '../fresh-storage';
import { boughtWithLink, PAGE_APP } from '../subscriber-links/subscriber-fixtures';
import { callPortal } from './portal-client';

/**
 * The embedded portal's read of a subscription lists the renewing add-ons its buyer took
 * (portal/store/add-ons.ts; docs/product-api.md, "The subscriber's page: calls the worker
 * makes"): the same user's charged upsells that renew, each with its own terms; no guide (paid
 * once), no declined attempt, no other buyer's, and none on an add-on's own read.
 */

beforeEach(async () => {
  await freshStorage();
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

/** One of the subscriber page's calls as the worker signs it. */
async function signed(name: SubscriberCallName, subscriptionId: string, body?: unknown) {
  const path = subscriberCallPath(name, subscriptionId);
  const text = body === undefined ? '' : JSON.stringify(body);
  const method = body === undefined ? 'GET' : 'POST';
  const signature = await signatureHeaderFor(
    env.LIFECYCLE_HMAC_KEY ?? '',
    Math.floor(Date.now() / 1000),
    subscriberCallText(method, path, text),
  );
  const headers: Record<string, string> = { [LIFECYCLE_SIGNATURE_HEADER]: signature };
  if (method === 'POST') {
    headers['content-type'] = 'application/json';
    headers['idempotency-key'] = `k-${crypto.randomUUID()}`;
  }
  const answer = await callPortal(path, { method, headers, ...(body ? { body: text } : {}) });
  return (await answer.json()) as { data: { add_ons: Record<string, unknown>[] } };
}

/** The user who bought `subscriptionId`. */
async function buyerOf(subscriptionId: string): Promise<string> {
  const row = await env.PORTAL_DB.prepare('SELECT user_id FROM subscriptions WHERE id = ?')
    .bind(subscriptionId)
    .first<string>('user_id');
  if (row === null) throw new Error('no such subscription');
  return row;
}

/** A subscription row of `userId` on `planId`, as a charge (or a declined one) keeps it. */
async function charge(userId: string, planId: string, status: 'active' | 'declined' = 'active') {
  const id = `sub_${crypto.randomUUID().replaceAll('-', '')}`;
  await insertSubscriptionStatement(env.PORTAL_DB, {
    id,
    userId,
    planId,
    gateway: 'test',
    status,
    priceWithDiscount: 6.99,
    coupon: null,
    eventId: status === 'active' ? `evt_${id}` : null,
    declineCode: null,
    processorResponse: null,
    paymentMethod: null,
    paymentIntentId: null,
    idempotencyKey: null,
    createdAt: new Date().toISOString(),
  }).run();
  return id;
}

describe('the embedded portal’s read lists the buyer’s renewing add-ons', () => {
  it('its charged upsells that renew, each with its terms; no guide, no decline, no stranger’s', async () => {
    const fetchApp = freshApp({}, PAGE_APP);
    const { subscriptionId } = await boughtWithLink(fetchApp);
    const stranger = await boughtWithLink(fetchApp);
    const buyer = await buyerOf(subscriptionId);
    const addOn = await charge(buyer, 'upsell_monthly_999_usd');
    await charge(buyer, 'guide_899_usd');
    await charge(buyer, 'upsell_quarterly_799_usd', 'declined');
    await charge(await buyerOf(stranger.subscriptionId), 'upsell_monthly_799_usd');

    const read = await signed('subscriptionRead', subscriptionId);
    expect(read.data.add_ons).toEqual([
      {
        subscription_id: addOn,
        plan_id: 'upsell_monthly_999_usd',
        status: 'active',
        currency: 'USD',
        paid_amount: 6.99,
        charged_at: expect.any(String),
        renewal_amount: 9.99,
        renews_at: expect.any(String),
        ends_at: null,
      },
    ]);
    expect((await signed('subscriptionRead', addOn)).data.add_ons).toEqual([]);
  });

  it('an add-on cancelled on its own is listed as canceled, with the day it ends', async () => {
    const { subscriptionId } = await boughtWithLink(freshApp({}, PAGE_APP));
    const addOn = await charge(await buyerOf(subscriptionId), 'upsell_monthly_999_usd');
    await signed('subscriptionCancel', addOn, { source: 'subscriber_page' });
    const read = await signed('subscriptionRead', subscriptionId);
    expect(read.data).toMatchObject({ status: 'active' });
    expect(read.data.add_ons).toEqual([
      expect.objectContaining({
        subscription_id: addOn,
        status: 'canceled',
        renewal_amount: null,
        renews_at: null,
        ends_at: expect.any(String),
      }),
    ]);
  });
});
