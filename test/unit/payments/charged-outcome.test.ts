import { describe, expect, it } from 'vitest';
import { chargedOutcome } from '../../../islands/payments/outcomes';
import { TRIAL_RECEIPT } from './fakes';

/**
 * What the page takes from a successful charge answer for the receipt: the worker's receipt
 * (worker/purchases/receipt.ts) as it is, and nothing of one that is not in its shape. The page
 * never dates or prices a renewal itself, so a broken receipt means no renewal row, not a guess.
 */

const RECEIPT = TRIAL_RECEIPT;

const receiptOf = (receipt: unknown) => {
  const outcome = chargedOutcome({ subscription_id: 'sub_1', receipt } as never);
  return outcome.kind === 'succeeded' ? outcome.receipt : 'not a success';
};

describe('the receipt a charge answer carries', () => {
  it('is taken as the worker wrote it, a one-time purchase with no renewal included', () => {
    expect(receiptOf(RECEIPT)).toEqual(RECEIPT);
    const guide = { ...RECEIPT, plan_id: 'guide_899_usd', renews_at: null, renewal_amount: null };
    expect(receiptOf(guide)).toEqual(guide);
    const linked = { ...RECEIPT, manage_url: 'https://funnel.test/subscription/manage.x' };
    expect(receiptOf(linked)).toEqual(linked);
  });

  it('is none when absent or not in its shape', () => {
    for (const broken of [
      undefined,
      null,
      'receipt',
      [],
      { ...RECEIPT, amount: 6.99 },
      { ...RECEIPT, amount: -1 },
      { ...RECEIPT, currency: 'usd' },
      { ...RECEIPT, charged_at: 'yesterday' },
      { ...RECEIPT, renews_at: 'soon' },
      { ...RECEIPT, renews_at: undefined },
      { ...RECEIPT, renewal_amount: '39.99' },
      { ...RECEIPT, plan_id: 42 },
    ]) {
      expect(receiptOf(broken), JSON.stringify(broken)).toBeNull();
    }
  });
});
