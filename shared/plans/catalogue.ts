import { CURRENCIES, type Currency } from './currency';
import type { MinorUnits } from './money';
import { PRICE_POINTS, type PricePoint } from './price-points';

/** What a purchase buys: a subscription renewing every 1 or 3 months, or one payment. */
export type Billing =
  | {
      kind: 'recurring';
      months: 1 | 3;
      /** A short first period at its own price, then the recurring price (SPEC.md §1). */
      intro: { days: number; price: MinorUnits } | null;
    }
  | { kind: 'one_time' };

/** Which copy a family shares: the upsell tiers read the same, only their prices differ. */
export type CopyGroup =
  | 'monthly'
  | 'monthly_intro'
  | 'quarterly'
  | 'upsell_monthly'
  | 'upsell_quarterly'
  | 'guide';

export type PlanRole = 'main' | 'upsell' | 'guide';

interface FamilyDefinition {
  role: PlanRole;
  copy: CopyGroup;
  /** The recurring price, or the one-time price (./price-points.ts, in each currency). */
  price: PricePoint;
  billing: FamilyBilling;
}

/** Billing as a family declares it: the intro's price is a price point too. */
type FamilyBilling =
  | { kind: 'recurring'; months: 1 | 3; intro: { days: number; price: PricePoint } | null }
  | { kind: 'one_time' };

const MONTHLY = { kind: 'recurring', months: 1, intro: null } as const;
const QUARTERLY = { kind: 'recurring', months: 3, intro: null } as const;
const ONE_TIME = { kind: 'one_time' } as const;

function monthlyWithIntro(days: number, price: PricePoint): FamilyBilling {
  return { kind: 'recurring', months: 1, intro: { days, price } };
}

/**
 * SPEC.md §3 plan families. After an intro the plan renews at the monthly price. The upsell tiers
 * (9.99, 7.99, 5.99 in USD) are alternative price points of the same offer; the guides (8.99,
 * 17.99) are one-time payments. Each family is sold in every currency at that currency's
 * price points (./price-points.ts); a family's id keeps its USD figure.
 */
export const PLAN_FAMILIES = {
  monthly: { role: 'main', copy: 'monthly', price: 'monthly', billing: MONTHLY },
  monthly_7d_intro: {
    role: 'main',
    copy: 'monthly_intro',
    price: 'monthly',
    billing: monthlyWithIntro(7, 'intro_7d'),
  },
  quarterly: { role: 'main', copy: 'quarterly', price: 'quarterly', billing: QUARTERLY },
  monthly_5d_intro: {
    role: 'main',
    copy: 'monthly_intro',
    price: 'monthly',
    billing: monthlyWithIntro(5, 'intro_5d'),
  },
  monthly_3d_intro: {
    role: 'main',
    copy: 'monthly_intro',
    price: 'monthly',
    billing: monthlyWithIntro(3, 'intro_3d'),
  },
  upsell_monthly_999: {
    role: 'upsell',
    copy: 'upsell_monthly',
    price: 'upsell_high',
    billing: MONTHLY,
  },
  upsell_monthly_799: {
    role: 'upsell',
    copy: 'upsell_monthly',
    price: 'upsell_mid',
    billing: MONTHLY,
  },
  upsell_monthly_599: {
    role: 'upsell',
    copy: 'upsell_monthly',
    price: 'upsell_low',
    billing: MONTHLY,
  },
  upsell_quarterly_999: {
    role: 'upsell',
    copy: 'upsell_quarterly',
    price: 'upsell_high',
    billing: QUARTERLY,
  },
  upsell_quarterly_799: {
    role: 'upsell',
    copy: 'upsell_quarterly',
    price: 'upsell_mid',
    billing: QUARTERLY,
  },
  upsell_quarterly_599: {
    role: 'upsell',
    copy: 'upsell_quarterly',
    price: 'upsell_low',
    billing: QUARTERLY,
  },
  guide_899: { role: 'guide', copy: 'guide', price: 'guide', billing: ONE_TIME },
  guide_1799: { role: 'guide', copy: 'guide', price: 'guide_bundle', billing: ONE_TIME },
} as const satisfies Record<string, FamilyDefinition>;

