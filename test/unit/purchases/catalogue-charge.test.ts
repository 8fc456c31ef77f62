import { describe, expect, it } from 'vitest';
import { completeFromCatalogue } from '../../../worker/checkout/catalogue-charge';
import type { VerifiedCharge } from '../../../worker/checkout/charge-call';
import { readCharge } from '../../../worker/purchases/after-charge';

const ANSWERED: VerifiedCharge = {
  subscriptionId: 'sub_1',
  eventId: 'evt_1',
  amount: null,
  currency: null,
  planId: null,
};

describe('a charge completed from the catalogue', () => {
  it('an answer that says everything is taken as it is, whatever was asked', () => {
    const full = { ...ANSWERED, amount: 12.5, currency: 'USD', planId: 'monthly_usd' };
    expect(completeFromCatalogue(full, { planId: 'quarterly_eur', coupon: 'upsell_30' })).toEqual({
      charge: full,
      filled: [],
    });
  });

  it.each([
    // The first payment: an intro plan's intro price, a plan without one its price.
    ['monthly_7d_intro_usd', null, 6.99, 'USD'],
    ['monthly_eur', null, 39.99, 'EUR'],
    ['quarterly_usd', null, 59.99, 'USD'],
    // The coupon the request carried, where it applies (SPEC.md §1: the private upsell at 30% off).
    ['upsell_monthly_799_eur', 'upsell_30', 5.59, 'EUR'],
    ['monthly_usd', 'upsell_30', 39.99, 'USD'],
    ['upsell_monthly_999_usd', 'made_up_90', 9.99, 'USD'],
    // A guide is sold at its catalogue price (the one-time discount is already in it).
    ['guide_899_usd', null, 8.99, 'USD'],
  ])('%s with coupon %s: %d %s', (planId, coupon, amount, currency) => {
    expect(completeFromCatalogue(ANSWERED, { planId, coupon })).toEqual({
      charge: { ...ANSWERED, planId, amount, currency },
      filled: ['plan_id', 'price_with_discount', 'currency'],
    });
  });

  it("the answer's own plan wins over the one asked for, and only what is missing is filled", () => {
    const answered = { ...ANSWERED, planId: 'monthly_eur', amount: 30 };
    expect(completeFromCatalogue(answered, { planId: 'monthly_usd', coupon: null })).toEqual({
      charge: { ...answered, currency: 'EUR' },
      filled: ['currency'],
    });
  });

  it('an answer in another currency than the plan gets no catalogue price: it would be the wrong money', () => {
    const answered = { ...ANSWERED, currency: 'GBP' };
    expect(completeFromCatalogue(answered, { planId: 'monthly_usd', coupon: null })).toEqual({
      charge: { ...answered, planId: 'monthly_usd' },
      filled: ['plan_id'],
    });
  });

  it('a plan the catalogue does not know, or nothing asked: nothing is made up', () => {
    expect(completeFromCatalogue(ANSWERED, { planId: 'legacy_9', coupon: null })).toEqual({
      charge: { ...ANSWERED, planId: 'legacy_9' },
      filled: ['plan_id'],
    });
    expect(completeFromCatalogue(ANSWERED, null)).toEqual({ charge: ANSWERED, filled: [] });
  });
});

describe('what a polling id charged, as kept', () => {
  it('reads the JSON memo, and a bare card fingerprint kept before the plan was', () => {
    expect(readCharge('{"card":"fp_1","planId":"monthly_usd","coupon":null}')).toEqual({
      card: 'fp_1',
      planId: 'monthly_usd',
      coupon: null,
      visitorId: null,
      userId: null,
      ledger: null,
    });
    expect(readCharge('fp_old')).toEqual({
      card: 'fp_old',
      planId: null,
      coupon: null,
      visitorId: null,
      userId: null,
      ledger: null,
    });
    expect(
      readCharge(
        '{"card":null,"planId":"monthly_usd","coupon":null,"visitorId":"v-1","userId":"u-1"}',
      ),
    ).toMatchObject({ visitorId: 'v-1', userId: 'u-1' });
    // Where the POST's attempt is kept (worker/purchase-ledger/), only when whole.
    const ledger = { purchase: 'purchase:p:monthly_usd', attempt: 'k-1', card: 'c-1' };
    expect(readCharge(JSON.stringify({ card: null, ledger }))).toMatchObject({ ledger });
    expect(readCharge(JSON.stringify({ ledger: { ...ledger, card: 7 } }))).toMatchObject({
      ledger: null,
    });
    expect(readCharge(null)).toBeNull();
    expect(readCharge('{broken')).toBeNull();
    expect(readCharge('{"card":7,"planId":["x"]}')).toEqual({
      card: null,
      planId: null,
      coupon: null,
      visitorId: null,
      userId: null,
      ledger: null,
    });
  });
});
