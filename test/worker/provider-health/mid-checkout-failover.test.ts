import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeEach, describe, expect, it } from 'vitest';
import { switchFaultOn, switchFaultOnUntil } from '../../../portal/faults';
import { ApiErrorBody, PollingStartResponse } from '../../../shared/api/contract';
import { PROVIDER_SWITCH_PATH } from '../../../shared/api/payment-provider-paths';
import { MIN_SAMPLE } from '../../../worker/provider-health/health-window';
import {
  forgetProviderHealth,
  recordProviderCall,
} from '../../../worker/provider-health/provider-health';
import { captureLogsPerTest } from '../api/log-capture';
import { freshApp } from '../fetch-app';
import { freshStorage } from '../fresh-storage';
import {
  checkoutVisitor,
  PLAN,
  PLAN_DATA,
  TICKED_RENEWAL_CONSENT,
} from '../purchases/checkout-visitor';
import { CARDS } from '../test-gateway/gateway-client';

/**
 * docs/payments.md "A visitor already paying when the provider fails": a visitor pinned to Stripe
 * whose charge Stripe keeps failing is not left on 'Confirming…'. Their resend makes the worker
 * ask the product API to close the attempt; closed unpaid, it answers with the other provider's
 * offer, and the card typed again on that form is charged once. Through the development worker,
 * the embedded portal's provider fakes and the real ledger, governor and health objects.
 */

const HOUR = 60 * 60 * 1000;
const logs = captureLogsPerTest();
const fetchApp = freshApp({}, { PORTAL_POLLING_DELAY_MS: '0' });
let visitors = 0;

beforeEach(async () => {
  await freshStorage();
  forgetProviderHealth();
});

/** A visitor signed up and given Stripe, before Stripe turned failing. */
async function pinnedToStripe() {
  visitors += 1;
  const visitor = checkoutVisitor({ fetchApp, ip: `10.70.0.${visitors}` });
  await visitor.signUp();
  const settings = await visitor.call('/api/users/me/payments-settings');
  expect(await settings.json()).toMatchObject({ payment_provider: 'stripe' });
  return visitor;
}

/** Stripe failing for everyone: MIN_SAMPLE technical failures in its window. */
async function stripeFailing() {
  for (let n = 0; n < MIN_SAMPLE; n += 1) {
    const request = { now: Date.now(), requestId: crypto.randomUUID() };
    await recordProviderCall(env, 'stripe', { failed: true, source: 'test' }, request);
  }
}

/**
 * Stripe failing for everyone and failing this visitor's charge before it charges: their first
 * POST and the page's resend under the same key, which closes the attempt unpaid.
 */
async function stuckOnStripe(visitor: ReturnType<typeof checkoutVisitor>) {
  await stripeFailing();
  await switchFaultOnUntil(env.PORTAL_DB, 'charge-stripe', Date.now() + HOUR, 'before');
  const nonce = await visitor.tokenize(CARDS.succeeds);
  const key = crypto.randomUUID();
  expect((await visitor.subscribe(nonce, key)).status).toBe(500);
  return { nonce, key, resent: await visitor.subscribe(nonce, key) };
}

async function activeCharges(): Promise<{ payment_method: string }[]> {
  const { results } = await env.PORTAL_DB.prepare(
    "SELECT payment_method FROM subscriptions WHERE status = 'active'",
  ).all<{ payment_method: string }>();
  return results;
}

async function codeOf(response: Response) {
  return { status: response.status, code: ApiErrorBody.parse(await response.json()).code };
}

function payDirect(visitor: ReturnType<typeof checkoutVisitor>, nonce: string) {
  return visitor.call(
    `/api/users/me/subscriptions/${PLAN}`,
    {
      gateway: 'test',
      payment_method_nonce: nonce,
      user_data: PLAN_DATA,
      renewal_consent: TICKED_RENEWAL_CONSENT,
    },
    { 'idempotency-key': crypto.randomUUID() },
  );
}

