import type { Plan } from './catalogue';
import { applyCoupon, type Coupon, couponAppliesTo } from './coupons';
import type { MinorUnits } from './money';

const DAY_MS = 86_400_000;

/**
 * The first renewal of a plan charged at `chargedAt` (epoch ms), or null for a one-time payment:
 * the intro's days later, else its period's months later, in calendar months of UTC (31 January
 * + 1 month is 28 or 29 February, as the card networks' billing cycles count it, not 3 March).
 * One rule for what the pay button promises and what the worker's receipt states
 * (worker/purchases/receipt.ts), so the two can never differ.
 */
export function firstRenewalAt(plan: Plan, chargedAt: number): number | null {
  if (plan.billing.kind === 'one_time') return null;
  const { intro, months } = plan.billing;
  if (intro) return chargedAt + intro.days * DAY_MS;
  return addUtcMonths(chargedAt, months);
}

/**
 * `at` plus `months` calendar months of UTC, the day of the month kept where the month has it
 * and else its last day (31 January + 1 month is 28 or 29 February).
 */
export function addUtcMonths(at: number, months: number): number {
  const date = new Date(at);
  const day = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, lastDay));
  return date.getTime();
}

/**
 * What each renewal takes, or null for a one-time payment: the recurring price less a coupon the
 * plan accepts (a coupon takes its share of every payment, as the plan's disclosure says).
 */
export function renewalAmount(plan: Plan, coupon: Coupon | null): MinorUnits | null {
  if (plan.billing.kind !== 'recurring') return null;
  return coupon && couponAppliesTo(coupon, plan.role)
    ? applyCoupon(plan.price, coupon)
    : plan.price;
}

/** What the first charge takes: the intro or period price less a coupon the plan accepts. */
export function firstChargeAmount(plan: Plan, coupon: Coupon | null): MinorUnits {
  return coupon && couponAppliesTo(coupon, plan.role)
    ? applyCoupon(plan.periodPrice, coupon)
    : plan.periodPrice;
}
