import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { newLifecycleEvent } from '../../../portal/lifecycle-record';
import { listSaveOffers } from '../../../portal/store/listings';
import { findSubscription } from '../../../portal/store/subscriptions';
import { DirectSubscriptionResponse } from '../../../shared/api/contract';
import { signatureHeaderFor } from '../../../shared/api/hook-signature';
import { LIFECYCLE_SIGNATURE_HEADER, type LifecycleEventType } from '../../../shared/api/lifecycle';
import {
  type SubscriberCallName,
  subscriberCallPath,
  subscriberCallText,
} from '../../../shared/api/subscriber-calls';
import { addUtcMonths } from '../../../shared/plans/renewal';
import { bearer, callPortal, postJson, signUp } from './portal-client';

/**
 * The embedded portal's save offer actions (portal/save-offers.ts, docs/product-api.md "Save
 * offer actions"): a discount, a pause or a switch to a cheaper plan changes what the read
 * answers and what `npm run portal -- renew` charges, once a subscription in 12 months, the
 * same Idempotency-Key answering the first answer again; only the worker may ask.
 */

interface Call {
  body?: unknown;
  key?: string | null;
  secret?: string;
}

/** One of the subscriber page's calls as the worker signs it (a read without a body). */
async function signed(name: SubscriberCallName, subscriptionId: string, call: Call = {}) {
  const path = subscriberCallPath(name, subscriptionId);
  const text = call.body === undefined ? '' : JSON.stringify(call.body);
  const method = call.body === undefined ? 'GET' : 'POST';
  const signature = await signatureHeaderFor(
    call.secret ?? env.LIFECYCLE_HMAC_KEY ?? '',
    Math.floor(Date.now() / 1000),
    subscriberCallText(method, path, text),
  );
  const headers: Record<string, string> = { [LIFECYCLE_SIGNATURE_HEADER]: signature };
  if (method === 'POST') headers['content-type'] = 'application/json';
  const key = call.key === undefined ? crypto.randomUUID() : call.key;
  if (method === 'POST' && key !== null) headers['idempotency-key'] = key;
  const answer = await callPortal(path, { method, headers, ...(text ? { body: text } : {}) });
  return {
    status: answer.status,
    body: (await answer.json()) as { data: Record<string, unknown>; code?: string },
  };
}

function read(subscriptionId: string) {
  return signed('subscriptionRead', subscriptionId);
}

function take(subscriptionId: string, offer: Record<string, unknown>, key?: string) {
  return signed('saveOfferTake', subscriptionId, {
    body: { source: 'subscriber_page', ...offer },
    key,
  });
}

/** A subscription to `planId` charged at once, as the alternate gateway charges one. */
async function bought(planId: string): Promise<string> {
  const { accessToken } = await signUp();
  const response = await postJson(
    `/users/me/subscriptions/${planId}`,
    {
      gateway: 'braintree',
      payment_method_nonce: 'fake-valid-nonce',
      coupon: null,
      payment_intent_id: null,
      user_data: {},
    },
    bearer(accessToken),
  );
  expect(response.status).toBe(200);
  const { subscription_id } = DirectSubscriptionResponse.parse(await response.json()).data;
  if (!subscription_id) throw new Error(`no subscription to ${planId} was charged`);
  return subscription_id;
}

/** What `npm run portal -- renew | renewal-failed` keeps and would send, or why it cannot. */
async function lifecycle(
  subscriptionId: string,
  type: LifecycleEventType = 'renewal',
  occurredAt = new Date().toISOString(),
) {
  const subscription = await findSubscription(env.PORTAL_DB, subscriptionId);
  if (!subscription) throw new Error(`no subscription ${subscriptionId}`);
  return newLifecycleEvent(env.PORTAL_DB, subscription, type, {
    id: `evt_${crypto.randomUUID()}`,
    amount: null,
    occurredAt,
  });
}

