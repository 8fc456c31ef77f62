import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import {
  DirectSubscriptionResponse,
  PollingResultResponse,
  PollingStartResponse,
} from '../../../shared/api/contract';
import {
  bearer,
  callPortal,
  failureOf,
  finalPollingResult,
  postJson,
  signUp,
} from './portal-client';

const CHARGE = {
  gateway: 'stripe',
  payment_method_nonce: 'pm_card_visa',
  coupon: null,
  payment_intent_id: null,
  // What the checkout sends: the plan data, whose `price` is the recurring price (39.99) of a
  // plan whose first charge is its 7-day intro (6.99).
  user_data: { price: '39.99', periodPrice: '6.99', currency: 'USD', uuid: 'visitor' },
};

const INTRO_PLAN = 'monthly_7d_intro_usd';

async function startPolling(accessToken: string, headers: Record<string, string> = {}) {
  const response = await postJson(`/users/me/subscriptions/polling/${INTRO_PLAN}`, CHARGE, {
    ...bearer(accessToken),
    ...headers,
  });
  expect(response.status).toBe(200);
  return PollingStartResponse.parse(await response.json()).data.polling_result_id;
}

function subscriptionsOf(userId: string) {
  return env.PORTAL_DB.prepare(
    'SELECT plan_id, gateway, status, price_with_discount FROM subscriptions WHERE user_id = ?',
  )
    .bind(userId)
    .all();
}

async function pollingResult(pollingId: string) {
  const response = await callPortal(`/polling/get-result/${pollingId}`);
  return { status: response.status, body: PollingResultResponse.parse(await response.json()) };
}