export type PlanFamilyId = keyof typeof PLAN_FAMILIES;

/** Stable plan id: family and currency, e.g. 'monthly_7d_intro_usd'. */
export type PlanId = `${PlanFamilyId}_${Lowercase<Currency>}`;

/** A translation key under `plans.catalogue` (locales/en/plans.json). */
export type CatalogueCopyKey = `plans.catalogue.${string}`;

/**
 * SPEC.md §3 "Subscription plan catalogue entry". Visible texts are translation keys, filled in
 * on the server with the plan's formatted prices (see screens/plans/plan-copy.ts).
 */
export interface Plan {
  id: PlanId;
  family: PlanFamilyId;
  role: PlanRole;
  currency: Currency;
  /** The recurring price, or the one-time price, in minor units of the currency. */
  price: MinorUnits;
  /** SPEC.md §3 periodPrice: the intro price when there is one, else the period price. */
  periodPrice: MinorUnits;
  billing: Billing;
  name: CatalogueCopyKey;
  description: CatalogueCopyKey;
  disclaimer: CatalogueCopyKey;
  /** A display label naming the product (SPEC.md §3 product_id). */
  product_id: CatalogueCopyKey;
  /** Title text of what the first payment buys ('7-day trial', '3-month plan'). */
  duration: CatalogueCopyKey;
}

function durationKey(billing: Billing): CatalogueCopyKey {
  if (billing.kind === 'one_time') return 'plans.catalogue.duration.one_time';
  if (billing.intro) return 'plans.catalogue.duration.days';
  return 'plans.catalogue.duration.months';
}

/** A family's billing in one currency: its intro price point priced. */
function pricedBilling(billing: FamilyBilling, currency: Currency): Billing {
  if (billing.kind === 'one_time' || !billing.intro) return billing as Billing;
  const { days, price } = billing.intro;
  return { ...billing, intro: { days, price: PRICE_POINTS[currency][price] } };
}

function buildPlan(family: PlanFamilyId, currency: Currency): Plan {
  const definition: FamilyDefinition = PLAN_FAMILIES[family];
  const billing = pricedBilling(definition.billing, currency);
  const price = PRICE_POINTS[currency][definition.price];
  return {
    id: `${family}_${currency.toLowerCase() as Lowercase<Currency>}`,
    family,
    role: definition.role,
    currency,
    price,
    periodPrice: billing.kind === 'recurring' && billing.intro ? billing.intro.price : price,
    billing,
    name: `plans.catalogue.${definition.copy}.name`,
    description: `plans.catalogue.${definition.copy}.description`,
    disclaimer: `plans.catalogue.${definition.copy}.disclaimer`,
    product_id: `plans.catalogue.${definition.copy}.product_id`,
    duration: durationKey(billing),
  };
}

/** Every family's id, in the catalogue's order. */
export const PLAN_FAMILY_IDS = Object.keys(PLAN_FAMILIES) as [PlanFamilyId, ...PlanFamilyId[]];

/** Every plan of SPEC.md §3: each family once per currency, USD and EUR first. */
export const PLAN_CATALOGUE: readonly Plan[] = PLAN_FAMILY_IDS.flatMap((family) =>
  CURRENCIES.map((currency) => buildPlan(family, currency)),
);

const byId = new Map<string, Plan>(PLAN_CATALOGUE.map((plan) => [plan.id, plan]));

export function isPlanId(value: string): value is PlanId {
  return byId.has(value);
}

export function planById(id: PlanId): Plan {
  const plan = byId.get(id);
  if (!plan) throw new Error(`Unknown plan ${id}`);
  return plan;
}

/** The plan of a family in a currency: what a visitor paying in that currency is offered. */
export function planOf(family: PlanFamilyId, currency: Currency): Plan {
  return planById(`${family}_${currency.toLowerCase() as Lowercase<Currency>}`);
}