async function renewedAmount(subscriptionId: string, occurredAt?: string) {
  const kept = await lifecycle(subscriptionId, 'renewal', occurredAt);
  if (!kept.ok) throw new Error(kept.error);
  return kept.body.amount;
}

/** The first renewal of a monthly plan bought without an intro: a month after its charge. */
async function firstRenewalOf(subscriptionId: string): Promise<number> {
  const row = await env.PORTAL_DB.prepare('SELECT created_at FROM subscriptions WHERE id = ?')
    .bind(subscriptionId)
    .first<{ created_at: string }>();
  return addUtcMonths(Date.parse(row?.created_at ?? ''), 1);
}

describe('a discount', () => {
  it('takes its share off the read and the renewals for exactly the renewals it names', async () => {
    const subscriptionId = await bought('monthly_usd');
    const taken = await take(subscriptionId, { action: 'discount', percent_off: 25, renewals: 2 });
    expect(taken.status).toBe(200);
    expect(taken.body.data).toEqual({
      status: 'active',
      renews_at: new Date(await firstRenewalOf(subscriptionId)).toISOString(),
      renewal_amount: 29.99,
      currency: 'USD',
      plan_id: 'monthly_usd',
      paused_until: null,
    });
    expect((await read(subscriptionId)).body.data).toMatchObject({ renewal_amount: 29.99 });

    expect(await renewedAmount(subscriptionId)).toBe(29.99);
    expect((await read(subscriptionId)).body.data).toMatchObject({ renewal_amount: 29.99 });
    expect(await renewedAmount(subscriptionId)).toBe(29.99);
    expect((await read(subscriptionId)).body.data).toMatchObject({ renewal_amount: 39.99 });
    expect(await renewedAmount(subscriptionId)).toBe(39.99);
  });

  it('leaves a failed renewal due at the discounted price, and its recovery uses one up', async () => {
    const subscriptionId = await bought('monthly_usd');
    await take(subscriptionId, { action: 'discount', percent_off: 50, renewals: 1 });
    const failed = await lifecycle(subscriptionId, 'renewal_failed');
    expect(failed).toMatchObject({ ok: true, body: { amount: 19.99, currency: 'USD' } });
    expect((await read(subscriptionId)).body.data).toMatchObject({ amount_due: 19.99 });
    // The renewal that pays the due is its recovery, at the due's price; then the full price.
    expect(await renewedAmount(subscriptionId)).toBe(19.99);
    expect((await read(subscriptionId)).body.data).toMatchObject({ renewal_amount: 39.99 });
  });
});

describe('a pause', () => {
  it('moves the next renewal by its months and refuses a renewal before its end', async () => {
    const subscriptionId = await bought('monthly_usd');
    const pausedUntil = new Date(addUtcMonths(await firstRenewalOf(subscriptionId), 2));
    const taken = await take(subscriptionId, { action: 'pause', months: 2 });
    expect(taken.status).toBe(200);
    expect(taken.body.data).toMatchObject({
      status: 'active',
      renews_at: pausedUntil.toISOString(),
      paused_until: pausedUntil.toISOString(),
      renewal_amount: 39.99,
      plan_id: 'monthly_usd',
    });
    expect((await read(subscriptionId)).body.data).toMatchObject({
      renews_at: pausedUntil.toISOString(),
      renewal_amount: 39.99,
    });

    const before = new Date(pausedUntil.getTime() - 1).toISOString();
    for (const type of ['renewal', 'renewal_failed'] as const) {
      expect(await lifecycle(subscriptionId, type, before)).toEqual({
        ok: false,
        error: `subscription ${subscriptionId} is paused until ${pausedUntil.toISOString()}: it renews then, not before`,
      });
    }
    expect(await renewedAmount(subscriptionId, pausedUntil.toISOString())).toBe(39.99);
  });
});