describe('POST /users/me/subscriptions/polling/{planId} and GET /polling/get-result/{id}', () => {
  it('answers 202 with no result until the charge is final, then 200 with it', async () => {
    const { accessToken, userId } = await signUp();
    const pollingId = await startPolling(accessToken);

    expect(await pollingResult(pollingId)).toEqual({
      status: 202,
      body: { data: { result_data: null } },
    });
    const final = await finalPollingResult(pollingId);
    expect(final.status).toBe(200);
    const [subscription] = (
      await env.PORTAL_DB.prepare('SELECT id, event_id FROM subscriptions WHERE user_id = ?')
        .bind(userId)
        .all<{ id: string; event_id: string }>()
    ).results;
    expect(final.body.data.result_data).toEqual({
      status: 'succeeded',
      subscription_id: subscription?.id,
      event_id: subscription?.event_id,
      price_with_discount: 6.99,
      payment_intent_secret: null,
      payment_intent_id: null,
      decline_code: null,
      processor_response: null,
      // What was charged, for the worker's server-verified purchase.
      plan_id: INTRO_PLAN,
      currency: 'USD',
      // Another gateway's nonce names no card the emulator knows.
      card_brand: null,
      card_last4: null,
    });
  });

  it('records the subscription with its plan, gateway and price', async () => {
    const { accessToken, userId } = await signUp();
    await startPolling(accessToken);
    expect((await subscriptionsOf(userId)).results).toEqual([
      {
        plan_id: INTRO_PLAN,
        gateway: 'stripe',
        status: 'active',
        price_with_discount: 6.99,
      },
    ]);
  });

  it('answers the same polling id for a repeated Idempotency-Key and charges once', async () => {
    const { accessToken, userId } = await signUp();
    const key = { 'idempotency-key': crypto.randomUUID() };

    const first = await startPolling(accessToken, key);
    const again = await startPolling(accessToken, key);
    const other = await startPolling(accessToken, { 'idempotency-key': crypto.randomUUID() });

    expect(again).toBe(first);
    expect(other).not.toBe(first);
    expect((await subscriptionsOf(userId)).results).toHaveLength(2);
  });

  it('charges once for two simultaneous requests with one Idempotency-Key', async () => {
    const { accessToken, userId } = await signUp();
    const key = { 'idempotency-key': crypto.randomUUID() };
    const [a, b] = await Promise.all([
      startPolling(accessToken, key),
      startPolling(accessToken, key),
    ]);
    expect(a).toBe(b);
    expect((await subscriptionsOf(userId)).results).toHaveLength(1);
  });

  it('charges again without an Idempotency-Key', async () => {
    const { accessToken, userId } = await signUp();
    expect(await startPolling(accessToken)).not.toBe(await startPolling(accessToken));
    expect((await subscriptionsOf(userId)).results).toHaveLength(2);
  });

  it('refuses an Idempotency-Key reused for another plan (422)', async () => {
    const { accessToken } = await signUp();
    const key = { 'idempotency-key': crypto.randomUUID() };
    await startPolling(accessToken, key);
    const response = await postJson('/users/me/subscriptions/polling/quarterly_usd', CHARGE, {
      ...bearer(accessToken),
      ...key,
    });
    expect(await failureOf(response)).toMatchObject({ status: 422, code: 'idempotency_conflict' });
  });

  it('answers 401 without a bearer token and charges nothing', async () => {
    const before = await env.PORTAL_DB.prepare('SELECT COUNT(*) AS n FROM subscriptions').first(
      'n',
    );
    const response = await postJson(`/users/me/subscriptions/polling/${INTRO_PLAN}`, CHARGE);
    expect(await failureOf(response)).toMatchObject({
      status: 401,
      messages: ['Unauthenticated.'],
    });
    expect(await env.PORTAL_DB.prepare('SELECT COUNT(*) AS n FROM subscriptions').first('n')).toBe(
      before,
    );
  });

  it('answers 400 for a body without user_data', async () => {
    const { accessToken } = await signUp();
    const response = await postJson(
      `/users/me/subscriptions/polling/${INTRO_PLAN}`,
      { gateway: 'stripe' },
      bearer(accessToken),
    );
    const failure = await failureOf(response);
    expect(failure).toMatchObject({ status: 400, code: 'invalid_body' });
    expect(failure.messages[0]).toMatch(/^user_data: /);
  });

  it('answers 404 for a polling id it never gave', async () => {
    expect(await failureOf(await callPortal('/polling/get-result/poll_unknown'))).toMatchObject({
      status: 404,
      code: 'not_found',
    });
    expect(await failureOf(await callPortal('/polling/get-result/not%20an%20id'))).toMatchObject({
      status: 404,
    });
  });

  it('answers 200 at once when PORTAL_POLLING_DELAY_MS is 0', async () => {
    const { accessToken } = await signUp();
    const pollingId = await startPolling(accessToken);
    // The delay is read when the charge starts; this one was made with the default.
    expect((await pollingResult(pollingId)).status).toBe(202);
    const quick = await callPortal(
      `/users/me/subscriptions/polling/${INTRO_PLAN}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...bearer(accessToken) },
        body: JSON.stringify(CHARGE),
      },
      { PORTAL_POLLING_DELAY_MS: '0' },
    );
    const quickId = PollingStartResponse.parse(await quick.json()).data.polling_result_id;
    expect((await pollingResult(quickId)).status).toBe(200);
  });
});

describe('the purchase id (ours, docs/product-api.md)', () => {
  const purchase = () => `pur_${crypto.randomUUID().replaceAll('-', '')}`;

  it('answers a later attempt of a paid purchase with its subscription, on either route', async () => {
    const { accessToken, userId } = await signUp();
    const body = { ...CHARGE, purchase_id: purchase() };
    const headers = () => ({ ...bearer(accessToken), 'idempotency-key': crypto.randomUUID() });
    const path = `/users/me/subscriptions/polling/${INTRO_PLAN}`;
    const first = PollingStartResponse.parse(await (await postJson(path, body, headers())).json());
    const again = PollingStartResponse.parse(await (await postJson(path, body, headers())).json());
    expect(again.data.polling_result_id).not.toBe(first.data.polling_result_id);
    const direct = await postJson(`/users/me/subscriptions/${INTRO_PLAN}`, body, headers());
    const paid = DirectSubscriptionResponse.parse(await direct.json()).data.subscription_id;

    const { results } = await env.PORTAL_DB.prepare(
      'SELECT id, purchase_id FROM subscriptions WHERE user_id = ?',
    )
      .bind(userId)
      .all<{ id: string; purchase_id: string }>();
    expect(results).toEqual([{ id: paid, purchase_id: body.purchase_id }]);
    const later = await finalPollingResult(again.data.polling_result_id);
    expect(later.body.data.result_data?.subscription_id).toBe(paid);
  });

  it('charges another purchase of the same plan apart', async () => {
    const { accessToken, userId } = await signUp();
    const body = { ...CHARGE, purchase_id: purchase() };
    const headers = () => ({ ...bearer(accessToken), 'idempotency-key': crypto.randomUUID() });
    const path = '/users/me/subscriptions/monthly_usd';
    expect((await postJson(path, body, headers())).status).toBe(200);
    expect((await postJson(path, { ...body, purchase_id: purchase() }, headers())).status).toBe(
      200,
    );
    expect((await subscriptionsOf(userId)).results).toHaveLength(2);
  });
});

describe('POST /users/me/subscriptions/{planId}', () => {
  it('charges at once and answers the subscription', async () => {
    const { accessToken, userId } = await signUp();
    const response = await postJson(
      '/users/me/subscriptions/monthly_usd',
      {
        ...CHARGE,
        gateway: 'braintree',
        payment_method_nonce: 'fake-valid-nonce',
        user_data: { price: 39.99 },
      },
      bearer(accessToken),
    );
    expect(response.status).toBe(200);
    const { data } = DirectSubscriptionResponse.parse(await response.json());
    const stored = await env.PORTAL_DB.prepare(
      'SELECT id, event_id, gateway, price_with_discount FROM subscriptions WHERE user_id = ?',
    )
      .bind(userId)
      .first();
    expect(data).toEqual({
      customer_id: `cus_${userId}`,
      subscription_id: stored?.id,
      event_id: stored?.event_id,
      price_with_discount: 39.99,
      plan_id: 'monthly_usd',
      currency: 'USD',
      card_brand: null,
      card_last4: null,
    });
    expect(stored).toMatchObject({ gateway: 'braintree', price_with_discount: 39.99 });
  });

  it('charges the catalogue price, whatever price the plan data names', async () => {
    const { accessToken, userId } = await signUp();
    const charge = (price: unknown) =>
      postJson(
        '/users/me/subscriptions/monthly_usd',
        { ...CHARGE, user_data: { price } },
        bearer(accessToken),
      );
    const answered = [];
    for (const price of ['0.01', 0, 'free', undefined]) {
      const response = await charge(price);
      answered.push(
        DirectSubscriptionResponse.parse(await response.json()).data.price_with_discount,
      );
    }
    expect(answered).toEqual([39.99, 39.99, 39.99, 39.99]);
    const stored = (await subscriptionsOf(userId)).results.map((row) => row.price_with_discount);
    expect(stored).toEqual([39.99, 39.99, 39.99, 39.99]);
  });

  it("charges an intro plan's intro price on the direct call too", async () => {
    const { accessToken } = await signUp();
    const response = await postJson(
      `/users/me/subscriptions/${INTRO_PLAN}`,
      CHARGE,
      bearer(accessToken),
    );
    expect(DirectSubscriptionResponse.parse(await response.json()).data).toMatchObject({
      price_with_discount: 6.99,
      plan_id: INTRO_PLAN,
    });
  });

  it('takes a catalogue coupon off the plans it applies to, and nothing else', async () => {
    const { accessToken } = await signUp();
    const priceOf = async (plan: string, coupon: string | null) => {
      const response = await postJson(
        `/users/me/subscriptions/${plan}`,
        { ...CHARGE, coupon, user_data: { price: '9.99' } },
        bearer(accessToken),
      );
      return DirectSubscriptionResponse.parse(await response.json()).data.price_with_discount;
    };
    // SPEC.md §1: the private upsell is sold at 30% off, as its order summary shows.
    expect(await priceOf('upsell_monthly_999_usd', 'upsell_30')).toBe(6.99);
    expect(await priceOf('upsell_monthly_999_usd', null)).toBe(9.99);
    expect(await priceOf('upsell_monthly_999_usd', 'made_up_90')).toBe(9.99);
    expect(await priceOf('monthly_usd', 'upsell_30')).toBe(39.99);
  });

  it('refuses a plan the catalogue does not know (404) and charges nothing', async () => {
    const { accessToken, userId } = await signUp();
    for (const path of [
      '/users/me/subscriptions/monthly_7d_usd',
      '/users/me/subscriptions/polling/plan_1',
    ]) {
      expect(await failureOf(await postJson(path, CHARGE, bearer(accessToken)))).toEqual({
        status: 404,
        code: 'not_found',
        messages: ['This plan is not known.'],
      });
    }
    expect((await subscriptionsOf(userId)).results).toEqual([]);
  });

  it('answers the first subscription for a repeated Idempotency-Key', async () => {
    const { accessToken, userId } = await signUp();
    const headers = { ...bearer(accessToken), 'idempotency-key': crypto.randomUUID() };
    const charge = () => postJson('/users/me/subscriptions/monthly_usd', CHARGE, headers);
    const first = DirectSubscriptionResponse.parse(await (await charge()).json());
    const again = DirectSubscriptionResponse.parse(await (await charge()).json());
    expect(again).toEqual(first);
    expect((await subscriptionsOf(userId)).results).toHaveLength(1);
  });

  it('answers 401 without a bearer token', async () => {
    const response = await postJson('/users/me/subscriptions/monthly_usd', CHARGE);
    expect((await failureOf(response)).status).toBe(401);
  });
});
