import { type Plan, type PlanFamilyId, planOf } from './catalogue';
import type { MinorUnits } from './money';
import { ONE_TIME_DISCOUNT } from './one-time-discount';

/**
 * Figures derived from a catalogue entry, never typed by hand (SPEC.md §3: plan display data
 * implies trial days, per-day price and save percent; the period is in the entry's own texts).
 * A month counts as 30 days.
 */
const DAYS_PER_MONTH = 30;

/** Days of the introductory trial; 0 for a plan without one. */
export function trialDays(plan: Plan): number {
  return plan.billing.kind === 'recurring' && plan.billing.intro ? plan.billing.intro.days : 0;
}

/** Days the first payment covers: the intro, else the billing period; null for a one-time item. */
export function periodDays(plan: Plan): number | null {
  if (plan.billing.kind === 'one_time') return null;
  return plan.billing.intro ? plan.billing.intro.days : plan.billing.months * DAYS_PER_MONTH;
}

/** An amount spread over days, to the nearest cent (6.99 over 7 days is 1.00 a day). */
export function pricePerDay(amount: MinorUnits, days: number): MinorUnits {
  return Math.round(amount / days);
}

/**
 * The plan a saving is measured against: the plain monthly plan of the same offer and
 * currency. A one-time guide has none (its saving is the one-time discount).
 */
export function referencePlan(plan: Plan): Plan | null {
  if (plan.billing.kind === 'one_time') return null;
  const family: PlanFamilyId =
    plan.role === 'upsell'
      ? (plan.family.replace('upsell_quarterly_', 'upsell_monthly_') as PlanFamilyId)
      : 'monthly';
  return planOf(family, plan.currency);
}

/** The first period's price at the reference rate, as a fraction (numerator / denominator). */
function regularFraction(plan: Plan): { numerator: number; denominator: number } {
  const reference = referencePlan(plan);
  const days = periodDays(plan);
  if (!reference || days === null) {
    return { numerator: plan.price + ONE_TIME_DISCOUNT[plan.currency], denominator: 1 };
  }
  const referenceDays = periodDays(reference) ?? DAYS_PER_MONTH;
  return { numerator: reference.price * days, denominator: referenceDays };
}

/**
 * What the first period would cost without the offer: 7 days at the monthly rate (9.33), three
 * months of monthly billing (119.97), or a guide before its one-time discount (28.99).
 */
export function regularPrice(plan: Plan): MinorUnits {
  const { numerator, denominator } = regularFraction(plan);
  return Math.round(numerator / denominator);
}

/** Whole percent saved on the first period against the regular price (quarterly: 50). */
export function savePercent(plan: Plan): number {
  const { numerator, denominator } = regularFraction(plan);
  const saved = numerator - plan.periodPrice * denominator;
  return Math.max(0, Math.round((100 * saved) / numerator));
}
