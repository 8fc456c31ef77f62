import { describe, expect, it } from 'vitest';
import { PLAN_CATALOGUE, PLAN_FAMILY_IDS, planById, planOf } from '../../../shared/plans/catalogue';
import { cheaperPlanOf, discountedRenewal } from '../../../shared/plans/save-offer-actions';

/**
 * The switch a save offer may offer (shared/plans/save-offer-actions.ts): only a cheaper plan of
 * the same kind, the rule the page offers it by and the product API applies it by.
 */

describe('cheaperPlanOf', () => {
  it('names the cheaper plan of the same role and period, in the current currency', () => {
    expect(cheaperPlanOf('upsell_monthly_999_usd', 'upsell_monthly_599')?.id).toBe(
      'upsell_monthly_599_usd',
    );
    expect(cheaperPlanOf('upsell_quarterly_799_gbp', 'upsell_quarterly_599')?.id).toBe(
      'upsell_quarterly_599_gbp',
    );
    expect(cheaperPlanOf('upsell_monthly_799_jpy', 'upsell_monthly_599')).toMatchObject({
      currency: 'JPY',
      price: 880,
    });
  });

  it.each([
    ['the same plan', 'upsell_monthly_799_usd', 'upsell_monthly_799'],
    ['a dearer plan', 'upsell_monthly_799_usd', 'upsell_monthly_999'],
    ['another role', 'monthly_usd', 'upsell_monthly_599'],
    ['another period', 'upsell_quarterly_999_usd', 'upsell_monthly_599'],
    ['a one-time plan', 'guide_1799_usd', 'guide_899'],
    ['from a one-time plan', 'guide_1799_usd', 'upsell_monthly_599'],
    ['from a plan outside the catalogue', 'legacy_usd', 'upsell_monthly_599'],
    ['from an intro plan to its own price', 'monthly_7d_intro_usd', 'monthly'],
  ] as const)('refuses %s', (_, current, family) => {
    expect(cheaperPlanOf(current, family)).toBeNull();
  });

  it('only ever names a plan of the catalogue cheaper than the current one, of its kind', () => {
    for (const current of PLAN_CATALOGUE) {
      for (const family of PLAN_FAMILY_IDS) {
        const target = cheaperPlanOf(current.id, family);
        if (target === null) continue;
        expect(target).toBe(planOf(family, current.currency));
        expect(target.role).toBe(current.role);
        expect(target.price).toBeLessThan(current.price);
        expect(target.billing).toMatchObject({ kind: 'recurring' });
        expect(current.billing).toMatchObject({ kind: 'recurring' });
        if (target.billing.kind === 'recurring' && current.billing.kind === 'recurring') {
          expect(target.billing.months).toBe(current.billing.months);
        }
      }
    }
  });
});

describe('discountedRenewal', () => {
  it('takes the share off, rounded to the nearest minor unit as a coupon is', () => {
    expect(discountedRenewal(planById('monthly_usd').price, 25)).toBe(2999);
    expect(discountedRenewal(3999, 50)).toBe(1999);
    expect(discountedRenewal(999, 30)).toBe(699);
    expect(discountedRenewal(980, 100)).toBe(0);
  });
});
