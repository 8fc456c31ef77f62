import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { archiveLine } from '../../../worker/collector/archive-line';
import { rememberBuyers } from '../../../worker/collector/consumer/ledger-destination';
import type { QueuedEvent } from '../../../worker/collector/queued-event';
import { moneyOutboxKey } from '../../../worker/lifecycle/money-event';
import { recordingQueue } from '../collector/recording-queue';
import { aBuyer, anEvent, lifecycleApp, NOW, NOW_SECONDS, remember } from './lifecycle-fixtures';

/**
 * Renewals, recoveries, refunds, chargebacks and cancellations reach the events queue, and so the
 * archive and Amplitude, as typed money events (worker/lifecycle/money-event.ts): once each,
 * however often the product API sends one, through the queue or, when it refuses, the outbox.
 */

function appWith(
  queue: ReturnType<typeof recordingQueue>,
  apply?: Parameters<typeof lifecycleApp>[0],
) {
  return lifecycleApp({ ...apply, bindings: { EVENTS_QUEUE: queue.queue } });
}

const propertiesOf = (event: QueuedEvent) => event.event.event_properties;

describe('money events from the lifecycle hook', () => {
  it('queues a renewal once, with its amount, currency, subscription, try and card, however often it is sent', async () => {
    const buyer = aBuyer();
    await remember(buyer);
    const queue = recordingQueue();
    const app = appWith(queue);
    const renewal = anEvent(buyer.subscriptionId, { attempt_count: 1, card_brand: 'Visa' });
    expect((await app.send(renewal)).status).toBe(200);
    // The same event again, freshly signed (the product API's retry), and once more later.
    expect((await app.send(renewal, { t: NOW_SECONDS + 1 })).body).toEqual({ duplicate: true });
    expect((await app.send(renewal, { t: NOW_SECONDS + 2 })).body).toEqual({ duplicate: true });

    expect(queue.events).toHaveLength(1);
    const [queued] = queue.events as [QueuedEvent];
    expect(queued.source).toBe('server');
    expect(queued.event).toMatchObject({
      event_type: 'subs_renewal_completed',
      device_id: buyer.visitorId,
      time: Date.parse(renewal.occurred_at),
    });
    expect(propertiesOf(queued)).toMatchObject({
      sub_id: buyer.subscriptionId,
      money_kind: 'renewal',
      amount: 39.99,
      currency: 'USD',
      attempt: 1,
      card_brand: 'visa',
      lifecycle_event_id: renewal.id,
    });
    const line = archiveLine(queued);
    expect(line).toMatchObject({ revenue: 39.99, currency: 'USD', revenue_type: 'renewal' });
    expect(line.insert_id).toMatch(/^srv_m_[0-9a-f]{32}$/);
  });

  it('types each kind: a recovery after a failed renewal, a refund and a chargeback negative, a cancellation without money', async () => {
    const buyer = aBuyer({ paidMinor: 3999 });
    await remember(buyer);
    const queue = recordingQueue();
    const app = appWith(queue);
    const sub = buyer.subscriptionId;
    await app.send(
      anEvent(sub, {
        type: 'renewal_failed',
        attempt_count: 1,
        decline_code: 'insufficient_funds',
      }),
    );
    await app.send(anEvent(sub, { attempt_count: 2 }));
    await app.send(anEvent(sub, { type: 'refund', amount: 39.99 }));
    await app.send(anEvent(sub, { type: 'chargeback', amount: 10 }));
    await app.send(anEvent(sub, { type: 'cancellation', amount: null, currency: null }));

    const lines = queue.events.map(archiveLine);
    expect(
      lines.map((line) => [
        line.event_type,
        line.revenue,
        line.revenue_type,
        line.event_properties.attempt,
      ]),
    ).toEqual([
      ['subs_renewal_failed', null, null, 1],
      ['subs_recovery_completed', 39.99, 'recovery', 2],
      ['subs_refund_completed', -39.99, 'refund', null],
      ['subs_chargeback_received', -10, 'chargeback', null],
      ['subs_canceled', null, null, null],
    ]);
    expect(lines[0]?.event_properties).toMatchObject({
      amount: 39.99,
      decline_code: 'insufficient_funds',
    });
    expect(new Set(lines.map((line) => line.insert_id)).size).toBe(5);
  });

  it('keeps the event in the outbox when the queue refuses it, and answers it recorded', async () => {
    const buyer = aBuyer();
    await remember(buyer);
    const queue = recordingQueue({ failCalls: [0] });
    const renewal = anEvent(buyer.subscriptionId);
    expect((await appWith(queue).send(renewal)).status).toBe(200);
    const row = await env.EVENTS_DB.prepare(
      'SELECT insert_id, message FROM verified_purchases WHERE subscription_id = ?',
    )
      .bind(moneyOutboxKey({ subscriptionId: buyer.subscriptionId, eventId: renewal.id }))
      .first<{ insert_id: string; message: string }>();
    expect(row?.insert_id).toMatch(/^srv_m_/);
    expect(JSON.parse(row?.message ?? '{}').event.event_type).toBe('subs_renewal_completed');
  });

  it('answers 503 when neither the queue nor the outbox takes it, and the retry queues it under the same insert id', async () => {
    const buyer = aBuyer();
    await remember(buyer);
    const failing = recordingQueue({ failCalls: [0] });
    const brokenDb = {
      prepare: () => {
        throw new Error('D1 down');
      },
    } as unknown as D1Database;
    const renewal = anEvent(buyer.subscriptionId);
    const down = lifecycleApp({ bindings: { EVENTS_QUEUE: failing.queue, EVENTS_DB: brokenDb } });
    expect((await down.send(renewal)).status).toBe(503);

    const queue = recordingQueue();
    const up = appWith(queue);
    expect((await up.send(renewal, { t: NOW_SECONDS + 1 })).body).toEqual({ recorded: true });
    expect((await up.send(renewal, { t: NOW_SECONDS + 2 })).body).toEqual({ duplicate: true });
    expect(queue.events).toHaveLength(1);
  });

  it('queues the same insert id again when a claim is released and retried, so the archive keeps it once', async () => {
    const buyer = aBuyer();
    await remember(buyer);
    const queue = recordingQueue();
    let fail = true;
    const flaky = appWith(queue, {
      apply: async () => {
        if (fail) throw new Error('shard down');
      },
    });
    const renewal = anEvent(buyer.subscriptionId);
    expect((await flaky.send(renewal)).status).toBe(503);
    fail = false;
    expect((await flaky.send(renewal, { t: NOW_SECONDS + 1 })).status).toBe(200);
    const ids = new Set(queue.events.map((event) => event.event.insert_id));
    expect(queue.events.length).toBeGreaterThanOrEqual(1);
    expect(ids.size).toBe(1);
  });

  it('queues an event held for its purchase once the purchase arrives', async () => {
    const buyer = aBuyer();
    const queue = recordingQueue();
    const held = anEvent(buyer.subscriptionId, { type: 'refund', amount: 10 });
    expect((await appWith(queue).send(held)).status).toBe(202);
    expect(queue.events).toHaveLength(0);

    await rememberBuyers({ ...env, EVENTS_QUEUE: queue.queue }, [buyer], {
      now: () => NOW,
      apply: async () => {},
    });
    expect(
      queue.events.map((event) => [event.event.event_type, archiveLine(event).revenue]),
    ).toEqual([['subs_refund_completed', -10]]);
    expect(queue.events[0]?.event.device_id).toBe(buyer.visitorId);
  });
});
