import { isPlanId, type Plan, planById } from '../shared/plans/catalogue';
import { couponByCode } from '../shared/plans/coupons';
import type { MinorUnits } from '../shared/plans/money';
import { renewalAmount } from '../shared/plans/renewal';
import { discountedRenewal } from '../shared/plans/save-offer-actions';

/**
 * What a subscription's next renewal costs, on which plan, and from when it may be taken: the
 * one rule the embedded portal's read (portal/routes/subscriber.ts), a save offer's answer
 * (portal/save-offers.ts) and the renewals `npm run portal -- renew | renewal-failed` charge
 * (portal/lifecycle-event.ts) all follow, so what the page promises is what is charged. Pure:
 * the offers taken and the renewals paid come from portal/store/save-offers.ts.
 */

/** A save offer as the renewal terms read it (the `save_offers` row, migration 0019). */
export interface TakenOffer {
  action: 'discount' | 'pause' | 'switch';
  /** A discount's share off each renewal, and how many renewals it takes it off. */
  percentOff: number | null;
  renewals: number | null;
  /** The plan it renews on after the offer: a switch's target, else the plan it was on. */
  planAfter: string;
  /** ISO 8601: a pause's end. */
  pausedUntil: string | null;
  /** ISO 8601. */
  takenAt: string;
}

export interface RenewalTerms {
  /** The plan it renews on: the one bought, or the last switch's. */
  planId: string;
  plan: Plan | null;
  /** What the next renewal takes, minor units of the plan's currency; null: it never renews. */
  amount: MinorUnits | null;
  /** The renewals the last discount still takes its share off; 0 without one. */
  couponRenewalsLeft: number;
  /** ISO 8601: the last pause's end (no renewal before it); null without one. */
  pausedUntil: string | null;
}

function lastOf(
  offers: readonly TakenOffer[],
  action: TakenOffer['action'],
): TakenOffer | undefined {
  return offers.findLast((offer) => offer.action === action);
}

/**
 * The terms of `subscription` after `offers` (oldest first) and the renewals paid at
 * `renewalTimes` (renewals and recoveries, ISO 8601): the plan's recurring price less the
 * subscription's own coupon (shared/plans/renewal.ts, as the first charge's disclosure says),
 * on the last switch's plan, less the last discount's share while it has renewals left, each
 * renewal paid since it was taken using one up.
 */
export function renewalTermsOf(
  subscription: { planId: string; coupon: string | null },
  offers: readonly TakenOffer[],
  renewalTimes: readonly string[],
): RenewalTerms {
  const planId = offers.at(-1)?.planAfter ?? subscription.planId;
  const plan = isPlanId(planId) ? planById(planId) : null;
  const full = plan ? renewalAmount(plan, couponByCode(subscription.coupon)) : null;
  const discount = lastOf(offers, 'discount');
  const since = discount ? Date.parse(discount.takenAt) : Number.POSITIVE_INFINITY;
  const used = renewalTimes.filter((at) => Date.parse(at) >= since).length;
  const couponRenewalsLeft = Math.max(0, (discount?.renewals ?? 0) - used);
  const amount =
    full !== null && discount && couponRenewalsLeft > 0
      ? discountedRenewal(full, discount.percentOff ?? 0)
      : full;
  const pausedUntil = lastOf(offers, 'pause')?.pausedUntil ?? null;
  return { planId, plan, amount, couponRenewalsLeft, pausedUntil };
}

/** When it renews next: the scheduled renewal (epoch ms), or a pause's end where that is later. */
export function renewsAfterPause(
  scheduled: number | null,
  pausedUntil: string | null,
): number | null {
  if (scheduled === null || pausedUntil === null) return scheduled;
  return Math.max(scheduled, Date.parse(pausedUntil));
}

/**
 * Why a renewal at `at` (ISO 8601) cannot be taken, or null: a pause has not ended. Its text is
 * what `npm run portal -- renew` prints.
 */
export function pausedRefusal(
  subscriptionId: string,
  terms: Pick<RenewalTerms, 'pausedUntil'>,
  at: string,
): string | null {
  if (terms.pausedUntil === null || Date.parse(at) >= Date.parse(terms.pausedUntil)) return null;
  return `subscription ${subscriptionId} is paused until ${terms.pausedUntil}: it renews then, not before`;
}
