import { describe, expect, it } from 'vitest';
import { checkOrder, offerOf } from '../../../worker/checkout/offer';

/** The offer a visitor's flow makes (worker/checkout/offer.ts), and what it lets through. */

const DEFAULT_FLOW = [
  'one_pager',
  'searching',
  'signup',
  'checkout_v3_tr',
  'upsell_an_private',
  'success',
] as const;

describe('offerOf', () => {
  it('holds the selling screens’ plans in the visitor’s currency, each with its coupon', () => {
    expect(offerOf({ screens: DEFAULT_FLOW, chosen: null, currency: 'EUR' })).toEqual([
      { planId: 'monthly_7d_intro_eur', coupon: null, afterMain: false },
      { planId: 'monthly_eur', coupon: null, afterMain: false },
      { planId: 'quarterly_eur', coupon: null, afterMain: false },
      { planId: 'upsell_monthly_999_eur', coupon: 'upsell_30', afterMain: true },
      { planId: 'upsell_quarterly_999_eur', coupon: 'upsell_30', afterMain: true },
    ]);
  });

  it('a route’s main plans replace the main plans only', () => {
    const offer = offerOf({
      screens: DEFAULT_FLOW,
      chosen: { plans: ['monthly_3d_intro'] },
      currency: 'USD',
    });
    expect(offer.map((item) => item.planId)).toEqual([
      'monthly_3d_intro_usd',
      'upsell_monthly_999_usd',
      'upsell_quarterly_999_usd',
    ]);
  });

  it('a route’s upsell plans replace the upsell’s, still at its coupon, after a main purchase', () => {
    const offer = offerOf({
      screens: [...DEFAULT_FLOW, 'upsell_guide'],
      chosen: { upsellPlans: ['upsell_monthly_599'], guidePlans: ['guide_1799'] },
      currency: 'EUR',
    });
    expect(offer).toEqual([
      { planId: 'monthly_7d_intro_eur', coupon: null, afterMain: false },
      { planId: 'monthly_eur', coupon: null, afterMain: false },
      { planId: 'quarterly_eur', coupon: null, afterMain: false },
      { planId: 'upsell_monthly_599_eur', coupon: 'upsell_30', afterMain: true },
      { planId: 'guide_1799_eur', coupon: null, afterMain: true },
    ]);
    expect(checkOrder(offer, 'upsell_monthly_999_eur', 'upsell_30')).toEqual({
      ok: false,
      code: 'plan_not_offered',
    });
    expect(checkOrder(offer, 'upsell_monthly_599_eur', null)).toEqual({
      ok: false,
      code: 'coupon_not_offered',
    });
    expect(checkOrder(offer, 'guide_899_eur', null)).toEqual({
      ok: false,
      code: 'plan_not_offered',
    });
  });

  it('a flow without a selling screen offers nothing', () => {
    expect(
      offerOf({
        screens: ['one_pager_l1', 'signup', 'success'],
        chosen: null,
        currency: 'USD',
      }),
    ).toEqual([]);
  });
});

describe('checkOrder', () => {
  const offer = offerOf({ screens: DEFAULT_FLOW, chosen: null, currency: 'USD' });

  it('lets an offered plan through with exactly its coupon; an empty coupon is none', () => {
    expect(checkOrder(offer, 'monthly_usd', null)).toEqual({ ok: true, afterMain: false });
    expect(checkOrder(offer, 'monthly_usd', '')).toEqual({ ok: true, afterMain: false });
    expect(checkOrder(offer, 'upsell_monthly_999_usd', 'upsell_30')).toEqual({
      ok: true,
      afterMain: true,
    });
  });

  it('refuses another plan, currency or coupon', () => {
    expect(checkOrder(offer, 'monthly_eur', null)).toEqual({ ok: false, code: 'plan_not_offered' });
    expect(checkOrder(offer, 'guide_899_usd', null)).toEqual({
      ok: false,
      code: 'plan_not_offered',
    });
    expect(checkOrder(offer, 'monthly_usd', 'upsell_30')).toEqual({
      ok: false,
      code: 'coupon_not_offered',
    });
    expect(checkOrder(offer, 'upsell_monthly_999_usd', null)).toEqual({
      ok: false,
      code: 'coupon_not_offered',
    });
  });
});
