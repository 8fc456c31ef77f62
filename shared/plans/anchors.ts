import { type Plan, type PlanFamilyId, planOf } from './catalogue';
import { applyCoupon, type Coupon, couponAppliesTo } from './coupons';
import type { MinorUnits } from './money';
import { periodDays, pricePerDay } from './plan-figures';

/**
 * What a plan is struck from, and what it saves. A struck price is a price this visitor would
 * otherwise pay for the same thing, and nothing else:
 *
 * - a plan billed for several months, against that many months of the monthly plan of the same
 *   role and tier sold on the same screen (the quarterly 59.99 against 3 × 39.99 = 119.97);
 * - a coupon's price, against the same plan without it, only where the offer ends at a deadline
 *   after which that price is charged (the upsell's 30% off while its countdown runs: after it,
 *   9.99 is what the visitor pays);
 * - an introductory trial is struck from nothing: no one pays a regular price for 7 days.
 *
 * All of it is in the plan's own currency, as that currency's price points set it (the quarterly
 * £49.99 against 3 × £34.99, ¥8,800 against 3 × ¥5,800): an anchor is never a converted price.
 * Savings are worked out from the amounts charged, in minor units, and rounded down, so a page
 * never claims a minor unit or a percent more than is saved. With anchors off (a route's or a variant's
 * `anchors: false`) nothing is struck and nothing is said to be saved.
 */

/** What decides a plan's anchor on one screen for one visitor. */
export interface AnchorTerms {
  /** The families the same screen offers beside it: a comparison must be one the visitor can buy. */
  offered: readonly PlanFamilyId[];
  /** The coupon the screen sells with (applied only where the plan accepts it). */
  coupon: Coupon | null;
  /** Whether the offer ends at a deadline for this visitor, who then pays the regular price. */
  offerEnds: boolean;
  /** False: the marketer turned anchors off for the route or variant. */
  anchors: boolean;
}

export interface PlanFigures {
  /** The first payment: the intro or period price, less the coupon the plan accepts. */
  charged: MinorUnits;
  /** Days the first payment buys; null for a one-time item. */
  days: number | null;
  /** charged per day of those days, to the nearest minor unit; null for a one-time item. */
  perDay: MinorUnits | null;
  /** The real price of the same thing this visitor would otherwise pay; null: none to strike. */
  anchor: MinorUnits | null;
  /** anchor per day, for the struck per-day figure; null without an anchor. */
  anchorPerDay: MinorUnits | null;
  /** Whole percent saved against the anchor, rounded down; 0 without an anchor. */
  savePercent: number;
}

/** The coupon when the plan accepts it, else null. */
export function acceptedCoupon(plan: Plan, coupon: Coupon | null): Coupon | null {
  return coupon && couponAppliesTo(coupon, plan.role) ? coupon : null;
}

/** What the first payment takes: the intro or period price, less an accepted coupon. */
export function chargedFirst(plan: Plan, coupon: Coupon | null): MinorUnits {
  const accepted = acceptedCoupon(plan, coupon);
  return accepted ? applyCoupon(plan.periodPrice, accepted) : plan.periodPrice;
}

/**
 * The monthly family of the same role and tier as a plan billed for several months
 * (quarterly → monthly, upsell_quarterly_799 → upsell_monthly_799), or null.
 */
function monthlyCounterpart(plan: Plan): PlanFamilyId | null {
  if (plan.billing.kind !== 'recurring' || plan.billing.months === 1 || plan.billing.intro) {
    return null;
  }
  if (plan.family === 'quarterly') return 'monthly';
  const family = plan.family.replace('upsell_quarterly_', 'upsell_monthly_');
  return family === plan.family ? null : (family as PlanFamilyId);
}

/** The price this visitor would otherwise pay for what the first payment buys, or null. */
export function realAnchor(plan: Plan, terms: AnchorTerms): MinorUnits | null {
  if (!terms.anchors) return null;
  const charged = chargedFirst(plan, terms.coupon);
  const accepted = acceptedCoupon(plan, terms.coupon);
  // The coupon's own price comparison holds only where its offer ends.
  if (accepted && terms.offerEnds && plan.periodPrice > charged) return plan.periodPrice;
  const monthly = monthlyCounterpart(plan);
  if (monthly && terms.offered.includes(monthly) && plan.billing.kind === 'recurring') {
    const reference = planOf(monthly, plan.currency);
    const months = reference.price * plan.billing.months;
    // The monthly plan as this visitor buys it here: with the same coupon, if any.
    const referenceCharged = chargedFirst(reference, accepted);
    const regular = accepted ? referenceCharged * plan.billing.months : months;
    if (regular > charged) return regular;
  }
  return null;
}

/** Whole percent saved paying `charged` instead of `anchor`, rounded down (49.996 → 49). */
export function savedPercent(anchor: MinorUnits, charged: MinorUnits): number {
  if (anchor <= charged) return 0;
  return Math.floor((100 * (anchor - charged)) / anchor);
}

/** The figures a screen shows for a plan under these terms. */
export function planFigures(plan: Plan, terms: AnchorTerms): PlanFigures {
  const charged = chargedFirst(plan, terms.coupon);
  const days = periodDays(plan);
  const anchor = realAnchor(plan, terms);
  return {
    charged,
    days,
    perDay: days === null ? null : pricePerDay(charged, days),
    anchor,
    anchorPerDay: anchor === null || days === null ? null : pricePerDay(anchor, days),
    savePercent: anchor === null ? 0 : savedPercent(anchor, charged),
  };
}
