import { chargedFirst } from '../../shared/plans/anchors';
import { PLAN_FAMILIES, type PlanFamilyId, planOf } from '../../shared/plans/catalogue';
import type { Currency } from '../../shared/plans/currency';
import {
  isSellingScreen,
  type PlanChoices,
  SCREEN_OFFERS,
  type SellingScreenId,
  screenOffer,
} from '../../shared/plans/screen-offers';
import type { DrawnScreen } from '../../shared/screens';

/**
 * What a simulated visitor of `npm run experiments -- simulate` can buy (simulated-visitors.ts):
 * the offers of the screens their funnel has (their route's flow and plans with their variant's
 * change made, worker/funnel/flow.ts), each plan at what the visitor is
 * charged, read from the same table the screens and the offer gate read
 * (shared/plans/screen-offers.ts). Pure.
 */

/** One plan a simulated visitor may buy. */
export interface SimulatedPlan {
  family: PlanFamilyId;
  /**
   * The first payment in the run's currency's minor units: the intro or period price less the
   * screen's coupon (SPEC.md §1, §9: the upsell at 30% off), the order summary's total, which
   * the emulated gateway charges (portal/gateway.ts firstChargeOf).
   */
  firstMinor: number;
}

/** A screen after the main purchase (the upsell, the guide) and the plans it offers. */
export interface SimulatedAfterOffer {
  screen: SellingScreenId;
  plans: readonly SimulatedPlan[];
}

export interface SimulatedOffers {
  /** The paywall's or checkout's plans, the first preselected. */
  main: readonly SimulatedPlan[];
  /**
   * The screens selling after the main purchase, in the flow's order: only those the flow has,
   * and only from `from` on (a screen before an experiment's trigger was passed unexposed).
   */
  after: readonly SimulatedAfterOffer[];
}

/** Where a flow has no paywall or checkout (none of SPEC.md §2's), the checkouts' plans. */
const FALLBACK_MAIN: SellingScreenId = 'checkout_v3_tr';

/**
 * The plans `screen` offers under `chosen` (a route's or a variant's lists, screenOffer), priced
 * with the screen's coupon. A list naming a plan of another role is the screen's own instead:
 * the config check refuses it, and the screen would sell no such plan.
 */
function pricedOffer(
  screen: SellingScreenId,
  chosen: PlanChoices,
  currency: Currency,
): SimulatedPlan[] {
  const own = SCREEN_OFFERS[screen];
  const offer = screenOffer(screen, chosen);
  const fitting = offer.families.filter(
    (family) => PLAN_FAMILIES[family as PlanFamilyId]?.role === own.sells,
  );
  const families = fitting.length > 0 ? fitting : own.families;
  return families.map((family) => ({
    family,
    firstMinor: chargedFirst(planOf(family, currency), offer.coupon),
  }));
}

/**
 * What a visitor walking `shape` is offered: the first main seller's plans, and every selling
 * screen after it at index `from` or later that sells after a main purchase.
 */
export function offersOf(
  shape: PlanChoices & { screens: readonly DrawnScreen[] },
  currency: Currency,
  from: number,
): SimulatedOffers {
  const mainAt = shape.screens.findIndex(
    (screen) => isSellingScreen(screen) && SCREEN_OFFERS[screen].sells === 'main',
  );
  const mainScreen = mainAt < 0 ? FALLBACK_MAIN : (shape.screens[mainAt] as SellingScreenId);
  const after: SimulatedAfterOffer[] = [];
  shape.screens.forEach((screen, index) => {
    if (index <= mainAt || index < from || !isSellingScreen(screen)) return;
    if (SCREEN_OFFERS[screen].sells === 'main') return;
    after.push({ screen, plans: pricedOffer(screen, shape, currency) });
  });
  return { main: pricedOffer(mainScreen, shape, currency), after };
}
