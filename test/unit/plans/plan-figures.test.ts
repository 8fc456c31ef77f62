import { describe, expect, it } from 'vitest';
import { PLAN_CATALOGUE, type PlanFamilyId, planOf } from '../../../shared/plans/catalogue';
import {
  periodDays,
  referencePlan,
  regularPrice,
  savePercent,
  trialDays,
} from '../../../shared/plans/plan-figures';

const usd = (family: PlanFamilyId) => planOf(family, 'USD');

describe('figures derived from a plan (SPEC.md §3 plan display data)', () => {
  it.each([
    ['monthly_7d_intro', 7],
    ['monthly_5d_intro', 5],
    ['monthly_3d_intro', 3],
    ['monthly', 0],
    ['quarterly', 0],
    ['upsell_monthly_999', 0],
    ['guide_899', 0],
  ] as const)('%s has %i trial days', (family, days) => {
    expect(trialDays(usd(family))).toBe(days);
  });

  it.each([
    ['monthly_7d_intro', 7],
    ['monthly_3d_intro', 3],
    ['monthly', 30],
    ['quarterly', 90],
    ['upsell_quarterly_599', 90],
    ['guide_1799', null],
  ] as const)('the first payment of %s covers %s days', (family, days) => {
    expect(periodDays(usd(family))).toBe(days);
  });

  it.each([
    // 59.99 against 3 × 39.99 = 119.97.
    ['quarterly', 11997, 50],
    // 6.99 against 7 days at 39.99 a month (9.331).
    ['monthly_7d_intro', 933, 25],
    ['monthly_5d_intro', 667, 25],
    ['monthly_3d_intro', 400, 25],
    ['monthly', 3999, 0],
    ['upsell_monthly_799', 799, 0],
    // 9.99 for 3 months against 3 × 9.99.
    ['upsell_quarterly_999', 2997, 67],
    // One-time guides: regular price = price + the 20 off (SPEC.md §3 discount table).
    ['guide_899', 2899, 69],
    ['guide_1799', 3799, 53],
  ] as const)('%s: regular price %i cents, save %i%%', (family, regular, percent) => {
    expect(regularPrice(usd(family))).toBe(regular);
    expect(savePercent(usd(family))).toBe(percent);
    expect(regularPrice(planOf(family, 'EUR'))).toBe(regular);
    expect(savePercent(planOf(family, 'EUR'))).toBe(percent);
  });

  it('measures upsells against the monthly upsell of the same tier and currency', () => {
    expect(referencePlan(planOf('upsell_quarterly_599', 'EUR'))?.id).toBe('upsell_monthly_599_eur');
    expect(referencePlan(usd('monthly_3d_intro'))?.id).toBe('monthly_usd');
    expect(referencePlan(usd('guide_899'))).toBeNull();
  });

  it('never claims a saving below 0 or a regular price below the price paid', () => {
    for (const plan of PLAN_CATALOGUE) {
      expect(savePercent(plan), plan.id).toBeGreaterThanOrEqual(0);
      expect(savePercent(plan), plan.id).toBeLessThan(100);
      expect(regularPrice(plan), plan.id).toBeGreaterThanOrEqual(plan.periodPrice);
    }
  });
});
