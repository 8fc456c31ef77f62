import { describe, expect, it } from 'vitest';
import { PLAN_CATALOGUE, planOf } from '../../../shared/plans/catalogue';
import { applyCoupon, COUPONS } from '../../../shared/plans/coupons';
import { CURRENCIES } from '../../../shared/plans/currency';
import { ONE_TIME_DISCOUNT } from '../../../shared/plans/one-time-discount';
import { orderSummary } from '../../../shared/plans/order-summary';

describe('one-time discount table (SPEC.md §3)', () => {
  it('takes 20 USD and 20 EUR off a one-time purchase', () => {
    expect(ONE_TIME_DISCOUNT).toMatchObject({ USD: 2000, EUR: 2000 });
    expect(Object.keys(ONE_TIME_DISCOUNT)).toEqual([...CURRENCIES]);
    expect(orderSummary(planOf('guide_899', 'USD'))).toEqual({
      regular: 2899,
      discount: 2000,
      total: 899,
    });
    expect(orderSummary(planOf('guide_1799', 'EUR'))).toEqual({
      regular: 3799,
      discount: 2000,
      total: 1799,
    });
  });
});

describe('coupons', () => {
  it('takes 30% off an upsell (SPEC.md §1): 9.99 becomes 6.99', () => {
    expect(applyCoupon(999, COUPONS.upsell_30)).toBe(699);
    expect(applyCoupon(799, COUPONS.upsell_30)).toBe(559);
    expect(applyCoupon(599, COUPONS.upsell_30)).toBe(419);
    expect(orderSummary(planOf('upsell_monthly_999', 'USD'), COUPONS.upsell_30)).toEqual({
      regular: 999,
      discount: 300,
      total: 699,
    });
  });

  it('is ignored by a plan it does not apply to', () => {
    expect(orderSummary(planOf('monthly', 'USD'), COUPONS.upsell_30).total).toBe(3999);
  });
});

describe('order summary (SPEC.md §2: discount and total)', () => {
  it('charges the intro price today for an intro plan', () => {
    expect(orderSummary(planOf('monthly_7d_intro', 'USD'))).toEqual({
      regular: 933,
      discount: 234,
      total: 699,
    });
  });

  it('shows the quarterly saving against three monthly payments', () => {
    expect(orderSummary(planOf('quarterly', 'EUR'))).toEqual({
      regular: 11997,
      discount: 5998,
      total: 5999,
    });
  });

  it('takes nothing off the plain monthly plan', () => {
    expect(orderSummary(planOf('monthly', 'USD'))).toEqual({
      regular: 3999,
      discount: 0,
      total: 3999,
    });
  });

  it('always adds up: regular - discount = total, all in whole cents', () => {
    for (const plan of PLAN_CATALOGUE) {
      for (const coupon of [null, COUPONS.upsell_30]) {
        const { regular, discount, total } = orderSummary(plan, coupon);
        expect(regular - discount, plan.id).toBe(total);
        expect([regular, discount, total].every(Number.isInteger), plan.id).toBe(true);
      }
    }
  });
});
