import type { Plan } from './catalogue';
import type { Coupon } from './coupons';
import type { MinorUnits } from './money';
import { firstChargeAmount, firstRenewalAt, renewalAmount } from './renewal';
import type { RenewalConsentRule } from './renewal-consent';

/** How the pay button words its press: the amount, and for an intro the trial it starts. */
export type PayButtonWording = 'pay' | 'pay_now' | 'start_trial';

/**
 * What pressing Pay for a plan commits the visitor to, in figures: the amount taken now, and for
 * a subscription what renews, every how many months and first when. The pay button and the terms
 * beside it are worded from this (screens/plans/pay-terms-props.ts); the worker's receipt reads
 * the same rules (./renewal.ts), so the promise and the receipt agree.
 */
export interface PayTerms {
  button: PayButtonWording;
  chargedNow: MinorUnits;
  /** Null for a one-time payment. */
  renewal: { amount: MinorUnits; months: number; firstAt: number; introDays: number | null } | null;
}

export function payTermsOf(
  plan: Plan,
  coupon: Coupon | null,
  rule: RenewalConsentRule,
  now: number,
): PayTerms {
  const chargedNow = firstChargeAmount(plan, coupon);
  const amount = renewalAmount(plan, coupon);
  const firstAt = firstRenewalAt(plan, now);
  const introDays = plan.billing.kind === 'recurring' ? (plan.billing.intro?.days ?? null) : null;
  // Where the law wants the button to say it commits to pay, a trial's button says so too.
  const button = rule.payableButton ? 'pay_now' : introDays !== null ? 'start_trial' : 'pay';
  if (plan.billing.kind !== 'recurring' || amount === null || firstAt === null) {
    return { button, chargedNow, renewal: null };
  }
  return {
    button,
    chargedNow,
    renewal: { amount, months: plan.billing.months, firstAt, introDays },
  };
}
