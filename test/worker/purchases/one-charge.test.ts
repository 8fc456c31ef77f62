import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createDirectSubscription,
  getPollingResult,
  startPollingSubscription,
} from '../../../islands/api/client';
import type { AttemptStore, PurchaseAttempt } from '../../../islands/payments/attempt';
import type { CardProvider } from '../../../islands/payments/provider';
import { type PurchaseDeps, purchase, resumePurchase } from '../../../islands/payments/purchase';
import type { PurchaseOutcome } from '../../../islands/payments/purchase-types';
import { type FaultCall, switchFaultOn, switchFaultOnUntil } from '../../../portal/faults';
import { ORIGIN } from '../fetch-app';
import { CARDS } from '../test-gateway/gateway-client';
import { checkoutVisitor, PLAN, PLAN_DATA, TICKED_RENEWAL_CONSENT } from './checkout-visitor';

/**
 * The one-charge rule end to end inside workerd: the islands' own payment state machine and API
 * client, talking to the worker's real routes and the embedded portal on D1, while a portal call
 * fails. Whatever fails, the visitor is charged once and never told it failed.
 */

beforeEach(() => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(async () => {
  vi.restoreAllMocks();
  for (const call of ['polling-result', 'subscriptions-polling'] as const) {
    await switchFaultOn(env.PORTAL_DB, call, 0);
  }
});

/** A clock whose pauses pass at once, so the state machine's 60 s deadline costs no time. */
function instantClock() {
  let now = Date.now();
  return {
    now: () => now,
    sleep: async (ms: number) => {
      now += ms;
    },
  };
}

async function visitorDeps() {
  const visitor = checkoutVisitor();
  await visitor.signUp();
  const pageFetch: typeof fetch = (input, init) =>
    visitor.call(
      new URL(String(input), ORIGIN).pathname,
      init?.body === undefined ? undefined : JSON.parse(String(init.body)),
      Object.fromEntries(new Headers(init?.headers)),
    );
  const call = { fetch: pageFetch };
  let stored: string | null = null;
  const attempts: AttemptStore = {
    load: () => (stored === null ? null : (JSON.parse(stored) as PurchaseAttempt)),
    save: (attempt) => {
      stored = JSON.stringify(attempt);
    },
    clear: () => {
      stored = null;
    },
  };
  const provider: CardProvider = {
    id: 'test',
    mount: async () => {},
    unmount: () => {},
    createPaymentMethod: async () => ({ nonce: await visitor.tokenize(CARDS.succeeds), bin: null }),
    confirmCardPayment: async () => 'never',
  };
  const clock = instantClock();
  const deps: PurchaseDeps = {
    provider,
    api: {
      startPollingSubscription: (planId, body, key) =>
        startPollingSubscription(planId, body, key, call),
      getPollingResult: (pollingId) => getPollingResult(pollingId, call),
      createDirectSubscription: (planId, body, key) =>
        createDirectSubscription(planId, body, key, call),
    },
    ...clock,
    attempts,
    newKey: () => crypto.randomUUID(),
    email: 'payer@example.test',
  };
  return { deps, clock };
}

const request = {
  planId: PLAN,
  route: 'polling' as const,
  gateway: 'test',
  coupon: null,
  userData: PLAN_DATA,
  renewalConsent: TICKED_RENEWAL_CONSENT,
  method: { kind: 'card-fields' as const, cardholderName: 'Ada' },
};

async function charges(): Promise<number> {
  const row = await env.PORTAL_DB.prepare(
    "SELECT count(*) AS n FROM subscriptions WHERE status = 'active' AND plan_id = ?",
  )
    .bind(PLAN)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

describe('the portal fails while a visitor pays', () => {
  it.each<[string, FaultCall, 'before' | 'after']>([
    ['the polling result answers 500', 'polling-result', 'before'],
    ['the subscription POST charges, then answers 500', 'subscriptions-polling', 'after'],
  ])('%s past the deadline: confirming, then one charge and success', async (_, call, timing) => {
    const { deps } = await visitorDeps();
    const before = await charges();
    await switchFaultOnUntil(env.PORTAL_DB, call, Date.now() + 60 * 60_000, timing);
    const told: PurchaseOutcome['kind'][] = [(await purchase(request, deps)).kind];
    // Pressing Pay again during the outage follows the same attempt.
    told.push((await purchase(request, deps)).kind);
    expect(told).toEqual(['confirming', 'confirming']);
    expect(await charges()).toBeLessThanOrEqual(before + 1);

    await switchFaultOn(env.PORTAL_DB, call, 0);
    told.push(((await resumePurchase(deps)) as PurchaseOutcome).kind);
    expect(told.at(-1)).toBe('succeeded');
    expect(await charges()).toBe(before + 1);
  });
});
