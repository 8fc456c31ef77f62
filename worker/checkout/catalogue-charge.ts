import { chargedFirst } from '../../shared/plans/anchors';
import { isPlanId, planById } from '../../shared/plans/catalogue';
import { couponByCode } from '../../shared/plans/coupons';
import { toMajorUnits } from '../../shared/plans/money';
import type { VerifiedCharge } from './charge-call';

/** What the call that charged asked for: its `:planId` and its coupon. */
export interface Ordered {
  planId: string | null;
  coupon: string | null;
}

/** The charge's fields the answer left out, named as the product API names them. */
export type FilledField = 'plan_id' | 'price_with_discount' | 'currency';

/**
 * A verified purchase with the amount and currency the networks and the revenue need:
 * SPEC.md §3 and §7 never list `currency`, `plan_id` or `price_with_discount` among the fields a
 * charge answer must have, so a product API may leave them out. What it left out is taken from
 * the catalogue plan the charge was for: the answer's plan, else the call's `:planId`, priced in
 * that plan's currency (the plan id names the price list: `monthly_usd`), the first payment less
 * the coupon the request carried (shared/plans/anchors.ts chargedFirst, what the checkout showed).
 *
 * Nothing is made up: an unknown plan fills nothing, and an answer whose currency is not the
 * plan's gets no catalogue amount (it would be a price in the wrong money).
 */
export function completeFromCatalogue(
  charge: VerifiedCharge,
  ordered: Ordered | null,
): { charge: VerifiedCharge; filled: FilledField[] } {
  const filled: FilledField[] = [];
  let { planId } = charge;
  if (planId === null && ordered?.planId) {
    planId = ordered.planId;
    filled.push('plan_id');
  }
  if (planId === null || !isPlanId(planId)) return { charge: { ...charge, planId }, filled };
  const plan = planById(planId);
  if (charge.currency !== null && charge.currency !== plan.currency) {
    return { charge: { ...charge, planId }, filled };
  }
  let { amount } = charge;
  if (amount === null) {
    amount = toMajorUnits(chargedFirst(plan, couponByCode(ordered?.coupon ?? null)), plan.currency);
    filled.push('price_with_discount');
  }
  if (charge.currency === null) filled.push('currency');
  return { charge: { ...charge, planId, amount, currency: plan.currency }, filled };
}
