import type { Plan } from './catalogue';
import type { MinorUnits } from './money';

/**
 * Figures derived from a catalogue entry, never typed by hand (SPEC.md §3: plan display data
 * implies trial days and a per-day price; the period is in the entry's own texts). A month
 * counts as 30 days. What a plan is struck from, and the saving, are ./anchors.ts.
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

/**
 * An amount spread over days, to the nearest cent (6.99 over 7 days is 1.00 a day): the page
 * says the figure is rounded (plans.picker.per_day_text), and no saving is ever worked out
 * from it, only from the amounts charged (./anchors.ts).
 */
export function pricePerDay(amount: MinorUnits, days: number): MinorUnits {
  return Math.round(amount / days);
}
