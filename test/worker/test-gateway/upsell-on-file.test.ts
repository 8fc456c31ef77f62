import { describe, expect, it } from 'vitest';
import { ApiErrorBody } from '../../../shared/api/contract';
import { signUp } from '../portal/portal-client';
import {
  CARDS,
  charge,
  chargeByPolling,
  chargeDirectly,
  subscriptionRows,
  tokenize,
} from './gateway-client';

/** Upsells: one click charges the payment method already on file. */
describe('a charge without a payment method', () => {
  it('charges the method of the last successful subscription', async () => {
    const { accessToken, userId } = await signUp();
    const card = await tokenize(CARDS.succeeds);
    await chargeByPolling(accessToken, charge(card));
    const { result } = await chargeByPolling(
      accessToken,
      charge(null, { user_data: { price: 9.99 } }),
      {},
      'upsell_monthly_999_usd',
    );
    // The answer names the card on file it charged, as the upsell screen named it beforehand.
    expect(result).toMatchObject({
      status: 'succeeded',
      price_with_discount: 9.99,
      card_brand: 'visa',
      card_last4: '4242',
    });
    expect(await subscriptionRows(userId)).toEqual([
      expect.objectContaining({ status: 'active', payment_method: card }),
      expect.objectContaining({ status: 'active', payment_method: card }),
    ]);
  });

  it('skips declined attempts: the card that paid is the one on file', async () => {
    const { accessToken, userId } = await signUp();
    const good = await tokenize(CARDS.succeeds);
    await chargeByPolling(accessToken, charge(good));
    await chargeByPolling(accessToken, charge(await tokenize(CARDS.genericDecline)));
    const { result } = await chargeByPolling(accessToken, charge(null));
    expect(result.status).toBe('succeeded');
    expect((await subscriptionRows(userId)).at(-1)).toMatchObject({ payment_method: good });
  });

  it.each([
    ['nothing was ever charged', [] as string[]],
    ['only a declined card was tried', [CARDS.genericDecline]],
  ])("answers 422 'No payment method on file.' when %s", async (_, tried) => {
    const { accessToken, userId } = await signUp();
    for (const card of tried) await chargeByPolling(accessToken, charge(await tokenize(card)));
    const response = await chargeDirectly(accessToken, charge(null));
    expect(response.status).toBe(422);
    expect(ApiErrorBody.parse(await response.json())).toMatchObject({
      errors: { messages: ['No payment method on file.'] },
      code: 'no_payment_method',
    });
    expect((await subscriptionRows(userId)).filter((row) => row.status === 'active')).toEqual([]);
  });
});
