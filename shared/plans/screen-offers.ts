import type { ScreenId } from '../screens';
import type { PlanFamilyId } from './catalogue';
import { COUPONS, type Coupon } from './coupons';

/**
 * What a screen sells: the plan families its picker shows, the one preselected, and the coupon
 * they are sold with. The one table both sides read: the screens render their plans from it
 * (screens/plans/), and the worker refuses a charge for anything else (worker/purchases/offer.ts),
 * so a screen and the check can never disagree.
 */
export interface ScreenOffer {
  families: readonly PlanFamilyId[];
  defaultFamily: PlanFamilyId;
  coupon: Coupon | null;
  /**
   * `main`: a paywall or checkout, whose plans the visitor's route (or a price test's arm)
   * replaces where it names some; `after_main`: an upsell, its own plans always, sold only after
   * a main purchase (SPEC.md §2 journey: plans and checkout, then the optional upsell).
   */
  sells: 'main' | 'after_main';
}

/** The checkouts' plans (SPEC.md §2 checkout variants, checkout-test). */
const CHECKOUT: ScreenOffer = {
  families: ['monthly_7d_intro', 'monthly', 'quarterly'],
  defaultFamily: 'monthly_7d_intro',
  coupon: null,
  sells: 'main',
};

/** The paywalls paycheck1_pr5_h_win and _ai: the intro plans. */
const PAYWALL: ScreenOffer = {
  families: ['monthly_7d_intro', 'monthly_5d_intro', 'monthly_3d_intro'],
  defaultFamily: 'monthly_7d_intro',
  coupon: null,
  sells: 'main',
};

/**
 * Every screen that sells something, and what. SPEC.md §1, §9: the anonymous mode and private chat
 * upsell at 30% off; §2: the one-time guide (its one-time discount is the plan's own, no coupon).
 */
export const SCREEN_OFFERS = {
  checkout_v3_tr: CHECKOUT,
  checkout_h3_pp: CHECKOUT,
  checkout_v3_pp: CHECKOUT,
  checkout_h3_pp_braintree: CHECKOUT,
  'checkout-test': CHECKOUT,
  paycheck1_pr5_h_win: PAYWALL,
  paycheck1_pr5_h_ai: PAYWALL,
  paycheck_combo_3d: {
    families: ['monthly_3d_intro'],
    defaultFamily: 'monthly_3d_intro',
    coupon: null,
    sells: 'main',
  },
  upsell_an_private: {
    families: ['upsell_monthly_999', 'upsell_quarterly_999'],
    defaultFamily: 'upsell_monthly_999',
    coupon: COUPONS.upsell_30,
    sells: 'after_main',
  },
  upsell_guide: {
    families: ['guide_899'],
    defaultFamily: 'guide_899',
    coupon: null,
    sells: 'after_main',
  },
} as const satisfies Partial<Record<ScreenId, ScreenOffer>>;

export type SellingScreenId = keyof typeof SCREEN_OFFERS;

export function isSellingScreen(screen: string): screen is SellingScreenId {
  return Object.hasOwn(SCREEN_OFFERS, screen);
}

/**
 * What `screen` offers a visitor whose route (or price test arm) names `routePlans`: a paywall's
 * or checkout's main plans are the route's where it names some, the first preselected; an
 * upsell keeps its own (a route sets the main offer only).
 */
export function screenOffer(
  screen: SellingScreenId,
  routePlans: readonly PlanFamilyId[] | null | undefined,
): ScreenOffer {
  const own: ScreenOffer = SCREEN_OFFERS[screen];
  const first = routePlans?.[0];
  if (own.sells !== 'main' || first === undefined || !routePlans) return own;
  return { ...own, families: routePlans, defaultFamily: first };
}
