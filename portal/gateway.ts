import type { SubscriptionRequest } from '../shared/api/contract';

/**
 * The emulator's payment gateway: decides what one subscription charge does. For now every
 * charge succeeds; the checkout issue extends this module with the behaviour of Stripe's
 * documented test cards (declines with decline codes, 3-D Secure required), keyed on
 * `payment_method_nonce`, without touching the routes or the storage.
 */

export type ChargeStatus = 'succeeded';

export interface ChargeOutcome {
  status: ChargeStatus;
  /** The amount charged after any coupon, or null when the plan data names no price. */
  priceWithDiscount: number | null;
  declineCode: string | null;
}

export function chargeSubscription(_planId: string, request: SubscriptionRequest): ChargeOutcome {
  return {
    status: 'succeeded',
    priceWithDiscount: priceOf(request.user_data.price),
    declineCode: null,
  };
}

const DECIMAL = /^\d+(\.\d+)?$/;

/** `user_data.price` (SPEC.md §3: plan data merged into user_data) as a number, if it is one. */
function priceOf(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : null;
  if (typeof value === 'string' && DECIMAL.test(value.trim())) return Number(value.trim());
  return null;
}
