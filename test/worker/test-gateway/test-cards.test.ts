import { describe, expect, it } from 'vitest';
import { PollingResultResponse, PollingStartResponse } from '../../../shared/api/contract';
import { bearer, callPortal, finalPollingResult, signUp } from '../portal/portal-client';
import { CARDS, charge, chargeByPolling, PLAN, subscriptionRows, tokenize } from './gateway-client';

describe('the test cards through the polling call (SPEC.md §4 Payment)', () => {
  it('4242 4242 4242 4242 succeeds: an active subscription with its event and price', async () => {
    const { accessToken, userId } = await signUp();
    const { result } = await chargeByPolling(accessToken, charge(await tokenize(CARDS.succeeds)));
    const [row] = await subscriptionRows(userId);
    expect(result).toEqual({
      status: 'succeeded',
      subscription_id: row?.id,
      event_id: expect.stringMatching(/^evt_/),
      price_with_discount: 6.99,
      payment_intent_secret: null,
      payment_intent_id: null,
      decline_code: null,
      processor_response: null,
      plan_id: PLAN,
      currency: 'USD',
      // The card charged, named for the receipt and the upsell that charges it again.
      card_brand: 'visa',
      card_last4: '4242',
    });
    expect(row?.status).toBe('active');
  });

  it.each([
    [CARDS.genericDecline, 'generic_decline', 'Your card was declined.'],
    [CARDS.insufficientFunds, 'insufficient_funds', 'Your card has insufficient funds.'],
    [CARDS.expired, 'expired_card', 'Your card has expired.'],
    [CARDS.incorrectCvc, 'incorrect_cvc', "Your card's security code is incorrect."],
    [
      CARDS.processingError,
      'processing_error',
      'An error occurred while processing your card. Try again in a little bit.',
    ],
    [CARDS.fraudulent, 'fraudulent', 'Your card was declined.'],
    [
      CARDS.velocityExceeded,
      'card_velocity_exceeded',
      'Your card was declined for making repeated attempts too frequently.',
    ],
  ])('%s fails with %s, recorded as declined and never active', async (card, code, text) => {
    const { accessToken, userId } = await signUp();
    const { result } = await chargeByPolling(accessToken, charge(await tokenize(card)));
    expect(result).toMatchObject({
      status: 'failed',
      subscription_id: null,
      event_id: null,
      decline_code: code,
      processor_response: text,
    });
    expect(await subscriptionRows(userId)).toEqual([
      expect.objectContaining({ status: 'declined', decline_code: code }),
    ]);
  });

  it.each([[CARDS.alwaysAuthenticate], [CARDS.declinedAfterAuthentication]])(
    '%s requires action with a payment intent secret',
    async (card) => {
      const { accessToken } = await signUp();
      const { result } = await chargeByPolling(accessToken, charge(await tokenize(card)));
      expect(result.status).toBe('requires_action');
      expect(result.payment_intent_id).toMatch(/^tpi_[0-9a-f]{24}$/);
      expect(result.payment_intent_secret).toMatch(
        new RegExp(`^${result.payment_intent_id}_secret_[A-Za-z0-9_-]+$`),
      );
      expect(result.decline_code).toBeNull();
    },
  );

  it('answers 202 until PORTAL_POLLING_DELAY_MS has passed, then the decline', async () => {
    const { accessToken } = await signUp();
    const postedAt = Date.now();
    const started = await callPortal(
      `/users/me/subscriptions/polling/${PLAN}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...bearer(accessToken) },
        body: JSON.stringify(charge(await tokenize(CARDS.genericDecline))),
      },
      { PORTAL_POLLING_DELAY_MS: '300' },
    );
    const id = PollingStartResponse.parse(await started.json()).data.polling_result_id;
    const early = await callPortal(`/polling/get-result/${id}`);
    expect(early.status).toBe(202);
    expect(PollingResultResponse.parse(await early.json()).data.result_data).toBeNull();
    // Asked again until it is final, as the checkout does: not before the delay had passed.
    const late = await finalPollingResult(id);
    expect(Date.now() - postedAt).toBeGreaterThanOrEqual(300);
    expect(late.status).toBe(200);
    expect(late.body.data.result_data?.status).toBe('failed');
  });

  it('refuses a test-gateway nonce it never issued (422) and records nothing', async () => {
    const { accessToken, userId } = await signUp();
    const response = await callPortal(`/users/me/subscriptions/polling/${PLAN}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(accessToken) },
      body: JSON.stringify(charge('tpm_000000000000000000000000')),
    });
    expect(response.status).toBe(422);
    expect(await subscriptionRows(userId)).toEqual([]);
  });

  it('answers the same polling id for a repeated Idempotency-Key of a decline: one row', async () => {
    const { accessToken, userId } = await signUp();
    const nonce = await tokenize(CARDS.insufficientFunds);
    const key = { 'idempotency-key': crypto.randomUUID() };
    const first = await chargeByPolling(accessToken, charge(nonce), key);
    const again = await chargeByPolling(accessToken, charge(nonce), key);
    expect(again.pollingId).toBe(first.pollingId);
    expect(await subscriptionRows(userId)).toHaveLength(1);
  });
});
