import { describe, expect, it } from 'vitest';
import { ApiErrorBody, DirectSubscriptionResponse } from '../../../shared/api/contract';
import { signUp } from '../portal/portal-client';
import {
  authenticate,
  CARDS,
  charge,
  chargeDirectly,
  fetchWorker,
  subscriptionRows,
  tokenize,
  verify,
} from './gateway-client';

/** SPEC.md §4 Alternate provider with 3-D Secure, on the direct call. */
describe('POST /users/me/subscriptions/{planId} with the test gateway', () => {
  it("answers 'User action required' with the nonce and amount for an unverified 3-D Secure card", async () => {
    const { accessToken, userId } = await signUp();
    const nonce = await tokenize(CARDS.alwaysAuthenticate);
    const response = await chargeDirectly(accessToken, charge(nonce));
    expect(response.status).toBe(422);
    expect(ApiErrorBody.parse(await response.json())).toEqual({
      errors: { messages: ['User action required'] },
      code: 'user_action_required',
      data: { payment_method_nonce: nonce, validation_amount: '6.99' },
    });
    expect(await subscriptionRows(userId)).toEqual([]);
  });

  it('verify → challenge completed → the verified nonce is charged', async () => {
    const { accessToken, userId } = await signUp();
    const nonce = await tokenize(CARDS.alwaysAuthenticate);
    const challenge = await verify(nonce, '6.99');
    if (challenge.status !== 'requires_action') throw new Error('3184 needs a challenge');
    expect(challenge.challengeUrl).toBe(`/test-gateway/challenge/${challenge.intentId}`);
    expect((await fetchWorker(challenge.challengeUrl)).status).toBe(200);
    // Retrying before the challenge is done still needs the visitor.
    expect((await chargeDirectly(accessToken, charge(nonce))).status).toBe(422);

    await authenticate(challenge.intentId, 'complete');
    const response = await chargeDirectly(accessToken, charge(nonce));
    expect(response.status).toBe(200);
    const { data } = DirectSubscriptionResponse.parse(await response.json());
    expect(data).toMatchObject({ customer_id: `cus_${userId}`, price_with_discount: 6.99 });
    expect(await subscriptionRows(userId)).toEqual([
      expect.objectContaining({ id: data.subscription_id, status: 'active' }),
    ]);
    // A verified card verifies again at once.
    expect(await verify(nonce, '6.99')).toEqual({ status: 'succeeded', nonce });
  });

  it('a failed challenge declines the charge with authentication_required', async () => {
    const { accessToken } = await signUp();
    const nonce = await tokenize(CARDS.alwaysAuthenticate);
    const challenge = await verify(nonce, '6.99');
    if (challenge.status !== 'requires_action') throw new Error('3184 needs a challenge');
    await authenticate(challenge.intentId, 'fail');
    const response = await chargeDirectly(accessToken, charge(nonce));
    expect(response.status).toBe(422);
    expect(ApiErrorBody.parse(await response.json())).toMatchObject({
      decline_code: 'authentication_required',
    });
  });

  it("4000 0084 0000 1629 verified: declined, card_declined as the decline code, Braintree's processor response as the message", async () => {
    const { accessToken, userId } = await signUp();
    const nonce = await tokenize(CARDS.declinedAfterAuthentication);
    const challenge = await verify(nonce, '6.99');
    if (challenge.status !== 'requires_action') throw new Error('1629 needs a challenge');
    await authenticate(challenge.intentId, 'complete');
    const response = await chargeDirectly(accessToken, charge(nonce));
    expect(response.status).toBe(422);
    expect(ApiErrorBody.parse(await response.json())).toEqual({
      errors: { messages: ['2000 Do Not Honor'] },
      code: 'payment_declined',
      decline_code: 'card_declined',
    });
    expect((await subscriptionRows(userId)).map((row) => row.status)).toEqual(['declined']);
  });

  it('a card without 3-D Secure verifies at once and a decline answers its code', async () => {
    const { accessToken } = await signUp();
    const nonce = await tokenize(CARDS.insufficientFunds);
    expect(await verify(nonce, '6.99')).toEqual({ status: 'succeeded', nonce });
    const response = await chargeDirectly(accessToken, charge(nonce));
    expect(ApiErrorBody.parse(await response.json())).toMatchObject({
      errors: { messages: ['2001 Insufficient Funds'] },
      decline_code: 'insufficient_funds',
    });
  });
});
