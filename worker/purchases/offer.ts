import { planOf } from '../../shared/plans/catalogue';
import type { Currency } from '../../shared/plans/currency';
import { isSellingScreen, type PlanChoices, screenOffer } from '../../shared/plans/screen-offers';
import type { ScreenId } from '../../shared/screens';

/** One thing a visitor may buy: a plan, with the coupon the screen sells it with (or none). */
export interface OfferedPlan {
  planId: string;
  coupon: string | null;
  /** Sold only to an account that holds a main subscription (an upsell, the guide). */
  afterMain: boolean;
}

/**
 * What a visitor was offered, from the same table their screens render (shared/plans/
 * screen-offers.ts): the plans of every selling screen of their flow, each with its coupon, with
 * the plans their route or price-test arms name (main, upsell, guide) in place of the screens'
 * own, in the currency the screens show them in. Nothing else is for sale to them.
 */
export function offerOf(visit: {
  screens: readonly ScreenId[];
  chosen: Partial<PlanChoices> | null | undefined;
  currency: Currency;
  /** The visitor's offer countdown reached zero: the regular prices, no coupon. */
  ended?: boolean;
}): OfferedPlan[] {
  const offered: OfferedPlan[] = [];
  for (const screen of visit.screens) {
    if (!isSellingScreen(screen)) continue;
    const offer = screenOffer(screen, visit.chosen, visit.ended === true);
    for (const family of offer.families) {
      offered.push({
        planId: planOf(family, visit.currency).id,
        coupon: offer.coupon?.code ?? null,
        afterMain: offer.sells !== 'main',
      });
    }
  }
  return offered;
}

/** Why a charge is not forwarded: the plan is not offered, or not with that coupon. */
export type OrderVerdict =
  | { ok: true; afterMain: boolean }
  | { ok: false; code: 'plan_not_offered' | 'coupon_not_offered' };

/**
 * Whether a charge for `planId` with `coupon` (null or empty: none) is something the offer
 * sells: exactly one of its plans with exactly its coupon. A coupon on a plan sold without one,
 * another coupon, or none where the offer carries one (a price never shown) is refused.
 */
export function checkOrder(
  offer: readonly OfferedPlan[],
  planId: string,
  coupon: string | null | undefined,
): OrderVerdict {
  const sent = coupon ? coupon : null;
  const plans = offer.filter((item) => item.planId === planId);
  if (plans.length === 0) return { ok: false, code: 'plan_not_offered' };
  const matches = plans.filter((item) => item.coupon === sent);
  if (matches.length === 0) return { ok: false, code: 'coupon_not_offered' };
  // Where a plan is offered both as a main plan and after one, the main offer wins.
  return { ok: true, afterMain: matches.every((item) => item.afterMain) };
}
