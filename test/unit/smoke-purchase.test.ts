import { describe, expect, it } from 'vitest';
import { purchaseCheck } from '../../scripts/smoke/purchase';
import { smokeVisitor } from '../../scripts/smoke/visitor';
import type { PaymentSettingsResponse } from '../../shared/api/contract';

/**
 * `npm run smoke`'s purchase (scripts/smoke/purchase.ts), against a fake worker: live keys charge
 * nothing and an offer that does not sell the plan asks for `--plan`. Its charge through the
 * built development worker is smoke-cli.test.ts's.
 */

const ORIGIN = 'https://funnel.example.com';

/** What a fake worker answers, by method and path; 404 for anything else. */
type Answers = Record<string, { status?: number; body: unknown }>;

/** A fake worker's fetch, and every call it saw (`POST /api/signup`). */
function fakeWorker(answers: Answers) {
  const seen: string[] = [];
  const sent = new Map<string, { headers: Headers; body: unknown }>();
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    const call = `${init?.method ?? 'GET'} ${url.pathname}`;
    seen.push(call);
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : null;
    sent.set(call, { headers: new Headers(init?.headers), body });
    const answer = answers[call] ?? { status: 404, body: { errors: { messages: [] } } };
    return Response.json(answer.body, { status: answer.status ?? 200 });
  }) as typeof globalThis.fetch;
  return { fetch, seen, sent };
}

function settings(overrides: Partial<PaymentSettingsResponse>): PaymentSettingsResponse {
  return {
    stripe_publishable_key: null,
    stripe_account_name: null,
    braintree_client_token: null,
    payment_gateway: 'stripe',
    request_three_d_secure: false,
    ...overrides,
  };
}

/** The fake's sign-up and payment settings, answering `paymentSettings`. */
function signedUpWith(paymentSettings: PaymentSettingsResponse): Answers {
  return {
    'POST /api/signup': {
      body: { data: { deeplink_token: 't', entity: { external_user_id: 'u-1' } } },
    },
    'GET /api/users/me/payments-settings': { body: paymentSettings },
    'GET /api/cf-country': { body: { country_code: 'US' } },
  };
}

const POLLING_POST = /^POST \/api\/users\/me\/subscriptions\//;

describe('the smoke’s purchase', () => {
  it('charges nothing with Stripe’s live key, and passes as skipped', async () => {
    const fake = fakeWorker(signedUpWith(settings({ stripe_publishable_key: 'pk_live_abc' })));
    const outcome = await purchaseCheck(smokeVisitor(ORIGIN, fake.fetch), {});
    expect(outcome).toEqual({
      result: {
        name: expect.any(String),
        ok: true,
        detail: 'skipped: live payment keys (stripe), so no test charge; run it against staging',
      },
      subscriptionId: null,
    });
    expect(fake.seen.filter((call) => POLLING_POST.test(call))).toEqual([]);
  });

  it('charges nothing with a Braintree production token, and passes as skipped', async () => {
    const token = btoa(
      JSON.stringify({ environment: 'production', authorizationFingerprint: 'f' }),
    );
    const fake = fakeWorker(
      signedUpWith(settings({ payment_gateway: 'braintree', braintree_client_token: token })),
    );
    const outcome = await purchaseCheck(smokeVisitor(ORIGIN, fake.fetch), {});
    expect(outcome.result).toMatchObject({ ok: true });
    expect(outcome.result.detail).toBe(
      'skipped: live payment keys (braintree), so no test charge; run it against staging',
    );
    expect(fake.seen.filter((call) => POLLING_POST.test(call))).toEqual([]);
  });

  it('pays Braintree’s sandbox by the direct call, as the checkout’s alternate provider does', async () => {
    const token = btoa(JSON.stringify({ environment: 'sandbox', authorizationFingerprint: 'f' }));
    const direct = 'POST /api/users/me/subscriptions/monthly_7d_intro_usd';
    const fake = fakeWorker({
      ...signedUpWith(settings({ payment_gateway: 'braintree', braintree_client_token: token })),
      [direct]: {
        body: { data: { subscription_id: 'sub_bt_1', plan_id: 'monthly_7d_intro_usd' } },
      },
    });
    const outcome = await purchaseCheck(smokeVisitor(ORIGIN, fake.fetch), {});
    expect(outcome).toMatchObject({ result: { ok: true }, subscriptionId: 'sub_bt_1' });
    expect(outcome.result.detail).toBe(
      'charged monthly_7d_intro_usd (6.99 USD) through gateway braintree (direct route): subscription sub_bt_1',
    );
    // Never the polling call, which the worker takes for Stripe's.
    expect(fake.seen.filter((call) => call.includes('/polling/'))).toEqual([]);
    const request = fake.sent.get(direct);
    expect(request?.body).toMatchObject({
      gateway: 'braintree',
      payment_method_nonce: 'fake-valid-nonce',
      coupon: null,
      user_data: { id: 'monthly_7d_intro_usd', currency: 'USD', periodPrice: '6.99' },
    });
    expect(request?.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);
    expect(request?.headers.get('user-agent')).toBe('geofunnel-smoke');
  });

  it('tells the operator to pass --plan when the deploy’s offer does not sell the plan', async () => {
    const fake = fakeWorker({
      ...signedUpWith(settings({ stripe_publishable_key: 'pk_test_abc' })),
      'POST /api/users/me/subscriptions/polling/monthly_7d_intro_usd': {
        status: 403,
        body: { errors: { messages: [] }, code: 'plan_not_offered' },
      },
    });
    const outcome = await purchaseCheck(smokeVisitor(ORIGIN, fake.fetch), {});
    expect(outcome.subscriptionId).toBeNull();
    expect(outcome.result.ok).toBe(false);
    expect(outcome.result.detail).toMatch(
      /^subscribe: \/api\/users\/me\/subscriptions\/polling\/monthly_7d_intro_usd answered 403 plan_not_offered: .*pass --plan <id>/,
    );
    expect(outcome.result.detail).not.toContain('\n');
  });
});
