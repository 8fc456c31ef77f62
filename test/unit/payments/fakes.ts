import { type Mock, vi } from 'vitest';
import type { z } from 'zod';
import type { PollingResultAnswer } from '../../../islands/api/client';
import type { AttemptStore, PurchaseAttempt } from '../../../islands/payments/attempt';
import type { CardPaymentMethod, CardProvider } from '../../../islands/payments/provider';
import type { PaymentApi, PurchaseDeps } from '../../../islands/payments/purchase';
import type { PurchaseOutcome, PurchaseRequest } from '../../../islands/payments/purchase-types';
import { $checkout } from '../../../islands/stores/checkout';
import { $error } from '../../../islands/stores/error';
import { $paymentPhase, type PaymentStoreDeps } from '../../../islands/stores/payment';
import type {
  ChargeReceipt,
  DirectSubscriptionResponse,
  PollingResultData,
  PollingStartResponse,
  SubscriptionRequest,
} from '../../../shared/api/contract';
import { ApiFailure } from '../../../shared/api/request';

/**
 * Plain-object stand-ins for what the payment state machine talks to: the portal's subscription
 * calls (answering a repeated idempotency key with the first answer, as the portal does), a card
 * provider, a clock whose sleep moves time at once, and an attempt store over a "localStorage"
 * a reload keeps.
 */

export type Result = z.infer<typeof PollingResultData>;

export const pending: PollingResultAnswer = { status: 202, data: { data: { result_data: null } } };
export const final = (result: Result | null): PollingResultAnswer => ({
  status: 200,
  data: { data: { result_data: result } },
});
export const succeeded = (id = 'sub_1'): Result => ({
  status: 'succeeded',
  subscription_id: id,
  event_id: 'evt_1',
  price_with_discount: 6.99,
  currency: 'USD',
  card_brand: 'visa',
  card_last4: '4242',
});

export const httpFailure = (status: number, body: unknown) => new ApiFailure('http', status, body);
export const networkFailure = () => new ApiFailure('network', null, null);

export interface PostCall {
  planId: string;
  body: SubscriptionRequest;
  key: string;
}

export interface FakeApiScript {
  /** Answers a POST whose key the portal has not seen; default: a new polling id. */
  start?(call: PostCall, postIndex: number): Promise<PollingStartResponse>;
  /** Answers the n-th poll (from 0) of a polling id; default: success. */
  poll?(pollingId: string, n: number): Promise<PollingResultAnswer>;
  direct?(call: PostCall, postIndex: number): Promise<DirectSubscriptionResponse>;
}

function fakeApi(script: FakeApiScript = {}) {
  const posts: (PostCall & { route: 'polling' | 'direct' })[] = [];
  const polls: string[] = [];
  /** Key → polling id: the portal's "a repeated key returns the same polling id". */
  const pollingIds = new Map<string, string>();
  const api: PaymentApi = {
    async startPollingSubscription(planId, body, key) {
      const call = { planId, body, key };
      posts.push({ ...call, route: 'polling' });
      const known = pollingIds.get(key);
      if (known) return { data: { polling_result_id: known } };
      const answer = script.start
        ? await script.start(call, posts.length - 1)
        : { data: { polling_result_id: `poll_${pollingIds.size + 1}` } };
      pollingIds.set(key, answer.data.polling_result_id);
      return answer;
    },
    async getPollingResult(pollingId) {
      const n = polls.filter((id) => id === pollingId).length;
      polls.push(pollingId);
      return script.poll ? script.poll(pollingId, n) : final(succeeded());
    },
    async createDirectSubscription(planId, body, key) {
      const call = { planId, body, key };
      posts.push({ ...call, route: 'direct' });
      return script.direct
        ? script.direct(call, posts.length - 1)
        : { data: { subscription_id: 'sub_bt', event_id: 'evt_bt', price_with_discount: 39.99 } };
    },
  };
  /** Distinct charges the portal made: one per idempotency key. */
  const charges = () => new Set(posts.map((post) => post.key)).size;
  return { api, posts, polls, charges };
}

