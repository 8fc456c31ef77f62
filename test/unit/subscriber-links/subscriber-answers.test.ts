import { describe, expect, it } from 'vitest';
import { readAnswer } from '../../../shared/api/answer-fields';
import {
  SUBSCRIBER_ACTION_ANSWER,
  SUBSCRIPTION_READ_ANSWER,
} from '../../../shared/api/subscriber-calls';
import { GUARANTEE_DAYS, guaranteeApplies } from '../../../shared/plans/guarantee';

/**
 * What the subscriber's page takes from the product API (shared/api/subscriber-calls.ts), as
 * tolerantly as the `/api` answers, and the money-back guarantee's terms (shared/plans/guarantee.ts).
 */

describe('the subscription’s answer', () => {
  it('needs only its status; other fields take their fallbacks, and their drift is noted', () => {
    const read = readAnswer(SUBSCRIPTION_READ_ANSWER, {
      data: { status: 'Active', paid_amount: '6.99', card_last4: 4242, extra: 'dropped' },
    });
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.value.data).toMatchObject({
      status: 'active',
      paid_amount: 6.99,
      card_last4: '4242',
      renews_at: null,
      plan_id: null,
    });
    expect(read.value.data).not.toHaveProperty('extra');
    expect(read.drift.map((drift) => drift.field)).toContain('data.status');
  });

  it('refuses an answer without a status: the page cannot say whether it renews', () => {
    const read = readAnswer(SUBSCRIPTION_READ_ANSWER, { data: { plan_id: 'monthly_usd' } });
    expect(read).toMatchObject({ ok: false, missing: 'data.status' });
  });

  it('takes any 2xx of an action as done, whatever its body', () => {
    const read = readAnswer(SUBSCRIBER_ACTION_ANSWER, {});
    expect(read).toMatchObject({ ok: true, value: { data: { status: 'canceled' } } });
  });
});

describe('the money-back guarantee’s terms', () => {
  const charged = Date.UTC(2026, 10, 1);
  const subject = {
    status: 'active',
    chargedAt: new Date(charged).toISOString(),
    paidAmount: 6.99,
  };
  const day = 86_400_000;

  it(`applies for ${GUARANTEE_DAYS} days after the first charge, canceled or not`, () => {
    expect(guaranteeApplies(subject, charged + day)).toBe(true);
    expect(guaranteeApplies({ ...subject, status: 'canceled' }, charged + day)).toBe(true);
    expect(guaranteeApplies(subject, charged + GUARANTEE_DAYS * day - 1)).toBe(true);
    expect(guaranteeApplies(subject, charged + GUARANTEE_DAYS * day)).toBe(false);
  });

  it('not once refunded, nor for nothing paid, nor without a known first charge', () => {
    expect(guaranteeApplies({ ...subject, status: 'refunded' }, charged)).toBe(false);
    expect(guaranteeApplies({ ...subject, paidAmount: 0 }, charged)).toBe(false);
    expect(guaranteeApplies({ ...subject, chargedAt: null }, charged)).toBe(false);
  });
});
