import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isPlanId,
  PLAN_CATALOGUE,
  PLAN_FAMILIES,
  type PlanFamilyId,
  planById,
  planOf,
} from '../../../shared/plans/catalogue';
import { CURRENCIES } from '../../../shared/plans/currency';
import { PRICE_POINTS, type PricePoint } from '../../../shared/plans/price-points';

/** SPEC.md §3 plan families and their prices, as the spec's table lists them. */
const SPEC_PRICES: Record<PlanFamilyId, { price: string; periodPrice: string }> = {
  monthly: { price: '39.99', periodPrice: '39.99' },
  monthly_7d_intro: { price: '39.99', periodPrice: '6.99' },
  quarterly: { price: '59.99', periodPrice: '59.99' },
  monthly_5d_intro: { price: '39.99', periodPrice: '4.99' },
  monthly_3d_intro: { price: '39.99', periodPrice: '2.99' },
  upsell_monthly_999: { price: '9.99', periodPrice: '9.99' },
  upsell_monthly_799: { price: '7.99', periodPrice: '7.99' },
  upsell_monthly_599: { price: '5.99', periodPrice: '5.99' },
  upsell_quarterly_999: { price: '9.99', periodPrice: '9.99' },
  upsell_quarterly_799: { price: '7.99', periodPrice: '7.99' },
  upsell_quarterly_599: { price: '5.99', periodPrice: '5.99' },
  guide_899: { price: '8.99', periodPrice: '8.99' },
  guide_1799: { price: '17.99', periodPrice: '17.99' },
};

const toCents = (decimal: string) => Math.round(Number(decimal) * 100);

describe('plan catalogue (SPEC.md §3)', () => {
  it('has every family of the spec once in every currency, USD and EUR first', () => {
    expect(Object.keys(PLAN_FAMILIES).sort()).toEqual(Object.keys(SPEC_PRICES).sort());
    expect(PLAN_CATALOGUE).toHaveLength(Object.keys(SPEC_PRICES).length * CURRENCIES.length);
    for (const family of Object.keys(SPEC_PRICES) as PlanFamilyId[]) {
      expect(
        PLAN_CATALOGUE.filter((plan) => plan.family === family).map((p) => p.currency),
      ).toEqual([...CURRENCIES]);
    }
    expect(CURRENCIES.slice(0, 2)).toEqual(['USD', 'EUR']);
  });

  it.each(Object.entries(SPEC_PRICES))(
    '%s costs what the spec says in USD and EUR',
    (family, want) => {
      for (const currency of ['USD', 'EUR'] as const) {
        const plan = planOf(family as PlanFamilyId, currency);
        expect(plan.price).toBe(toCents(want.price));
        expect(plan.periodPrice).toBe(toCents(want.periodPrice));
      }
    },
  );

  it('keeps prices in whole minor units, whole yen for JPY', () => {
    for (const plan of PLAN_CATALOGUE) {
      expect(Number.isInteger(plan.price), plan.id).toBe(true);
      expect(Number.isInteger(plan.periodPrice), plan.id).toBe(true);
    }
    expect(planOf('monthly_7d_intro', 'JPY')).toMatchObject({ price: 5800, periodPrice: 980 });
    expect(planOf('monthly_7d_intro', 'GBP')).toMatchObject({ price: 3499, periodPrice: 599 });
  });

  it('sets local price points in the same order as USD in every currency', () => {
    const points = Object.keys(PRICE_POINTS.USD) as PricePoint[];
    const usdOrder = [...points].sort((a, b) => PRICE_POINTS.USD[a] - PRICE_POINTS.USD[b]);
    for (const currency of CURRENCIES) {
      const local = PRICE_POINTS[currency];
      const order = [...points].sort((a, b) => local[a] - local[b]);
      expect(order, currency).toEqual(usdOrder);
      // Charm prices, not conversions: each ends as a marketer sets it (.99, .90, 0 or 9).
      for (const point of points)
        expect(String(local[point]), `${currency} ${point}`).toMatch(/(9|0)$/);
    }
  });

  it('gives each plan a stable id of family and currency', () => {
    expect(planOf('monthly_7d_intro', 'USD').id).toBe('monthly_7d_intro_usd');
    expect(planOf('quarterly', 'EUR').id).toBe('quarterly_eur');
    expect(new Set(PLAN_CATALOGUE.map((plan) => plan.id)).size).toBe(PLAN_CATALOGUE.length);
    for (const plan of PLAN_CATALOGUE) expect(planById(plan.id)).toBe(plan);
  });

  it('names every visible text by a translation key under plans.catalogue', () => {
    for (const plan of PLAN_CATALOGUE) {
      for (const key of [
        plan.name,
        plan.description,
        plan.disclaimer,
        plan.product_id,
        plan.duration,
      ]) {
        expect(key).toMatch(/^plans\.catalogue\.[a-z_]+\.[a-z_]+$/);
      }
    }
  });

  it('tells plan ids from anything else', () => {
    expect(isPlanId('guide_1799_eur')).toBe(true);
    fc.assert(
      fc.property(fc.string(), (value) => {
        expect(isPlanId(value)).toBe(PLAN_CATALOGUE.some((plan) => plan.id === value));
      }),
    );
    expect(isPlanId('constructor')).toBe(false);
    expect(isPlanId('monthly_gbp')).toBe(true);
    expect(isPlanId('monthly_nok')).toBe(false);
  });
});