export function fakeProvider(overrides: Partial<CardProvider> = {}) {
  const provider = {
    id: 'test' as const,
    mount: vi.fn(async () => {}),
    unmount: vi.fn(),
    createPaymentMethod: vi.fn(
      async (): Promise<CardPaymentMethod> => ({ nonce: 'pm_card', bin: null }),
    ),
    confirmCardPayment: vi.fn(async () => 'pi_3ds'),
    verifyCard: vi.fn(async () => 'nonce_verified'),
    ...overrides,
  };
  return provider;
}

function fakeClock(start = 1_700_000_000_000) {
  let time = start;
  const sleeps: number[] = [];
  return {
    now: () => time,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      time += ms;
    },
    advance: (ms: number) => {
      time += ms;
    },
    sleeps,
  };
}

/** What localStorage holds across a reload. */
export interface Storage {
  attempt: PurchaseAttempt | null;
}

/** An attempt store over `storage`; a reload is a new store object over the same storage. */
export function memoryAttempts(storage: Storage = { attempt: null }): AttemptStore & {
  storage: Storage;
} {
  return {
    storage,
    load: () => (storage.attempt ? structuredClone(storage.attempt) : null),
    save: (attempt) => {
      storage.attempt = structuredClone(attempt);
    },
    clear: () => {
      storage.attempt = null;
    },
  };
}

export const cardRequest = (overrides: Partial<PurchaseRequest> = {}): PurchaseRequest => ({
  planId: 'monthly_7d_usd',
  route: 'polling',
  gateway: 'test',
  coupon: null,
  userData: { plan: 'monthly_7d_usd' },
  method: { kind: 'card-fields', cardholderName: 'Anna Example' },
  ...overrides,
});

export const braintreeRequest = (overrides: Partial<PurchaseRequest> = {}): PurchaseRequest =>
  cardRequest({ route: 'direct', gateway: 'braintree', ...overrides });

let keyCount = 0;

export function world(
  options: { script?: FakeApiScript; provider?: Partial<CardProvider>; storage?: Storage } = {},
) {
  const portal = fakeApi(options.script);
  const provider = fakeProvider(options.provider);
  const clock = fakeClock();
  const attempts = memoryAttempts(options.storage);
  const report = vi.fn();
  const deps: PurchaseDeps = {
    provider,
    api: portal.api,
    sleep: clock.sleep,
    now: clock.now,
    attempts,
    newKey: () => {
      keyCount += 1;
      return `key-${keyCount}`;
    },
    email: 'anna@example.com',
    report,
  };
  return { deps, portal, provider, clock, attempts, report };
}

/** The receipt the worker adds to a 7-day trial's successful charge (worker/purchases/receipt.ts). */
export const TRIAL_RECEIPT: ChargeReceipt = {
  plan_id: 'monthly_7d_intro_usd',
  amount: 699,
  currency: 'USD',
  charged_at: '2026-11-26T10:00:00.000Z',
  renews_at: '2026-12-03T10:00:00.000Z',
  renewal_amount: 3999,
};

/**
 * The checkout's stores as a fresh page holds them: the unit files share a thread's modules, so
 * a file before may leave a payment under way, which Pay would refuse to start again.
 */
export function freshCheckout(): void {
  $checkout.set({
    ...$checkout.get(),
    isSuccess: null,
    id: '',
    showSuccessPopup: false,
    paymentError: { show: false, message: '' },
  });
  $error.set({ show: false, message: '' });
  $paymentPhase.set('idle');
}

/**
 * The payment store's dependencies around `purchase`: nothing unfinished to resume, no pauses,
 * and the pages it goes to recorded in `navigate`.
 */
export function storeDeps(
  purchase: (request: PurchaseRequest) => Promise<PurchaseOutcome>,
): PaymentStoreDeps & { navigate: Mock<(url: string) => void> } {
  return {
    purchase,
    resumePurchase: async () => null,
    unfinishedPlan: () => null,
    navigate: vi.fn<(url: string) => void>(),
    sleep: async () => {},
  };
}
