import { describe, expect, it } from 'vitest';
import type { VerifiedCharge } from '../../../worker/checkout/charge-call';
import { chargeReceiptOf, withReceipt } from '../../../worker/purchases/receipt';

/**
 * The worker's receipt of a verified charge: when the plan renews, in the catalogue's terms. A
 * month is a calendar month, and a charge on a day the next period has not got renews on that
 * period's last day, as card billing cycles do.
 */

const charge = (planId: string | null, amount: number | null = 6.99): VerifiedCharge => ({
  subscriptionId: 'sub_1',
  eventId: 'evt_1',
  amount,
  currency: planId?.endsWith('_eur') ? 'EUR' : 'USD',
  planId,
});

const renewsAt = (planId: string, at: string) =>
  chargeReceiptOf(charge(planId), null, Date.parse(at))?.renews_at;

describe('when a plan renews', () => {
  it('after an intro, its days later to the millisecond', () => {
    expect(renewsAt('monthly_3d_intro_usd', '2026-12-30T23:59:59.000Z')).toBe(
      '2027-01-02T23:59:59.000Z',
    );
  });

  it('monthly: the same day next month, or that month’s last day', () => {
    expect(renewsAt('monthly_usd', '2026-11-26T10:00:00.000Z')).toBe('2026-12-26T10:00:00.000Z');
    expect(renewsAt('monthly_usd', '2027-01-31T08:00:00.000Z')).toBe('2027-02-28T08:00:00.000Z');
    expect(renewsAt('monthly_usd', '2028-01-31T08:00:00.000Z')).toBe('2028-02-29T08:00:00.000Z');
    expect(renewsAt('monthly_usd', '2026-12-15T00:00:00.000Z')).toBe('2027-01-15T00:00:00.000Z');
  });

  it('quarterly: three calendar months on', () => {
    expect(renewsAt('quarterly_eur', '2026-11-30T12:00:00.000Z')).toBe('2027-02-28T12:00:00.000Z');
    expect(renewsAt('upsell_quarterly_999_usd', '2026-08-31T12:00:00.000Z')).toBe(
      '2026-11-30T12:00:00.000Z',
    );
  });

  it('a one-time guide never', () => {
    expect(chargeReceiptOf(charge('guide_899_usd', 8.99), null, 0)).toMatchObject({
      amount: 899,
      renews_at: null,
      renewal_amount: null,
    });
  });
});

describe('what a renewal takes', () => {
  it('the recurring price, less a coupon the plan accepts, as the page discloses it', () => {
    const upsell = charge('upsell_monthly_999_usd');
    expect(chargeReceiptOf(upsell, null, 0)?.renewal_amount).toBe(999);
    expect(chargeReceiptOf(upsell, 'upsell_30', 0)?.renewal_amount).toBe(699);
    // A coupon for upsells takes nothing off a main plan; an unknown code nothing at all.
    expect(chargeReceiptOf(charge('monthly_usd'), 'upsell_30', 0)?.renewal_amount).toBe(3999);
    expect(chargeReceiptOf(upsell, 'FREE100', 0)?.renewal_amount).toBe(999);
  });
});

describe('what the receipt cannot say', () => {
  it('nothing for a plan not in the catalogue, no amount, or money in another currency', () => {
    expect(chargeReceiptOf(charge(null), null, 0)).toBeNull();
    expect(chargeReceiptOf(charge('monthly_gbp'), null, 0)).toBeNull();
    expect(chargeReceiptOf(charge('monthly_usd', null), null, 0)).toBeNull();
    expect(chargeReceiptOf({ ...charge('monthly_usd'), currency: 'EUR' }, null, 0)).toBeNull();
  });

  it('amounts in minor units, without float drift', () => {
    expect(chargeReceiptOf(charge('monthly_usd', 39.99), null, 0)?.amount).toBe(3999);
    expect(chargeReceiptOf(charge('monthly_usd', 0.29), null, 0)?.amount).toBe(29);
  });
});

describe('where the receipt goes in the answer', () => {
  const receipt = chargeReceiptOf(charge('monthly_usd'), null, 0);
  it('beside the charge’s fields of either route; any other body is left as it was', () => {
    if (!receipt) throw new Error('no receipt');
    expect(
      withReceipt('pollingResult', { data: { result_data: { status: 'succeeded' } } }, receipt),
    ).toEqual({ data: { result_data: { status: 'succeeded', receipt } } });
    expect(withReceipt('directSubscription', { data: { subscription_id: 's' } }, receipt)).toEqual({
      data: { subscription_id: 's', receipt },
    });
    expect(withReceipt('pollingResult', { data: { result_data: null } }, receipt)).toEqual({
      data: { result_data: null },
    });
    expect(withReceipt('directSubscription', 'text', receipt)).toBe('text');
  });
});
