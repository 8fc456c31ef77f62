import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { subscriptionLedgerDestination } from '../../../worker/collector/consumer/ledger-destination';
import type { RevenueEvent } from '../../../worker/experiments/store/revenue-events';
import { aPurchase, aServerMessage } from '../collector/fixtures';
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
 * A signed lifecycle event is counted only when its money fits its subscription
 * (worker/lifecycle/subscription-fit.ts): its currency is the verified purchase's, and what goes
 * back never exceeds what was paid. aBuyer paid 39.99 USD.
 */

const logs = capturedLogs();

const refused = () => logs.warnings().filter((line) => line.warning === 'lifecycle_event_refused');

describe('a refund in another currency than the subscription was bought in', () => {
  it('is refused 422 currency_mismatch, logged, and counted nowhere', async () => {
    const buyer = aBuyer();
    await remember(buyer);
    const { send, applied } = lifecycleApp();
    const euros = anEvent(buyer.subscriptionId, { type: 'refund', amount: 39.99, currency: 'EUR' });

    const answer = await send(euros);

    expect(answer).toMatchObject({ status: 422, body: { error: 'currency_mismatch' } });
    expect(answer.body.detail).toBe('a refund in EUR of a subscription paid in USD');
    expect(applied).toEqual([]);
    expect(refused()).toEqual([
      expect.objectContaining({ event_id: euros.id, refusal: 'currency_mismatch' }),
    ]);
    // Not counted in the subscription's money either: the whole 39.99 USD can still go back.
    const dollars = anEvent(buyer.subscriptionId, { type: 'refund', amount: 39.99 });
    expect(await send(dollars)).toMatchObject({ status: 200, body: { recorded: true } });
  });

  it('is not kept: the same event id, corrected and signed afresh, is counted', async () => {
    const buyer = aBuyer();
    await remember(buyer);
    const { send, applied } = lifecycleApp();
    const wrong = anEvent(buyer.subscriptionId, { type: 'refund', amount: 10, currency: 'GBP' });

    expect((await send(wrong)).status).toBe(422);
    const corrected = await send({ ...wrong, currency: 'USD' }, { t: NOW_SECONDS + 1 });

    expect(corrected).toMatchObject({ status: 200, body: { recorded: true } });
    expect(applied).toEqual([expect.objectContaining({ eventId: wrong.id, amountMinor: -1000 })]);
  });

  it('a chargeback in another currency likewise', async () => {
    const buyer = aBuyer();
    await remember(buyer);
    const { send, applied } = lifecycleApp();
    const answer = await send(
      anEvent(buyer.subscriptionId, { type: 'chargeback', amount: 5, currency: 'EUR' }),
    );
    expect(answer).toMatchObject({ status: 422, body: { error: 'currency_mismatch' } });
    expect(applied).toEqual([]);
  });
});

describe('a refund above what was paid', () => {
  it('is refused 422 refund_exceeds_paid, in one go', async () => {
    const buyer = aBuyer();
    await remember(buyer);
    const { send, applied } = lifecycleApp();

    const answer = await send(anEvent(buyer.subscriptionId, { type: 'refund', amount: 40 }));

    expect(answer).toMatchObject({ status: 422, body: { error: 'refund_exceeds_paid' } });
    expect(answer.body.detail).toBe(
      'a refund of 4000 would bring what went back to 4000, over the 3999 paid (minor units of USD)',
    );
    expect(applied).toEqual([]);
  });

  it('and in two partial refunds: the second, which passes it, is refused; one that fits the rest is taken', async () => {
    const buyer = aBuyer();
    await remember(buyer);
    const { send, applied } = lifecycleApp();
    const refund = (amount: number) => anEvent(buyer.subscriptionId, { type: 'refund', amount });

    const first = await send(refund(25));
    const second = await send(refund(20));
    const rest = await send(refund(14.99));
    const anyMore = await send(anEvent(buyer.subscriptionId, { type: 'chargeback', amount: 0.01 }));

    expect(first).toMatchObject({ status: 200, body: { recorded: true } });
    expect(second).toMatchObject({ status: 422, body: { error: 'refund_exceeds_paid' } });
    expect(rest).toMatchObject({ status: 200, body: { recorded: true } });
    expect(anyMore).toMatchObject({ status: 422, body: { error: 'refund_exceeds_paid' } });
    expect(applied.map((event) => event.amountMinor)).toEqual([-2500, -1499]);
  });

  it('sent at once, twice, is taken once', async () => {
    const buyer = aBuyer();
    await remember(buyer);
    const { send, applied } = lifecycleApp();
    const whole = () => anEvent(buyer.subscriptionId, { type: 'refund', amount: 39.99 });

    const answers = await Promise.all([send(whole()), send(whole())]);

    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 422]);
    expect(applied).toHaveLength(1);
  });

  it('counts the renewals paid since: a renewal and the first payment may both go back', async () => {
    const buyer = aBuyer();
    await remember(buyer);
    const { send, applied } = lifecycleApp();

    expect((await send(anEvent(buyer.subscriptionId))).status).toBe(200);
    const both = await send(anEvent(buyer.subscriptionId, { type: 'refund', amount: 79.98 }));
    const more = await send(anEvent(buyer.subscriptionId, { type: 'refund', amount: 0.01 }));

    expect(both).toMatchObject({ status: 200, body: { recorded: true } });
    expect(more).toMatchObject({ status: 422, body: { error: 'refund_exceeds_paid' } });
    expect(applied.map((event) => event.amountMinor)).toEqual([3999, -7998]);
  });

  it('a refund the experiments could not take is taken back out, so its retry counts', async () => {
    const buyer = aBuyer();
    await remember(buyer);
    const failing = lifecycleApp({
      apply: async () => {
        throw new Error('experiment shard overloaded');
      },
    });
    const working = lifecycleApp();
    const whole = anEvent(buyer.subscriptionId, { type: 'refund', amount: 39.99 });

    expect((await failing.send(whole)).status).toBe(503);
    const retried = await working.send(whole, { t: NOW_SECONDS + 30 });

    expect(retried).toMatchObject({ status: 200, body: { recorded: true } });
    expect(working.applied).toHaveLength(1);
  });
});

