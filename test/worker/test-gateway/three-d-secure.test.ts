import { describe, expect, it } from 'vitest';
import { intentIdOfSecret, paymentIntentPath } from '../../../shared/test-gateway-protocol';
import { bearer, callPortal, signUp } from '../portal/portal-client';
import {
  authenticate,
  CARDS,
  charge,
  chargeByPolling,
  fetchWorker,
  PLAN,
  subscriptionRows,
  tokenize,
} from './gateway-client';

/** A charge that required action, as the checkout holds it before the challenge. */
async function chargeNeedingAuthentication(card: string) {
  const { accessToken, userId } = await signUp();
  const nonce = await tokenize(card);
  const { result } = await chargeByPolling(accessToken, charge(nonce));
  const secret = result.payment_intent_secret ?? '';
  const intentId = intentIdOfSecret(secret) ?? 'no intent id in the secret';
  expect(intentId).toBe(result.payment_intent_id);
  // SPEC.md §4 Payment step 4: repeat the call with the intent id.
  const repeat = () => chargeByPolling(accessToken, charge(nonce, { payment_intent_id: intentId }));
  return { accessToken, userId, intentId, repeat };
}

describe('3-D Secure through the polling call (SPEC.md §4 Payment step 4)', () => {
  it('4000 0027 6000 3184: challenge completed, the repeated call succeeds', async () => {
    const { userId, intentId, repeat } = await chargeNeedingAuthentication(
      CARDS.alwaysAuthenticate,
    );
    expect(await authenticate(intentId, 'complete')).toEqual({ id: intentId, status: 'succeeded' });
    const { result } = await repeat();
    expect(result).toMatchObject({
      status: 'succeeded',
      decline_code: null,
      price_with_discount: 6.99,
    });
    expect(result.event_id).toMatch(/^evt_/);
    expect(await subscriptionRows(userId)).toEqual([
      expect.objectContaining({ id: result.subscription_id, status: 'active' }),
    ]);
  });

  it('4000 0027 6000 3184: challenge failed, the repeated call fails and nothing is charged', async () => {
    const { userId, intentId, repeat } = await chargeNeedingAuthentication(
      CARDS.alwaysAuthenticate,
    );
    await authenticate(intentId, 'fail');
    const { result } = await repeat();
    expect(result).toMatchObject({ status: 'failed', decline_code: 'authentication_required' });
    expect((await subscriptionRows(userId)).map((row) => row.status)).toEqual(['declined']);
  });

  it('a repeated call without finishing the challenge fails with authentication_required', async () => {
    const { intentId, repeat } = await chargeNeedingAuthentication(CARDS.alwaysAuthenticate);
    expect((await repeat()).result.decline_code).toBe('authentication_required');
    // The challenge cannot turn a settled payment around afterwards.
    await authenticate(intentId, 'complete');
    expect((await repeat()).result.status).toBe('failed');
  });

  it('4000 0084 0000 1629: authenticated, then declined with card_declined', async () => {
    const { userId, intentId, repeat } = await chargeNeedingAuthentication(
      CARDS.declinedAfterAuthentication,
    );
    await authenticate(intentId, 'complete');
    const { result } = await repeat();
    expect(result).toMatchObject({
      status: 'failed',
      decline_code: 'card_declined',
      processor_response: 'Your card was declined.',
    });
    expect((await subscriptionRows(userId)).map((row) => row.status)).toEqual(['declined']);
  });

  it('repeating the confirmation, even at once, answers the same subscription: one charge', async () => {
    const { userId, intentId, repeat } = await chargeNeedingAuthentication(
      CARDS.alwaysAuthenticate,
    );
    await authenticate(intentId, 'complete');
    const [a, b] = await Promise.all([repeat(), repeat()]);
    const c = await repeat();
    expect(a.result.subscription_id).toBeTruthy();
    expect(b.result).toEqual(a.result);
    expect(c.result).toEqual(a.result);
    const rows = await subscriptionRows(userId);
    expect(rows.filter((row) => row.status === 'active')).toHaveLength(1);
    expect(rows).toHaveLength(1);
  });

  it('the first outcome of a challenge stays; the intent reads as it was decided', async () => {
    const { intentId } = await chargeNeedingAuthentication(CARDS.alwaysAuthenticate);
    const pending = await fetchWorker(paymentIntentPath(intentId));
    expect(await pending.json()).toEqual({ id: intentId, status: 'requires_action' });
    await authenticate(intentId, 'fail');
    expect(await authenticate(intentId, 'complete')).toEqual({ id: intentId, status: 'failed' });
  });

  it("refuses another visitor's intent (404)", async () => {
    const { intentId } = await chargeNeedingAuthentication(CARDS.alwaysAuthenticate);
    const stranger = await signUp();
    const response = await callPortal(`/users/me/subscriptions/polling/${PLAN}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(stranger.accessToken) },
      body: JSON.stringify(charge(null, { payment_intent_id: intentId })),
    });
    expect(response.status).toBe(404);
    expect(await subscriptionRows(stranger.userId)).toEqual([]);
  });
});
