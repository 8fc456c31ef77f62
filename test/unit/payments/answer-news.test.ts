import { describe, expect, it } from 'vitest';
import { answerNews } from '../../../worker/purchase-ledger/ledger';

/**
 * What the product API's answer to a charge call tells the purchase's attempt ledger
 * (worker/purchase-ledger/ledger.ts): the outcome the charge outcome's tables read, or
 * nothing yet.
 */

const outcome = (...args: Parameters<typeof answerNews>) => answerNews(...args).reading?.outcome;
const result = (fields: Record<string, unknown>) => ({
  status: 200,
  body: { data: { result_data: fields } },
});

describe('answerNews', () => {
  it('reads no answer and any 5xx as unknown: it may have charged', () => {
    expect(outcome('pollingSubscription', null)).toBe('TECH_UNKNOWN');
    expect(outcome('directSubscription', { status: 502, body: null })).toBe('TECH_UNKNOWN');
    expect(outcome('pollingResult', { status: 500, body: null })).toBe('TECH_UNKNOWN');
  });

  it('keeps a polling start pending under its polling id, and a 202 as news of nothing', () => {
    const started = { status: 200, body: { data: { polling_result_id: 'poll_1' } } };
    expect(answerNews('pollingSubscription', started)).toMatchObject({
      reading: null,
      pollingId: 'poll_1',
    });
    const waiting = { status: 202, body: { data: { result_data: null } } };
    expect(answerNews('pollingResult', waiting)).toMatchObject({ reading: null });
  });

  it('reads a final result: a charge, a decline by its code, a 3-D Secure request', () => {
    expect(outcome('pollingResult', result({ status: 'succeeded', subscription_id: 's' }))).toBe(
      'APPROVED',
    );
    expect(
      outcome('pollingResult', result({ status: 'failed', decline_code: 'stolen_card' })),
    ).toBe('HARD');
    expect(
      outcome('pollingResult', result({ status: 'failed', decline_code: 'do_not_honor' })),
    ).toBe('SOFT_ROUTE');
    const braintree = result({ status: 'failed', processor_response: '2001 Insufficient Funds' });
    expect(outcome('pollingResult', braintree)).toBe('SOFT_LATER');
    expect(answerNews('pollingResult', result({ status: 'requires_action' }))).toMatchObject({
      reading: { outcome: 'AUTH_REQUIRED' },
      challenged: true,
    });
  });

  it("reads the network's codes first and hands them on for the retry governor", () => {
    const visaStop = result({
      status: 'failed',
      decline_code: 'do_not_honor',
      network_decline_code: '14',
    });
    expect(answerNews('pollingResult', visaStop)).toMatchObject({
      reading: { outcome: 'HARD' },
      codes: { responseCode: '14', adviceCode: null },
    });
    const mastercardStop = {
      errors: { messages: ['Declined'] },
      decline_code: '2000',
      network_advice_code: '03',
    };
    expect(answerNews('directSubscription', { status: 422, body: mastercardStop })).toMatchObject({
      reading: { outcome: 'HARD', advised: true },
      codes: { responseCode: null, adviceCode: '03' },
    });
  });

  it("reads the direct call's answers: a subscription, a decline, 'User action required', a refusal", () => {
    expect(
      outcome('directSubscription', { status: 200, body: { data: { subscription_id: 's' } } }),
    ).toBe('APPROVED');
    const declined = { errors: { messages: ['Expired'] }, decline_code: 'expired_card' };
    expect(outcome('directSubscription', { status: 422, body: declined })).toBe('HARD');
    const verify = {
      errors: { messages: ['User action required'] },
      data: { payment_method_nonce: 'n', validation_amount: 6.99 },
    };
    expect(outcome('directSubscription', { status: 422, body: verify })).toBe('AUTH_REQUIRED');
    const refused = { errors: { messages: ['No payment method on file.'] } };
    expect(outcome('directSubscription', { status: 422, body: refused })).toBe('TECH_NOT_SENT');
  });
});