describe('a renewal in another currency', () => {
  it('is refused 422 currency_mismatch and adds nothing that could later be refunded', async () => {
    const buyer = aBuyer();
    await remember(buyer);
    const { send, applied } = lifecycleApp();

    const yen = await send(anEvent(buyer.subscriptionId, { amount: 6000, currency: 'JPY' }));
    const refund = await send(anEvent(buyer.subscriptionId, { type: 'refund', amount: 40 }));

    expect(yen).toMatchObject({ status: 422, body: { error: 'currency_mismatch' } });
    expect(refund).toMatchObject({ status: 422, body: { error: 'refund_exceeds_paid' } });
    expect(applied).toEqual([]);
  });

  it('in its own currency is taken, at any amount (a price may change), and a cancellation always', async () => {
    const buyer = aBuyer();
    await remember(buyer);
    const { send, applied } = lifecycleApp();
    expect((await send(anEvent(buyer.subscriptionId, { amount: 59.99 }))).status).toBe(200);
    const cancel = anEvent(buyer.subscriptionId, {
      type: 'cancellation',
      amount: 0,
      currency: null,
    });
    expect((await send(cancel)).status).toBe(200);
    expect(applied.map((event) => event.kind)).toEqual(['renewal', 'cancellation']);
  });
});

describe('the subscription the events are checked against', () => {
  it('is the verified purchase the queue consumer delivers: its currency and what it charged', async () => {
    const subscriptionId = `sub_${crypto.randomUUID()}`;
    const purchase = aServerMessage(
      aPurchase({ sub_id: subscriptionId, price: 9.99, currency: 'EUR' }),
    );
    const applied: RevenueEvent[] = [];
    const destination = subscriptionLedgerDestination(env, {
      now: () => NOW,
      apply: async (_env, events) => {
        applied.push(...events);
      },
    });
    expect(await destination.deliver([purchase])).toEqual(['delivered']);
    const { send } = lifecycleApp();

    const dollars = await send(anEvent(subscriptionId, { type: 'refund', amount: 9.99 }));
    const tooMuch = await send(
      anEvent(subscriptionId, { type: 'refund', amount: 10, currency: 'EUR' }),
    );
    const whole = await send(
      anEvent(subscriptionId, { type: 'refund', amount: 9.99, currency: 'EUR' }),
    );

    expect(dollars).toMatchObject({ status: 422, body: { error: 'currency_mismatch' } });
    expect(tooMuch).toMatchObject({ status: 422, body: { error: 'refund_exceeds_paid' } });
    expect(whole).toMatchObject({ status: 200, body: { recorded: true } });
  });

  it('without a known currency (a purchase that named none) takes its events unchecked, as before', async () => {
    const buyer = aBuyer({ currency: null, paidMinor: null });
    await remember(buyer);
    const { send, applied } = lifecycleApp();
    const refund = anEvent(buyer.subscriptionId, { type: 'refund', amount: 500, currency: 'EUR' });
    expect(await send(refund)).toMatchObject({ status: 200, body: { recorded: true } });
    expect(applied).toHaveLength(1);
  });
});

describe('an event held for its purchase', () => {
  it('that does not fit the purchase once it arrives is dropped and logged, and refused when sent again', async () => {
    const subscriptionId = `sub_${crypto.randomUUID()}`;
    const endpoint = lifecycleApp();
    const euros = anEvent(subscriptionId, { type: 'refund', amount: 6.99, currency: 'EUR' });
    const fits = anEvent(subscriptionId, { type: 'refund', amount: 6.99 });
    const twice = anEvent(subscriptionId, { type: 'chargeback', amount: 6.99 });
    // Held in this order, a millisecond apart: they are judged in the order they came.
    for (const [i, held] of [euros, fits, twice].entries()) {
      expect((await lifecycleApp({ now: () => NOW + i }).send(held)).status).toBe(202);
    }
    const applied: RevenueEvent[] = [];
    const destination = subscriptionLedgerDestination(env, {
      now: () => NOW + 60_000,
      apply: async (_env, events) => {
        applied.push(...events);
      },
    });

    // aPurchase: 6.99 USD.
    await destination.deliver([aServerMessage(aPurchase({ sub_id: subscriptionId }))]);
    const again = await endpoint.send(euros, { t: NOW_SECONDS + 120 });

    expect(applied.map((event) => event.eventId)).toEqual([fits.id]);
    expect(refused()).toEqual([
      expect.objectContaining({ event_id: euros.id, refusal: 'currency_mismatch', held: true }),
      expect.objectContaining({ event_id: twice.id, refusal: 'refund_exceeds_paid', held: true }),
      expect.objectContaining({ event_id: euros.id, refusal: 'currency_mismatch' }),
    ]);
    expect(again).toMatchObject({ status: 422, body: { error: 'currency_mismatch' } });
  });
});
