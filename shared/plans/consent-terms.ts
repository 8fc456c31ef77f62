import type { Plan } from './catalogue';
import type { Coupon } from './coupons';
import { firstChargeAmount, renewalAmount } from './renewal';

/**
 * What a renewal consent agrees to, in figures: the plan, its currency, the amount taken now and
 * what each renewal takes, in minor units. The page sends the terms the box was ticked beside;
 * the worker computes the same from the plan it would charge (worker/checkout/offer.ts)
 * and refuses a charge whose terms differ, so a box ticked for a $6.99 trial never pays $39.99.
 */
export interface ConsentTerms {
  plan_id: string;
  currency: string;
  amount: number;
  renewal_amount: number;
}

/** The terms of `plan` charged with `coupon`; null for a plan that does not renew. */
export function consentTermsOf(plan: Plan, coupon: Coupon | null): ConsentTerms | null {
  const renewal = renewalAmount(plan, coupon);
  if (renewal === null) return null;
  return {
    plan_id: plan.id,
    currency: plan.currency,
    amount: firstChargeAmount(plan, coupon),
    renewal_amount: renewal,
  };
}

/** Whether two sets of terms are the same agreement. */
export function sameConsentTerms(
  one: ConsentTerms | null | undefined,
  other: ConsentTerms | null | undefined,
): boolean {
  if (!one || !other) return false;
  return (
    one.plan_id === other.plan_id &&
    one.currency === other.currency &&
    one.amount === other.amount &&
    one.renewal_amount === other.renewal_amount
  );
}