describe('a switch', () => {
  it('to a cheaper plan of the same role renews on it from then on', async () => {
    const subscriptionId = await bought('upsell_monthly_999_usd');
    const taken = await take(subscriptionId, {
      action: 'switch',
      plan_id: 'upsell_monthly_599_usd',
    });
    expect(taken.status).toBe(200);
    expect(taken.body.data).toMatchObject({
      plan_id: 'upsell_monthly_599_usd',
      renewal_amount: 5.99,
      currency: 'USD',
      paused_until: null,
    });
    expect((await read(subscriptionId)).body.data).toMatchObject({
      plan_id: 'upsell_monthly_599_usd',
      renewal_amount: 5.99,
    });
    expect(await renewedAmount(subscriptionId)).toBe(5.99);
    expect(await renewedAmount(subscriptionId)).toBe(5.99);
  });

  it.each([
    ['a dearer plan', 'upsell_monthly_799_usd', 'upsell_monthly_999_usd'],
    ['a plan of another role', 'monthly_usd', 'upsell_monthly_599_usd'],
    ['a plan in another currency', 'upsell_monthly_999_usd', 'upsell_monthly_599_eur'],
    ['a plan of another period', 'upsell_quarterly_999_usd', 'upsell_monthly_599_usd'],
    ['a plan outside the catalogue', 'upsell_monthly_999_usd', 'legacy_cheap_usd'],
  ])('to %s is refused 422 not_applicable, and changes nothing', async (_, from, to) => {
    const subscriptionId = await bought(from);
    const refused = await take(subscriptionId, { action: 'switch', plan_id: to });
    expect(refused).toMatchObject({ status: 422, body: { code: 'not_applicable' } });
    expect((await read(subscriptionId)).body.data).toMatchObject({ plan_id: from });
    // Refused, it took no offer: another may be taken.
    expect((await take(subscriptionId, { action: 'pause', months: 1 })).status).toBe(200);
  });
});

