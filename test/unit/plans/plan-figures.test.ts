import { describe, expect, it } from 'vitest';
import { type PlanFamilyId, planOf } from '../../../shared/plans/catalogue';
import { periodDays, pricePerDay, trialDays } from '../../../shared/plans/plan-figures';

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

  it('spreads an amount over days to the nearest cent (6.99 over 7 days is 1.00)', () => {
    expect(pricePerDay(699, 7)).toBe(100);
    expect(pricePerDay(5999, 90)).toBe(67);
    expect(pricePerDay(11997, 90)).toBe(133);
  });
});
