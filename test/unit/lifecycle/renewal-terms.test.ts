import { describe, expect, it } from 'vitest';
import {
  pausedRefusal,
  renewalTermsOf,
  renewsAfterPause,
  type TakenOffer,
} from '../../../portal/renewal-terms';

/**
 * What a renewal costs in the embedded portal after the save offers a subscription took
 * (portal/renewal-terms.ts): the one rule its read, a save offer's answer and
 * `npm run portal -- renew` follow.
 */

const MONTHLY = { planId: 'monthly_usd', coupon: null };
const TAKEN = '2026-12-01T10:00:00.000Z';

function offer(overrides: Partial<TakenOffer>): TakenOffer {
  return {
    action: 'discount',
    percentOff: null,
    renewals: null,
    planAfter: 'monthly_usd',
    pausedUntil: null,
    takenAt: TAKEN,
    ...overrides,
  };
}

describe('renewalTermsOf', () => {
  it('without an offer: the recurring price less the subscription’s own coupon', () => {
    expect(renewalTermsOf(MONTHLY, [], [])).toMatchObject({
      planId: 'monthly_usd',
      amount: 3999,
      couponRenewalsLeft: 0,
      pausedUntil: null,
    });
    const upsell = { planId: 'upsell_monthly_999_usd', coupon: 'upsell_30' };
    expect(renewalTermsOf(upsell, [], []).amount).toBe(699);
    expect(renewalTermsOf({ planId: 'guide_899_usd', coupon: null }, [], []).amount).toBeNull();
    expect(renewalTermsOf({ planId: 'legacy', coupon: null }, [], [])).toMatchObject({
      plan: null,
      amount: null,
    });
  });

  it('a discount lasts its renewals, counting only those paid after it was taken', () => {
    const discount = offer({ percentOff: 25, renewals: 2 });
    const before = '2026-11-01T10:00:00.000Z';
    const after = ['2027-01-01T10:00:00.000Z', '2027-02-01T10:00:00.000Z'];
    expect(renewalTermsOf(MONTHLY, [discount], [before])).toMatchObject({
      amount: 2999,
      couponRenewalsLeft: 2,
    });
    expect(renewalTermsOf(MONTHLY, [discount], [before, ...after.slice(0, 1)])).toMatchObject({
      amount: 2999,
      couponRenewalsLeft: 1,
    });
    expect(renewalTermsOf(MONTHLY, [discount], [before, ...after])).toMatchObject({
      amount: 3999,
      couponRenewalsLeft: 0,
    });
  });

  it('a switch renews on its plan, and a later discount is off that plan’s price', () => {
    const upsell = { planId: 'upsell_monthly_999_usd', coupon: null };
    const switched = offer({ action: 'switch', planAfter: 'upsell_monthly_599_usd' });
    expect(renewalTermsOf(upsell, [switched], [])).toMatchObject({
      planId: 'upsell_monthly_599_usd',
      amount: 599,
    });
    const later = offer({
      percentOff: 50,
      renewals: 1,
      planAfter: 'upsell_monthly_599_usd',
      takenAt: '2028-01-01T00:00:00.000Z',
    });
    expect(renewalTermsOf(upsell, [switched, later], []).amount).toBe(299);
  });

  it('a pause names its end, and a renewal before it is refused', () => {
    const until = '2027-03-01T10:00:00.000Z';
    const terms = renewalTermsOf(MONTHLY, [offer({ action: 'pause', pausedUntil: until })], []);
    expect(terms).toMatchObject({ amount: 3999, pausedUntil: until });
    expect(pausedRefusal('sub_1', terms, '2027-03-01T09:59:59.999Z')).toBe(
      `subscription sub_1 is paused until ${until}: it renews then, not before`,
    );
    expect(pausedRefusal('sub_1', terms, until)).toBeNull();
    expect(pausedRefusal('sub_1', { pausedUntil: null }, TAKEN)).toBeNull();
  });
});

describe('renewsAfterPause', () => {
  it('is the scheduled renewal, or the pause’s end where that is later', () => {
    const scheduled = Date.parse('2027-01-01T10:00:00.000Z');
    expect(renewsAfterPause(scheduled, null)).toBe(scheduled);
    expect(renewsAfterPause(scheduled, '2027-03-01T10:00:00.000Z')).toBe(
      Date.parse('2027-03-01T10:00:00.000Z'),
    );
    expect(renewsAfterPause(scheduled, '2026-01-01T10:00:00.000Z')).toBe(scheduled);
    expect(renewsAfterPause(null, '2027-03-01T10:00:00.000Z')).toBeNull();
  });
});