describe('one save offer in 12 months', () => {
  it('refuses a second 409 offer_taken; the same Idempotency-Key answers the first again', async () => {
    const subscriptionId = await bought('monthly_usd');
    const offer = { action: 'discount', percent_off: 30, renewals: 3 };
    const first = await take(subscriptionId, offer, 'saveOffer:link-1');
    expect(first.status).toBe(200);
    await renewedAmount(subscriptionId);

    const again = await take(subscriptionId, offer, 'saveOffer:link-1');
    expect(again).toEqual(first);
    const other = await take(subscriptionId, { action: 'pause', months: 1 }, 'saveOffer:link-2');
    expect(other).toMatchObject({ status: 409, body: { code: 'offer_taken' } });
    const changed = await take(subscriptionId, { action: 'pause', months: 1 }, 'saveOffer:link-1');
    expect(changed).toMatchObject({ status: 422, body: { code: 'idempotency_conflict' } });

    // What `npm run portal -- save-offers` lists: the one offer.
    const listed = (await listSaveOffers(env.PORTAL_DB)).filter(
      (row) => row.subscription_id === subscriptionId,
    );
    expect(listed).toMatchObject([
      { action: 'discount', percent_off: 30, renewals: 3, plan_before: 'monthly_usd' },
    ]);
  });

  it('takes another once the last is more than 12 months old', async () => {
    const subscriptionId = await bought('monthly_usd');
    await take(subscriptionId, { action: 'pause', months: 1 });
    const yearAgo = new Date(addUtcMonths(Date.now(), -12) - 1000).toISOString();
    await env.PORTAL_DB.prepare('UPDATE save_offers SET taken_at = ? WHERE subscription_id = ?')
      .bind(yearAgo, subscriptionId)
      .run();
    const taken = await take(subscriptionId, { action: 'discount', percent_off: 10, renewals: 1 });
    expect(taken.status).toBe(200);
  });

  it('two offers at once under two keys: one is taken, the other refused', async () => {
    const subscriptionId = await bought('monthly_usd');
    const answers = await Promise.all([
      take(subscriptionId, { action: 'pause', months: 1 }),
      take(subscriptionId, { action: 'pause', months: 2 }),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
  });
});

describe('refusals', () => {
  it('refuses an unsigned call, a wrongly signed one, and one signed for another subscription', async () => {
    const subscriptionId = await bought('monthly_usd');
    const other = await bought('monthly_usd');
    const body = JSON.stringify({ source: 'subscriber_page', action: 'pause', months: 1 });
    const unsigned = await callPortal(subscriberCallPath('saveOfferTake', subscriptionId), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'k' },
      body,
    });
    expect(unsigned.status).toBe(401);
    const wrong = await signed('saveOfferTake', subscriptionId, {
      body: JSON.parse(body),
      secret: 'not-the-key',
    });
    expect(wrong).toMatchObject({ status: 401, body: { code: 'bad_signature' } });
    // A signature over another subscription's path does not pass for this one.
    const path = subscriberCallPath('saveOfferTake', other);
    const signature = await signatureHeaderFor(
      env.LIFECYCLE_HMAC_KEY ?? '',
      Math.floor(Date.now() / 1000),
      subscriberCallText('POST', path, body),
    );
    const moved = await callPortal(subscriberCallPath('saveOfferTake', subscriptionId), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'idempotency-key': 'k',
        [LIFECYCLE_SIGNATURE_HEADER]: signature,
      },
      body,
    });
    expect(moved.status).toBe(401);
    expect((await read(subscriptionId)).body.data).toMatchObject({ renewal_amount: 39.99 });
    expect(await listSaveOffers(env.PORTAL_DB)).not.toContainEqual(
      expect.objectContaining({ subscription_id: subscriptionId }),
    );
  });

  it.each([
    ['a discount of 0%', { action: 'discount', percent_off: 0, renewals: 1 }],
    ['a discount over 12 renewals', { action: 'discount', percent_off: 10, renewals: 13 }],
    ['a pause of 4 months', { action: 'pause', months: 4 }],
    ['an unknown action', { action: 'upgrade' }],
    ['a field of no action', { action: 'pause', months: 1, percent_off: 10 }],
  ])('refuses %s 400', async (_, offer) => {
    const subscriptionId = await bought('monthly_usd');
    expect(await take(subscriptionId, offer)).toMatchObject({
      status: 400,
      body: { code: 'invalid_body' },
    });
  });

  it('refuses a call without an Idempotency-Key 400, and an unknown subscription 404', async () => {
    const subscriptionId = await bought('monthly_usd');
    const body = { source: 'subscriber_page', action: 'pause', months: 1 };
    const keyless = await signed('saveOfferTake', subscriptionId, { body, key: null });
    expect(keyless).toMatchObject({ status: 400, body: { code: 'invalid_body' } });
    const unknown = await signed('saveOfferTake', 'sub_unknown', { body });
    expect(unknown).toMatchObject({ status: 404, body: { code: 'not_found' } });
  });

  it('refuses a canceled subscription and a one-time plan 422 not_applicable', async () => {
    const canceled = await bought('monthly_usd');
    const cancel = await signed('subscriptionCancel', canceled, {
      body: { source: 'subscriber_page' },
    });
    expect(cancel.status).toBe(200);
    const guide = await bought('guide_899_usd');
    for (const subscriptionId of [canceled, guide]) {
      expect(
        await take(subscriptionId, { action: 'discount', percent_off: 20, renewals: 1 }),
      ).toMatchObject({ status: 422, body: { code: 'not_applicable' } });
    }
  });

  it('refuses a charged-back subscription 422 not_applicable', async () => {
    const subscriptionId = await bought('monthly_usd');
    const chargeback = await lifecycle(subscriptionId, 'chargeback');
    expect(chargeback.ok).toBe(true);
    expect(await take(subscriptionId, { action: 'pause', months: 1 })).toMatchObject({
      status: 422,
      body: { code: 'not_applicable' },
    });
  });
});
