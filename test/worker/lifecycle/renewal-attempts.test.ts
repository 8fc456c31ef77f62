import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { governorCardKey } from '../../../worker/purchase-ledger/ledger';
import { durableCardAttempts } from '../../../worker/retry-governor/card-attempts';
import {
  aBuyer,
  anEvent,
  capturedLogs,
  lifecycleApp,
  NOW,
  NOW_SECONDS,
  remember,
} from './lifecycle-fixtures';

/**
 * Renewals in the retry governor (docs/payments.md "The retry governor"): the product API's
 * renewal and renewal_failed events count as merchant-initiated attempts on the card they name,
 * once each, so the worker's next charge of that card meets the networks' rules with them.
 */

capturedLogs();

const store = durableCardAttempts(env.CARD_ATTEMPTS);
const FAILED_AT = '2026-11-22T07:00:00Z';

describe('a renewal’s charge in the retry governor', () => {
  it('counts a failed renewal on its card as merchant-initiated, once however often it is sent', async () => {
    const buyer = aBuyer();
    await remember(buyer);
    const { send } = lifecycleApp();
    const fingerprint = `fp${crypto.randomUUID().replaceAll('-', '').slice(0, 14)}`;
    const failure = anEvent(buyer.subscriptionId, {
      type: 'renewal_failed',
      occurred_at: FAILED_AT,
      attempt_count: 1,
      decline_code: 'insufficient_funds',
      card_brand: 'visa',
      card_fingerprint: fingerprint,
      network_decline_code: '51',
    });
    expect((await send(failure)).status).toBe(200);
    // Sent again, signed afresh: the same event id, taken once.
    expect((await send(failure, { t: NOW_SECONDS + 5 })).body).toMatchObject({ duplicate: true });
    const attempts = await store.recent(await governorCardKey('anyone', fingerprint));
    expect(attempts).toEqual([
      {
        id: `renewal:${failure.id}`,
        at: Date.parse(FAILED_AT),
        network: 'visa',
        initiator: 'merchant',
        provider: 'product_api',
        outcome: { result: 'declined', responseCode: '51', adviceCode: null },
      },
    ]);
  });

  it('a category 1 decline on a renewal stops the card for the charges the worker asks for', async () => {
    const buyer = aBuyer();
    await remember(buyer);
    const { send } = lifecycleApp();
    const fingerprint = `fp${crypto.randomUUID().replaceAll('-', '').slice(0, 14)}`;
    await send(
      anEvent(buyer.subscriptionId, {
        type: 'renewal_failed',
        occurred_at: FAILED_AT,
        card_brand: 'Visa',
        card_fingerprint: fingerprint,
        network_decline_code: '04',
      }),
    );
    const key = await governorCardKey('anyone', fingerprint);
    const next = await store.admit(key, 'attempt:after', {
      at: NOW,
      network: 'visa',
      initiator: 'customer',
      provider: 'stripe',
    });
    expect(next).toEqual({ allowed: false, rule: 'visa_category_1', until: null });
  });

  it('a paid renewal without a fingerprint counts on the subscription’s unknown card', async () => {
    const buyer = aBuyer();
    await remember(buyer);
    const { send } = lifecycleApp();
    const renewal = anEvent(buyer.subscriptionId, { card_brand: 'mastercard' });
    expect((await send(renewal)).status).toBe(200);
    const key = await governorCardKey(`subscription:${buyer.subscriptionId}`, null);
    const [attempt] = await store.recent(key);
    expect(attempt).toMatchObject({
      network: 'mastercard',
      initiator: 'merchant',
      outcome: { result: 'approved' },
    });
  });
});
