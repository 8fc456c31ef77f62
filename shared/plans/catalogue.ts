import { CURRENCIES, CURRENCY_SYMBOL, type Currency } from './currency';
import type { Cents } from './money';

/** What a purchase buys: a subscription renewing every 1 or 3 months, or one payment. */
export type Billing =
  | {
      kind: 'recurring';
      months: 1 | 3;
      /** A short first period at its own price, then the recurring price (SPEC.md §1). */
      intro: { days: number; price: Cents } | null;
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
  /** The recurring price, or the one-time price. */
  price: Cents;
  billing: Billing;
}

const MONTHLY = { kind: 'recurring', months: 1, intro: null } as const;
const QUARTERLY = { kind: 'recurring', months: 3, intro: null } as const;
const ONE_TIME = { kind: 'one_time' } as const;

function monthlyWithIntro(days: number, price: Cents): Billing {
  return { kind: 'recurring', months: 1, intro: { days, price } };
}

/**
 * SPEC.md §3 plan families, the same figures in USD and EUR. After an intro the plan renews at
 * the monthly price. The upsell tiers (9.99, 7.99, 5.99) are alternative price points of the
 * same offer; the guides (8.99, 17.99) are one-time payments.
 */
export const PLAN_FAMILIES = {
  monthly: { role: 'main', copy: 'monthly', price: 3999, billing: MONTHLY },
  monthly_7d_intro: {
    role: 'main',
    copy: 'monthly_intro',
    price: 3999,
    billing: monthlyWithIntro(7, 699),
  },
  quarterly: { role: 'main', copy: 'quarterly', price: 5999, billing: QUARTERLY },
  monthly_5d_intro: {
    role: 'main',
    copy: 'monthly_intro',
    price: 3999,
    billing: monthlyWithIntro(5, 499),
  },
  monthly_3d_intro: {
    role: 'main',
    copy: 'monthly_intro',
    price: 3999,
    billing: monthlyWithIntro(3, 299),
  },
  upsell_monthly_999: { role: 'upsell', copy: 'upsell_monthly', price: 999, billing: MONTHLY },
  upsell_monthly_799: { role: 'upsell', copy: 'upsell_monthly', price: 799, billing: MONTHLY },
  upsell_monthly_599: { role: 'upsell', copy: 'upsell_monthly', price: 599, billing: MONTHLY },
  upsell_quarterly_999: {
    role: 'upsell',
    copy: 'upsell_quarterly',
    price: 999,
    billing: QUARTERLY,
  },
  upsell_quarterly_799: {
    role: 'upsell',
    copy: 'upsell_quarterly',
    price: 799,
    billing: QUARTERLY,
  },
  upsell_quarterly_599: {
    role: 'upsell',
    copy: 'upsell_quarterly',
    price: 599,
    billing: QUARTERLY,
  },
  guide_899: { role: 'guide', copy: 'guide', price: 899, billing: ONE_TIME },
  guide_1799: { role: 'guide', copy: 'guide', price: 1799, billing: ONE_TIME },
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
  currencySymbol: string;
  /** The recurring price, or the one-time price. */
  price: Cents;
  /** SPEC.md §3 periodPrice: the intro price when there is one, else the period price. */
  periodPrice: Cents;
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

function buildPlan(family: PlanFamilyId, currency: Currency): Plan {
  const definition: FamilyDefinition = PLAN_FAMILIES[family];
  const { billing } = definition;
  return {
    id: `${family}_${currency.toLowerCase() as Lowercase<Currency>}`,
    family,
    role: definition.role,
    currency,
    currencySymbol: CURRENCY_SYMBOL[currency],
    price: definition.price,
    periodPrice:
      billing.kind === 'recurring' && billing.intro ? billing.intro.price : definition.price,
    billing,
    name: `plans.catalogue.${definition.copy}.name`,
    description: `plans.catalogue.${definition.copy}.description`,
    disclaimer: `plans.catalogue.${definition.copy}.disclaimer`,
    product_id: `plans.catalogue.${definition.copy}.product_id`,
    duration: durationKey(billing),
  };
}

const FAMILY_IDS = Object.keys(PLAN_FAMILIES) as PlanFamilyId[];

/** Every plan of SPEC.md §3: each family once per currency. */
export const PLAN_CATALOGUE: readonly Plan[] = FAMILY_IDS.flatMap((family) =>
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
