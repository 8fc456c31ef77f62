import { sleep } from '../../shared/backoff';
import {
  createDirectSubscription,
  getPollingResult,
  startPollingSubscription,
} from '../api/client';
import { navigate } from '../boot';
import { checkoutAttempts } from '../payments/checkout-attempts';
import type { CardProvider } from '../payments/provider';
import type { PurchaseDeps } from '../payments/purchase-deps';
import type { PaymentStoreDeps } from './payment';
import { $signup } from './signup';

function purchaseDeps(provider: CardProvider): PurchaseDeps {
  return {
    provider,
    api: { startPollingSubscription, getPollingResult, createDirectSubscription },
    sleep,
    now: () => Date.now(),
    attempts: checkoutAttempts,
    newKey: () => crypto.randomUUID(),
    email: $signup.get().email,
    report: (error) => console.error('[geofunnel] payment', error),
  };
}

/**
 * The browser's side of a payment: the state machine (islands/payments/purchase.ts, loaded with
 * the first press, not with the page) over the real API, this provider and page navigation.
 */
export function paymentStoreDeps(provider: CardProvider): PaymentStoreDeps {
  const machine = () => import('#browser-only/islands/payments/purchase');
  return {
    purchase: async (request) => (await machine()).purchase(request, purchaseDeps(provider)),
    resumePurchase: async () => (await machine()).resumePurchase(purchaseDeps(provider)),
    unfinishedPlan: () => checkoutAttempts.load(),
    navigate,
    sleep,
  };
}
