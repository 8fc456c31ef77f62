import { PLAN_FAMILIES, type PlanFamilyId, type PlanRole } from './catalogue';
import type { PricePoint } from './price-points';

/** What a family is, as far as its regular counterpart goes: the price is a price-point name. */
type Family = {
  role: PlanRole;
  price: PricePoint;
  billing: { kind: 'recurring'; months: number; intro: object | null } | { kind: 'one_time' };
};

/** SPEC.md §4, §9: the offer countdown runs 300 seconds (5 minutes) from its first showing. */
export const OFFER_SECONDS = 300;

/**
 * The visitor's offer, as the worker reads its deadline (worker/checkout/offer.ts):
 * `off`, the route or variant turned the countdown off and the offer never ends; `running`,
 * with the whole seconds left; `ended`, the deadline passed and the regular prices apply.
 */
export type OfferClock =
  | { state: 'off' }
  | { state: 'running'; secondsLeft: number }
  | { state: 'ended' };

/**
 * The family sold in place of `family` once the offer ended: an introductory plan gives way to
 * the plan it renews into (a 7-day trial at 6.99, then 39.99 a month, is the monthly plan at
 * 39.99); any other is sold as it is, without the offer's coupon. Families are matched by their
 * price point, not an amount, so the counterpart is the same in every currency (£5.99 then
 * £34.99 a month becomes the monthly plan at £34.99, ¥980 then ¥5,800 the one at ¥5,800).
 */
export function familyAfterOffer(family: PlanFamilyId): PlanFamilyId {
  const definition: Family = PLAN_FAMILIES[family];
  const { billing } = definition;
  if (billing.kind !== 'recurring' || !billing.intro) return family;
  const regular = (Object.keys(PLAN_FAMILIES) as PlanFamilyId[]).find((candidate) => {
    const other: Family = PLAN_FAMILIES[candidate];
    return (
      other.role === definition.role &&
      other.price === definition.price &&
      other.billing.kind === 'recurring' &&
      other.billing.months === billing.months &&
      !other.billing.intro
    );
  });
  return regular ?? family;
}
