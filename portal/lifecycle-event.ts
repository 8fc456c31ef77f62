import type { LifecycleEventBody, LifecycleEventType } from '../shared/api/lifecycle';
import { isPlanId, planById } from '../shared/plans/catalogue';
import { type MinorUnits, toMajorUnits, toMinorUnits } from '../shared/plans/money';
import { pausedRefusal, type RenewalTerms, renewalTermsOf } from './renewal-terms';
import type { StoredSubscription } from './store/subscriptions';

/**
 * What the embedded portal tells the worker when a developer plays the product API's part after
 * a first payment (`npm run portal -- renew | renewal-failed | refund | chargeback | cancel <subscription>`,
 * scripts/portal.ts): the event's body, from the subscription the emulator charged and the plan
 * catalogue, as a real product API would fill it. Pure; the command signs and sends it.
 */

export type EventBuilding = { ok: true; body: LifecycleEventBody } | { ok: false; error: string };

export interface EventOptions {
  /** The event id: fresh for each command, as each real event has its own. */
  id: string;
  /** `--amount`, in cents; null takes what the plan says. */
  amount: MinorUnits | null;
  /** ISO instant. */
  occurredAt: string;
  /** The try and card of the payment the event reports (portal/store/subscription-payments.ts). */
  attempt?: number | null;
  cardBrand?: string | null;
  /**
   * A renewal's terms on the product API's books (portal/renewal-terms.ts: its price after a
   * save offer's discount or switch, a pause's end); absent, the plan's recurring price.
   */
  renewal?: Pick<RenewalTerms, 'amount' | 'pausedUntil'>;
}

const VERB: Record<LifecycleEventType, string> = {
  renewal: 'renew',
  refund: 'refund',
  chargeback: 'charge back',
  cancellation: 'cancel',
  renewal_failed: 'fail the renewal of',
};

/**
 * The event `type` of `subscription`:
 * - a renewal charges what its terms say (`options.renewal`, portal/renewal-terms.ts; else the
 *   plan's recurring price, after an intro the full price), none before a pause's end, and a
 *   one-time plan never renews; a failed renewal is due that price, declined on the first try
 *   for insufficient funds (the commonest soft decline);
 * - a refund or a chargeback gives back the first charge (price_with_discount: what was paid);
 * - a cancellation moves no money: amount 0, no currency.
 * A subscription the emulated gateway did not charge (declined, or waiting for 3-D Secure) has
 * nothing after its first payment; a plan outside the catalogue has no currency to name.
 */
export function lifecycleEventOf(
  subscription: Pick<StoredSubscription, 'id' | 'planId' | 'status' | 'priceWithDiscount'>,
  type: LifecycleEventType,
  options: EventOptions,
): EventBuilding {
  const { id: subscriptionId, planId, status } = subscription;
  if (status !== 'active') {
    return {
      ok: false,
      error: `subscription ${subscriptionId} is ${status}: it was never charged, so there is nothing to ${VERB[type]}`,
    };
  }
  if (!isPlanId(planId)) {
    return { ok: false, error: `plan ${planId} is not in the catalogue: its currency is unknown` };
  }
  const plan = planById(planId);
  const event = (amount: number, currency: string | null): EventBuilding => ({
    ok: true,
    body: {
      id: options.id,
      type,
      subscription_id: subscriptionId,
      amount,
      currency,
      occurred_at: options.occurredAt,
    },
  });
  if (type === 'cancellation') return event(0, null);
  const renews = type === 'renewal' || type === 'renewal_failed';
  if (renews && plan.billing.kind === 'one_time') {
    return { ok: false, error: `plan ${planId} is a one-time payment: it does not renew` };
  }
  const renewal = options.renewal ?? renewalTermsOf({ planId, coupon: null }, [], []);
  const paused = renews ? pausedRefusal(subscriptionId, renewal, options.occurredAt) : null;
  if (paused !== null) return { ok: false, error: paused };
  const minor =
    options.amount ??
    (renews
      ? (renewal.amount ?? plan.price)
      : subscription.priceWithDiscount === null
        ? plan.periodPrice
        : toMinorUnits(subscription.priceWithDiscount, plan.currency));
  const built = event(toMajorUnits(minor, plan.currency), plan.currency);
  if (!built.ok) return built;
  if (type !== 'renewal_failed') {
    const attempt = options.attempt ? { attempt_count: options.attempt } : {};
    const brand = options.cardBrand ? { card_brand: options.cardBrand } : {};
    return { ok: true, body: { ...built.body, ...attempt, ...brand } };
  }
  return {
    ok: true,
    body: { ...built.body, attempt_count: 1, decline_code: 'insufficient_funds' },
  };
}
