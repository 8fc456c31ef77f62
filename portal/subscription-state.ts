import { isPlanId, planById } from '../shared/plans/catalogue';
import type { PaymentTotals } from './store/subscription-payments';

/**
 * A subscription's state as the product API would show it, from what the emulator stored: the
 * charge's outcome, the subscriber's and the provider's actions, the open due and the money.
 * - `requires_action`, `declined`: the first charge waits for 3-D Secure, or was refused;
 * - `charged_back`: the provider reported a dispute;
 * - `refunded`: the money-back guarantee was claimed, or everything paid was given back;
 * - `canceled`: nothing renews any more;
 * - `past_due`: a renewal failed and is not paid yet;
 * - `trialing`: in the intro period of a plan that has one, before its first renewal;
 * - `active`: charged and renewing.
 */
export type SubscriptionState =
  | 'requires_action'
  | 'declined'
  | 'charged_back'
  | 'refunded'
  | 'canceled'
  | 'past_due'
  | 'trialing'
  | 'active';

export interface StateFacts {
  /** The charge's outcome (portal/store/subscriptions.ts SubscriptionStatus). */
  status: string;
  planId: string;
  /** ISO 8601: the first charge. */
  createdAt: string;
  canceledAt: string | null;
  refundedAt: string | null;
  chargedBackAt: string | null;
  /** A failed renewal is due and unpaid. */
  dueOpen: boolean;
  /** Renewals and recoveries paid so far. */
  renewals: number;
  totals: PaymentTotals;
}

/** In the intro period: a plan with an intro, not renewed yet, its days not over at `now`. */
function inTrial(facts: StateFacts, now: number): boolean {
  if (!isPlanId(facts.planId) || facts.renewals > 0) return false;
  const { billing } = planById(facts.planId);
  if (billing.kind !== 'recurring' || billing.intro === null) return false;
  return now < Date.parse(facts.createdAt) + billing.intro.days * 86_400_000;
}

/** The state of SubscriptionState's list, the first that applies. */
export function subscriptionStateOf(facts: StateFacts, now: number): SubscriptionState {
  if (facts.status === 'requires_action' || facts.status === 'declined') return facts.status;
  if (facts.chargedBackAt !== null) return 'charged_back';
  const allBack =
    facts.totals.returnedMinor > 0 && facts.totals.returnedMinor >= facts.totals.chargedMinor;
  if (facts.refundedAt !== null || allBack) return 'refunded';
  if (facts.canceledAt !== null) return 'canceled';
  if (facts.dueOpen) return 'past_due';
  return inTrial(facts, now) ? 'trialing' : 'active';
}
