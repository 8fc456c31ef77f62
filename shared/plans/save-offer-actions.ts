import { isPlanId, type Plan, type PlanFamilyId, planById, planOf } from './catalogue';
import { applyCoupon } from './coupons';
import type { MinorUnits } from './money';

/**
 * What a save offer's action may do to a subscription (docs/product-api.md, "Save offer
 * actions"; shared/config/content.ts `saveOfferAction`), as the worker offers it and the product
 * API applies it: the same rules on both sides, so the page never offers what the product API
 * would refuse with 422 `not_applicable`.
 */

/**
 * The plan of `targetFamily` a subscription on `currentPlanId` may switch to, or null: only a
 * cheaper plan of the same kind, so a switch lowers what each renewal takes and changes nothing
 * else the subscriber agreed to. The target is the family's plan in the current plan's currency
 * (a switch never changes the money renewals are taken in), of the same role (an upsell stays an
 * upsell: the main plan's features are not sold at an add-on's price), recurring every as many
 * months, at a lower recurring price. Null for a plan outside the catalogue or a one-time one.
 */
export function cheaperPlanOf(currentPlanId: string, targetFamily: PlanFamilyId): Plan | null {
  if (!isPlanId(currentPlanId)) return null;
  const current = planById(currentPlanId);
  if (current.billing.kind !== 'recurring') return null;
  const target = planOf(targetFamily, current.currency);
  if (target.role !== current.role || target.billing.kind !== 'recurring') return null;
  if (target.billing.months !== current.billing.months) return null;
  return target.price < current.price ? target : null;
}

/**
 * A renewal under a save offer's discount: `percentOff` off `amount`, rounded to the nearest
 * minor unit as every coupon is (./coupons.ts), so the page's promise and the charge agree.
 */
export function discountedRenewal(amount: MinorUnits, percentOff: number): MinorUnits {
  return applyCoupon(amount, { code: 'save_offer', percentOff, appliesTo: [] });
}