describe('a visitor already paying when their provider fails', () => {
  it('is offered the other provider once nothing was charged, and pays there once', async () => {
    const visitor = await pinnedToStripe();
    const { nonce, key, resent } = await stuckOnStripe(visitor);
    // The page asks again under the same key: the attempt is closed unpaid, the offer made.
    expect(await codeOf(resent)).toEqual({
      status: 424,
      code: 'provider_failed_other_offered',
    });
    expect(await activeCharges()).toEqual([]);
    expect(logs.requests()).toContainEqual(
      expect.objectContaining({ event: 'provider_cascade_offered', reason: 'provider_failing' }),
    );

    const moved = await visitor.call(PROVIDER_SWITCH_PATH, {});
    expect(await moved.json()).toEqual({ payment_provider: 'braintree' });
    // The card typed again on the other provider's form: a new nonce, charged once.
    const retyped = await visitor.tokenize(CARDS.succeeds);
    expect((await payDirect(visitor, retyped)).status).toBe(200);
    expect(await activeCharges()).toEqual([{ payment_method: retyped }]);

    // Stripe back, an old tab asks the closed attempt again: nothing more is charged.
    await switchFaultOn(env.PORTAL_DB, 'charge-stripe', 0);
    expect((await visitor.subscribe(nonce, key)).status).toBeGreaterThanOrEqual(400);
    expect(await activeCharges()).toHaveLength(1);
  });

  it('is not offered anything when the lost answer was a charge: it is answered once Stripe is back', async () => {
    const visitor = await pinnedToStripe();
    await stripeFailing();
    await switchFaultOnUntil(env.PORTAL_DB, 'charge-stripe', Date.now() + HOUR, 'after');
    const nonce = await visitor.tokenize(CARDS.succeeds);
    const key = crypto.randomUUID();
    expect((await visitor.subscribe(nonce, key)).status).toBe(500);
    // Charged before the answer was lost: the close says so, and the resend goes on as before.
    expect((await visitor.subscribe(nonce, key)).status).toBe(500);
    expect(logs.warnings()).toContainEqual(
      expect.objectContaining({ warning: 'charge_attempt_closed', answer: 'charged' }),
    );
    expect((await visitor.call(PROVIDER_SWITCH_PATH, {})).status).toBe(409);
    expect(await codeOf(await payDirect(visitor, await visitor.tokenize(CARDS.succeeds)))).toEqual({
      status: 409,
      code: 'purchase_confirming',
    });

    await switchFaultOn(env.PORTAL_DB, 'charge-stripe', 0);
    const [result] = await visitor.poll(await visitor.subscribe(nonce, key));
    expect(result?.status).toBe('succeeded');
    expect(await activeCharges()).toHaveLength(1);
  });

  it('keeps waiting, offered nothing, while the product API cannot say whether it charged', async () => {
    const visitor = await pinnedToStripe();
    await stripeFailing();
    await switchFaultOnUntil(env.PORTAL_DB, 'charge-stripe', Date.now() + HOUR, 'before');
    await switchFaultOnUntil(env.PORTAL_DB, 'attempts-close', Date.now() + HOUR, 'before');
    const nonce = await visitor.tokenize(CARDS.succeeds);
    const key = crypto.randomUUID();
    expect((await visitor.subscribe(nonce, key)).status).toBe(500);
    expect((await visitor.subscribe(nonce, key)).status).toBe(500);
    expect(logs.warnings()).toContainEqual(
      expect.objectContaining({ warning: 'charge_attempt_closed', answer: 'unknown' }),
    );
    expect((await visitor.call(PROVIDER_SWITCH_PATH, {})).status).toBe(409);
    expect(await codeOf(await payDirect(visitor, await visitor.tokenize(CARDS.succeeds)))).toEqual({
      status: 409,
      code: 'purchase_confirming',
    });
  });

  it("an upsell on the card on file is offered the other provider's form, and the card typed again pays it once", async () => {
    const visitor = await pinnedToStripe();
    const [main] = await visitor.poll(
      await visitor.subscribe(await visitor.tokenize(CARDS.succeeds)),
    );
    expect(main?.status).toBe('succeeded');
    await stripeFailing();
    await switchFaultOnUntil(env.PORTAL_DB, 'charge-stripe', Date.now() + HOUR, 'before');
    const key = crypto.randomUUID();
    const upsell = () => visitor.subscribe(null, key, 'upsell_monthly_999_usd', {}, 'upsell_30');
    const first = await upsell();
    expect(first.status, await first.clone().text()).toBe(500);
    // The card on file stays with Stripe; Braintree's form takes the card typed again.
    expect(await codeOf(await upsell())).toEqual({
      status: 424,
      code: 'provider_failed_other_offered',
    });
    expect(await activeCharges()).toHaveLength(1);
    const moved = await visitor.call(PROVIDER_SWITCH_PATH, {});
    expect(await moved.json()).toEqual({ payment_provider: 'braintree' });
    const retyped = await visitor.tokenize(CARDS.succeeds);
    const paid = await visitor.call(
      '/api/users/me/subscriptions/upsell_monthly_999_usd',
      {
        gateway: 'test',
        payment_method_nonce: retyped,
        coupon: 'upsell_30',
        user_data: {},
        renewal_consent: TICKED_RENEWAL_CONSENT,
      },
      { 'idempotency-key': crypto.randomUUID() },
    );
    expect(paid.status, await paid.clone().text()).toBe(200);
    expect((await activeCharges()).map((row) => row.payment_method)).toContain(retyped);
    expect(await activeCharges()).toHaveLength(2);
    // The stuck attempt, asked again: nothing more is charged.
    expect((await upsell()).status).toBeGreaterThanOrEqual(400);
    expect(await activeCharges()).toHaveLength(2);
  });

  it('an upsell after a checkout that moved to Braintree is offered Stripe back when Braintree fails', async () => {
    // The checkout's one move: Stripe failed mid-checkout, the card typed again on Braintree.
    const visitor = await pinnedToStripe();
    expect((await codeOf((await stuckOnStripe(visitor)).resent)).code).toBe(
      'provider_failed_other_offered',
    );
    expect(await (await visitor.call(PROVIDER_SWITCH_PATH, {})).json()).toEqual({
      payment_provider: 'braintree',
    });
    expect((await payDirect(visitor, await visitor.tokenize(CARDS.succeeds))).status).toBe(200);

    // Stripe's outage over, its cool-down and probes passed (its health object starts afresh);
    // Braintree, which keeps the card on file, now failing.
    await switchFaultOn(env.PORTAL_DB, 'charge-stripe', 0);
    const stripeHealth = env.PROVIDER_HEALTH.get(env.PROVIDER_HEALTH.idFromName('provider:stripe'));
    await runInDurableObject(stripeHealth, (_, state) => state.storage.deleteAll());
    forgetProviderHealth();
    for (let n = 0; n < MIN_SAMPLE; n += 1) {
      const request = { now: Date.now(), requestId: crypto.randomUUID() };
      await recordProviderCall(env, 'braintree', { failed: true, source: 'test' }, request);
    }
    await switchFaultOnUntil(env.PORTAL_DB, 'charge-braintree', Date.now() + HOUR, 'before');
    // Braintree's upsell is its direct call, on the card on file (SPEC.md §7).
    const upsellKey = crypto.randomUUID();
    const upsellBody = (nonce: string | null) => ({
      gateway: 'test',
      payment_method_nonce: nonce,
      coupon: 'upsell_30',
      user_data: {},
      renewal_consent: TICKED_RENEWAL_CONSENT,
    });
    const upsell = () =>
      visitor.call('/api/users/me/subscriptions/upsell_monthly_999_usd', upsellBody(null), {
        'idempotency-key': upsellKey,
      });
    const stuck = await upsell();
    expect(stuck.status, await stuck.clone().text()).toBe(500);
    expect(await codeOf(await upsell())).toEqual({
      status: 424,
      code: 'provider_failed_other_offered',
    });
    expect(await (await visitor.call(PROVIDER_SWITCH_PATH, {})).json()).toEqual({
      payment_provider: 'stripe',
    });
    // Stripe's form takes the card typed again: one upsell, charged once.
    const retyped = await visitor.tokenize(CARDS.succeeds);
    const [paid] = await visitor.poll(
      await visitor.subscribe(
        retyped,
        crypto.randomUUID(),
        'upsell_monthly_999_usd',
        {},
        'upsell_30',
      ),
    );
    expect(paid?.status).toBe('succeeded');
    expect((await activeCharges()).map((row) => row.payment_method)).toContain(retyped);
    expect(await activeCharges()).toHaveLength(2);
    expect((await upsell()).status).toBeGreaterThanOrEqual(400);
    expect(await activeCharges()).toHaveLength(2);
  });

  it('closes nothing while its provider is healthy and the attempt is young', async () => {
    const visitor = await pinnedToStripe();
    await switchFaultOn(env.PORTAL_DB, 'charge-stripe', 1);
    const nonce = await visitor.tokenize(CARDS.succeeds);
    const key = crypto.randomUUID();
    expect((await visitor.subscribe(nonce, key)).status).toBe(500);
    const resent = await visitor.subscribe(nonce, key);
    expect(resent.status).toBe(200);
    PollingStartResponse.parse(await resent.json());
    expect(logs.warnings().filter((line) => line.warning === 'charge_attempt_closed')).toEqual([]);
  });
});
