import { env } from 'cloudflare:workers';
import { beforeEach, describe, expect, it } from 'vitest';
import { switchFaultOn, switchFaultOnUntil } from '../../../portal/faults';
import { PaymentSettingsResponse, PollingStartResponse } from '../../../shared/api/contract';
import {
  PROVIDER_SWITCH_PATH,
  PROVIDER_UNAVAILABLE_PATH,
} from '../../../shared/api/payment-provider-paths';
import type { ChargeProvider } from '../../../shared/charge-outcome';
import { seededRandom } from '../../../shared/seeded-random';
import { COOL_DOWN_MS, MIN_SAMPLE } from '../../../worker/provider-health/health-window';
import {
  forgetProviderHealth,
  providerHealth,
  recordProviderCall,
  routeByHealth,
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
 * docs/payments.md "A failing provider routed around". The promise: with one provider
 * failing every charge, at least 99% of 200 new checkouts are served by the other, and traffic
 * returns once it recovers. The load runs the worker's own routing and the real health Durable
 * Objects in workerd, one checkout after another as the payment settings relay routes it and the
 * charge relay counts its answer; the visitor ids are seeded, so which of them fall in the probe
 * share is the same on every run. The relay itself (a charge's 5xx counted, the pin, the script
 * reports) is walked through the development worker and the embedded portal below.
 */

let clock = Date.parse('2026-11-28T03:00:00Z');
const ids = seededRandom(60);

function seededUuid(): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(ids() * 16).toString(16)).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20)}`;
}

const request = () => ({ now: clock, requestId: crypto.randomUUID() });

/**
 * `count` new checkouts: each routed as the payment settings relay routes it, then charged on
 * its provider, which fails technically while `failing` names it. Answers who served each.
 */
async function load(count: number, failing: ChargeProvider | null) {
  const served: { provider: ChargeProvider; paid: boolean }[] = [];
  for (let n = 0; n < count; n += 1) {
    const route = await routeByHealth(
      env,
      { preferred: 'stripe', usable: ['stripe', 'braintree'] },
      request(),
    );
    const failed = route.provider === failing;
    await recordProviderCall(
      env,
      route.provider,
      { failed, source: 'pollingSubscription' },
      request(),
    );
    served.push({ provider: route.provider, paid: !failed });
  }
  return served;
}

const servedBy = (served: { provider: ChargeProvider; paid: boolean }[], by: ChargeProvider) =>
  served.filter((each) => each.provider === by && each.paid).length;

const logs = captureLogsPerTest();

beforeEach(async () => {
  await freshStorage();
  forgetProviderHealth();
});

describe('a failing card provider routed around (a load of new checkouts)', () => {
  it('serves 99% of 200 new checkouts by the other provider while one fails, and returns after', async () => {
    // Until the window holds MIN_SAMPLE calls, checkouts go to the product API's own provider.
    const seen = await load(MIN_SAMPLE, 'stripe');
    expect(seen.every((each) => each.provider === 'stripe')).toBe(true);
    expect(logs.errors()).toContainEqual(
      expect.objectContaining({ error: 'provider_health_changed', provider: 'stripe' }),
    );

    const during = await load(200, 'stripe');
    expect(servedBy(during, 'braintree') / during.length).toBeGreaterThanOrEqual(0.99);
    // The probes: the failing provider still sees a few, so its recovery can be seen.
    expect(during.some((each) => each.provider === 'stripe')).toBe(true);

    // Recovered: once the cool-down has passed, the probes succeed and bring it back.
    clock += COOL_DOWN_MS + 1_000;
    const after = await load(100, null);
    const back = after.findIndex((_, index) =>
      after.slice(index).every((later) => later.provider === 'stripe'),
    );
    expect(back).toBeGreaterThan(-1);
    expect(after.length - back).toBeGreaterThanOrEqual(50);
    expect(logs.warnings()).toContainEqual(
      expect.objectContaining({ warning: 'provider_health_changed', failing: false }),
    );
  });

  it('keeps every checkout on the product API provider when the other fails too', async () => {
    await load(MIN_SAMPLE, 'stripe');
    for (let n = 0; n < MIN_SAMPLE; n += 1) {
      await recordProviderCall(env, 'braintree', { failed: true, source: 'test' }, request());
    }
    const served = await load(20, null);
    expect(served.every((each) => each.provider === 'stripe')).toBe(true);
  });
});

describe('the relay of payment settings and charges', () => {
  const fetchApp = freshApp({ now: () => clock }, { PORTAL_POLLING_DELAY_MS: '0' });
  let visitors = 0;

  /** A new visitor from an address of its own (the sign-up limit is per address). */
  function newVisitor(ip?: string) {
    visitors += 1;
    const address = ip ?? `10.60.${visitors >> 8}.${visitors & 255}`;
    return checkoutVisitor({ fetchApp, visitorId: seededUuid(), ip: address });
  }

  async function providerGiven(visitor: ReturnType<typeof newVisitor>) {
    const answer = await visitor.call('/api/users/me/payments-settings');
    expect(answer.status).toBe(200);
    return PaymentSettingsResponse.parse(await answer.json()).payment_provider;
  }

  it("counts a charge's 5xx against its provider, and never moves a visitor already given one", async () => {
    const pinned = newVisitor();
    await pinned.signUp();
    expect(await providerGiven(pinned)).toBe('stripe');

    // The embedded portal reads the wall clock, not the worker's `clock`.
    await switchFaultOnUntil(env.PORTAL_DB, 'charge-stripe', Date.now() + 3_600_000, 'before');
    const started = await pinned.subscribe(await pinned.tokenize('4242 4242 4242 4242'));
    expect(started.status).toBe(500);
    expect(await providerHealth(env, 'stripe', request())).toMatchObject({ calls: 1, failures: 1 });

    for (let n = 1; n < MIN_SAMPLE; n += 1) {
      await recordProviderCall(env, 'stripe', { failed: true, source: 'test' }, request());
    }
    const fresh = newVisitor();
    await fresh.signUp();
    expect(await providerGiven(fresh)).toBe('braintree');
    // The visitor given Stripe before keeps it on a reload: a checkout under way is not moved.
    expect(await providerGiven(pinned)).toBe('stripe');
  });

  it("does not count the product API's failures to answer a poll against the provider", async () => {
    const visitor = newVisitor();
    await visitor.signUp();
    await providerGiven(visitor);
    const started = await visitor.subscribe(await visitor.tokenize('4242 4242 4242 4242'));
    const { data } = PollingStartResponse.parse(await started.json());
    await switchFaultOn(env.PORTAL_DB, 'polling-result', 5);
    for (let n = 0; n < 5; n += 1) {
      const polled = await visitor.call(`/api/polling/get-result/${data.polling_result_id}`);
      expect(polled.status).toBe(500);
    }
    expect(await providerHealth(env, 'stripe', request())).toMatchObject({ calls: 1, failures: 0 });
  });

  it('counts a script failure once per visitor and three times per address', async () => {
    const sameAddress = [];
    for (let n = 0; n < 4; n += 1) {
      const visitor = newVisitor('10.61.0.1');
      await visitor.signUp();
      expect(await providerGiven(visitor)).toBe('stripe');
      sameAddress.push(visitor);
    }
    const first = [];
    for (const visitor of sameAddress) {
      first.push((await visitor.call(PROVIDER_UNAVAILABLE_PATH, { provider: 'stripe' })).status);
    }
    expect(first).toEqual([202, 202, 202, 429]);
    const [bot] = sameAddress;
    if (!bot) throw new Error('no visitor');
    for (let n = 0; n < 5; n += 1) {
      expect((await bot.call(PROVIDER_UNAVAILABLE_PATH, { provider: 'stripe' })).status).toBe(429);
    }
    // A provider the visitor was not given is not theirs to report: nothing is counted.
    const elsewhere = newVisitor();
    await elsewhere.signUp();
    await providerGiven(elsewhere);
    expect(
      (await elsewhere.call(PROVIDER_UNAVAILABLE_PATH, { provider: 'braintree' })).status,
    ).toBe(202);
    expect(await providerHealth(env, 'stripe', request())).toMatchObject({ failures: 3 });
    expect(await providerHealth(env, 'braintree', request())).toMatchObject({ failures: 0 });
  });
});

describe("the other provider's form after a decline (docs/payments.md)", () => {
  const fetchApp = freshApp({ now: () => clock }, { PORTAL_POLLING_DELAY_MS: '0' });

  async function declinedWith(card: string) {
    const visitor = checkoutVisitor({ fetchApp, visitorId: seededUuid(), ip: '10.62.0.1' });
    await visitor.signUp();
    await visitor.call('/api/users/me/payments-settings');
    const { result } = await visitor.pay(card);
    expect(result?.status).toBe('failed');
    const page = await (await visitor.call('/payment_declined?decline=do_not_honour')).text();
    return { visitor, offered: page.includes('Pay with another payment form') };
  }

  const payDirect = async (visitor: ReturnType<typeof checkoutVisitor>) =>
    visitor.call(
      `/api/users/me/subscriptions/${PLAN}`,
      {
        gateway: 'test',
        payment_method_nonce: await visitor.tokenize(CARDS.succeeds),
        user_data: PLAN_DATA,
        renewal_consent: TICKED_RENEWAL_CONSENT,
      },
      { 'idempotency-key': crypto.randomUUID() },
    );

  it('offers it once after do not honour, and the other provider charges', async () => {
    const { visitor, offered } = await declinedWith(CARDS.genericDecline);
    expect(offered).toBe(true);
    const moved = await visitor.call(PROVIDER_SWITCH_PATH, {});
    expect(await moved.json()).toEqual({ payment_provider: 'braintree' });
    expect((await payDirect(visitor)).status).toBe(200);
    // Spent: no second move, and the first provider is not charged behind the pin's back.
    expect((await visitor.call(PROVIDER_SWITCH_PATH, {})).status).toBe(409);
    expect((await visitor.subscribe(await visitor.tokenize(CARDS.succeeds))).status).toBe(403);
  });

  it('not while the other provider is failing itself', async () => {
    for (let n = 0; n < MIN_SAMPLE; n += 1) {
      await recordProviderCall(env, 'braintree', { failed: true, source: 'test' }, request());
    }
    const { visitor, offered } = await declinedWith(CARDS.genericDecline);
    expect(offered).toBe(false);
    expect((await visitor.call(PROVIDER_SWITCH_PATH, {})).status).toBe(409);
  });

  it('never after a hard decline: no offer, no switch, no charge on the other provider', async () => {
    const { visitor, offered } = await declinedWith(CARDS.expired);
    expect(offered).toBe(false);
    expect((await visitor.call(PROVIDER_SWITCH_PATH, {})).status).toBe(409);
    const refused = await payDirect(visitor);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'provider_not_offered' });
  });
});

describe("the card providers' fakes: timeouts before and after the charge", () => {
  // The worker waits 300 ms for the product API here; the fake answers 800 ms late.
  const fetchApp = freshApp(
    { now: () => clock },
    { PORTAL_POLLING_DELAY_MS: '0', PORTAL_TIMEOUT_MS: '300' },
  );
  const chargesOf = async (userId: string) =>
    (
      await env.PORTAL_DB.prepare('SELECT count(*) AS n FROM subscriptions WHERE user_id = ?')
        .bind(userId)
        .first<{ n: number }>()
    )?.n;

  for (const timing of ['before', 'after'] as const) {
    it(`a charge timing out ${timing} it counts against its provider; it is made only after`, async () => {
      const visitor = checkoutVisitor({ fetchApp, visitorId: seededUuid(), ip: '10.63.0.1' });
      await visitor.signUp();
      await visitor.call('/api/users/me/payments-settings');
      await switchFaultOnUntil(env.PORTAL_DB, 'charge-stripe', Date.now() + 3_600_000, timing, 800);
      const started = await visitor.subscribe(await visitor.tokenize(CARDS.succeeds));
      expect(started.status).toBe(504);
      expect(await providerHealth(env, 'stripe', request())).toMatchObject({ failures: 1 });
      const userId = (
        await env.PORTAL_DB.prepare('SELECT user_id FROM access_tokens LIMIT 1').first<{
          user_id: string;
        }>()
      )?.user_id;
      await expect
        .poll(() => chargesOf(userId ?? ''), { timeout: 3_000 })
        .toBe(timing === 'after' ? 1 : 0);
    });
  }
});
