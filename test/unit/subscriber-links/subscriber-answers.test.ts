import { describe, expect, it } from 'vitest';
import { readAnswer } from '../../../shared/api/answer-fields';
import {
  PAY_DUE_ANSWER,
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

  it('names the due when the product API does, and makes do without', () => {
    const named = readAnswer(SUBSCRIPTION_READ_ANSWER, {
      data: { status: 'active', amount_due: 39.99, due_id: 'in_42' },
    });
    expect(named).toMatchObject({ ok: true, value: { data: { due_id: 'in_42' } } });
    if (named.ok) expect(named.drift.map((drift) => drift.field)).not.toContain('data.due_id');
    const numbered = readAnswer(SUBSCRIPTION_READ_ANSWER, {
      data: { status: 'active', amount_due: 39.99, due_id: 42 },
    });
    expect(numbered).toMatchObject({ ok: true, value: { data: { due_id: '42' } } });
    const unnamed = readAnswer(SUBSCRIPTION_READ_ANSWER, {
      data: { status: 'active', amount_due: 39.99, due_id: '' },
    });
    expect(unnamed).toMatchObject({ ok: true, value: { data: { due_id: null } } });
    if (unnamed.ok) expect(unnamed.drift.map((drift) => drift.field)).toContain('data.due_id');
  });

  it('a payment’s next renewal is taken when given, else none, its drift noted', () => {
    const dated = readAnswer(PAY_DUE_ANSWER, {
      data: { status: 'succeeded', renews_at: '2026-12-28T10:00:00.000Z' },
    });
    expect(dated).toMatchObject({
      ok: true,
      value: { data: { renews_at: '2026-12-28T10:00:00.000Z' } },
    });
    // Unix seconds, as Stripe gives its times: taken, and noted as drift.
    const seconds = readAnswer(PAY_DUE_ANSWER, {
      data: { status: 'succeeded', renews_at: 1_798_452_000 },
    });
    expect(seconds).toMatchObject({
      ok: true,
      value: { data: { renews_at: '2026-12-28T10:00:00.000Z' } },
    });
    const undated = readAnswer(PAY_DUE_ANSWER, {
      data: { status: 'succeeded', renews_at: 'soon' },
    });
    expect(undated).toMatchObject({ ok: true, value: { data: { renews_at: null } } });
    if (undated.ok) expect(undated.drift.map((drift) => drift.field)).toContain('data.renews_at');
    expect(readAnswer(PAY_DUE_ANSWER, { data: { status: 'succeeded' } })).toMatchObject({
      ok: true,
      value: { data: { renews_at: null } },
      drift: [],
    });
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
