import type {
  DirectSubscriptionResponse,
  PollingStartResponse,
  SubscriptionRequest,
} from '../../shared/api/contract';
import type { PollingResultAnswer } from '../api/client';
import type { AttemptStore } from './attempt';
import type { CardProvider } from './provider';

/**
 * The three subscription calls of SPEC.md §7, as islands/api/client.ts makes them; tests answer
 * with plain objects instead.
 */
export interface PaymentApi {
  startPollingSubscription(
    planId: string,
    body: SubscriptionRequest,
    idempotencyKey: string,
  ): Promise<PollingStartResponse>;
  /** Resolves for 202 (pending) as well as 200 (final). */
  getPollingResult(pollingId: string): Promise<PollingResultAnswer>;
  createDirectSubscription(
    planId: string,
    body: SubscriptionRequest,
    idempotencyKey: string,
  ): Promise<DirectSubscriptionResponse>;
}

/** Everything the payment state machine does to the world, injected (STYLE.md: pure logic apart from I/O). */
export interface PurchaseDeps {
  provider: CardProvider;
  api: PaymentApi;
  sleep(ms: number): Promise<void>;
  /** Epoch ms. */
  now(): number;
  /**
   * Also the identity of "one purchase at a time": runs on the same store join each other
   * (islands/payments/purchase.ts).
   */
  attempts: AttemptStore;
  /** A fresh idempotency key (a v4 uuid in the browser). */
  newKey(): string;
  /** The visitor's email, which Braintree's 3-D Secure verification asks for. */
  email: string;
  /**
   * Hears every failure behind a failed outcome, with its detail: SPEC.md §8's 'An error has
   * occurred (look at console)' tells the visitor it is there. The browser passes console.error.
   */
  report?(error: unknown): void;
}
