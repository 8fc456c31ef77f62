import type { ScreenId } from '../screens';
import type { PlanFamilyId, PlanRole } from './catalogue';
import { COUPONS, type Coupon } from './coupons';
import type { CountryCurrencies } from './currency';
import { familyAfterOffer } from './offer-clock';

/**
 * What a screen sells: the plan families its picker shows, the one preselected, and the coupon
 * they are sold with. The one table both sides read: the screens render their plans from it
 * (screens/plans/), and the worker refuses a charge for anything else (worker/checkout/offer.ts),
 * so a screen and the check can never disagree.
 */
export interface ScreenOffer {
  families: readonly PlanFamilyId[];
  defaultFamily: PlanFamilyId;
  coupon: Coupon | null;
  /**
   * Which of the catalogue's roles it sells, and so which of a route's (or a price test arm's)
   * plan lists replaces its own (PLAN_FIELDS): `main`, a paywall or checkout; `upsell` and
   * `guide`, sold only after a main purchase (SPEC.md §2 journey: plans and checkout, then the
   * optional upsells).
   */
  sells: PlanRole;
}

/**
 * The plan families a route or a price test arm names for each role (shared/routing.ts
 * RouteDocument, shared/experiments.ts VariantChange); null: each screen's own.
 */
export interface PlanChoices {
  plans: readonly PlanFamilyId[] | null;
  upsellPlans: readonly PlanFamilyId[] | null;
  guidePlans: readonly PlanFamilyId[] | null;
  /**
   * The currency visitors of a country pay in, where the route or a variant changes it
   * (shared/config/currencies.ts); absent: the routing config's table.
   */
  currencies?: CountryCurrencies;
}

/** The field of a route or a variant change that sets the plans of each role. */
export const PLAN_FIELDS = {
  main: 'plans',
  upsell: 'upsellPlans',
  guide: 'guidePlans',
} as const satisfies Record<PlanRole, keyof PlanChoices>;

export type PlanField = (typeof PLAN_FIELDS)[PlanRole];

export const PLAN_FIELD_NAMES: readonly PlanField[] = Object.values(PLAN_FIELDS);

/** How many plans of each role one screen shows: its picker, or the guide's single offer. */
export const MAX_PLANS: Record<PlanRole, number> = { main: 4, upsell: 2, guide: 1 };

export const NO_PLAN_CHOICES: PlanChoices = { plans: null, upsellPlans: null, guidePlans: null };

/**
 * The plan lists a route or a change sets, as PlanChoices (null where it sets none), with its
 * country→currency table when it has one.
 */
export function planChoicesOf(
  source: Partial<Record<PlanField, readonly string[] | null>> & {
    currencies?: CountryCurrencies;
  },
) {
  const choices: PlanChoices = {
    plans: (source.plans as PlanFamilyId[] | undefined) ?? null,
    upsellPlans: (source.upsellPlans as PlanFamilyId[] | undefined) ?? null,
    guidePlans: (source.guidePlans as PlanFamilyId[] | undefined) ?? null,
  };
  if (source.currencies) choices.currencies = source.currencies;
  return choices;
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
    sells: 'upsell',
  },
  upsell_guide: {
    families: ['guide_899'],
    defaultFamily: 'guide_899',
    coupon: null,
    sells: 'guide',
  },
} as const satisfies Partial<Record<ScreenId, ScreenOffer>>;

export type SellingScreenId = keyof typeof SCREEN_OFFERS;

export function isSellingScreen(screen: string): screen is SellingScreenId {
  return Object.hasOwn(SCREEN_OFFERS, screen);
}

/**
 * What `screen` offers a visitor whose route (or price test arms) name `chosen` plans: the list
 * of the role the screen sells (a paywall's or checkout's main plans, the upsell's, the guide's)
 * where one names some, the first preselected, else the screen's own. The coupon stays the
 * screen's: the upsell sells any of its tiers at 30% off (SPEC.md §1, §9). Once the visitor's
 * offer `ended` (its countdown reached zero), the regular prices apply: each intro plan gives
 * way to the plan it renews into, and no coupon is given (./offer-clock.ts).
 */
export function screenOffer(
  screen: SellingScreenId,
  chosen: Partial<PlanChoices> | null | undefined,
  ended = false,
): ScreenOffer {
  const own: ScreenOffer = SCREEN_OFFERS[screen];
  const families = chosen?.[PLAN_FIELDS[own.sells]];
  const first = families?.[0];
  const offer = first === undefined || !families ? own : { ...own, families, defaultFamily: first };
  return ended ? endedOffer(offer) : offer;
}

/** An offer at the regular prices, as it is sold once the visitor's countdown reached zero. */
export function endedOffer<T extends Pick<ScreenOffer, 'families' | 'defaultFamily' | 'coupon'>>(
  offer: T,
): T {
  return {
    ...offer,
    families: [...new Set(offer.families.map(familyAfterOffer))],
    defaultFamily: familyAfterOffer(offer.defaultFamily),
    coupon: null,
  };
}
