import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../shared/seeded-random';
import { subscriptionLedgerDestination } from '../../../worker/collector/consumer/ledger-destination';
import type { RevenueEvent } from '../../../worker/experiments/store/revenue-events';
import type { SubscriptionEvent } from '../../../worker/lifecycle/apply';
import {
  CLAIM_TIMEOUT_MS,
  EVENT_IDS_KEPT_MS,
  PARKED_MS,
  type SubscriptionLedger,
} from '../../../worker/lifecycle/ledger';
import {
  LEDGER_SHARD_COUNT,
  ledgerShardOf,
  ledgerStub,
} from '../../../worker/lifecycle/ledger-shard';
import { freshUntil } from '../../../worker/lifecycle/signature';
import { asDeliveries, consumer } from '../collector/consume';
import { aMessage, aPurchase, aServerMessage } from '../collector/fixtures';
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
 * The subscription ledger (worker/lifecycle/ledger.ts): how a buyer gets into it (the queue
 * consumer's verified purchases), the race between a purchase and its first lifecycle event, the
 * claims that keep an event counted once, and what it forgets when.
 */

const logs = capturedLogs();

const DAY_MS = 24 * 60 * 60 * 1000;

/** A verified purchase of `subscriptionId` by `visitorId`, as worker/purchases/ queues it. */
function verifiedPurchase(subscriptionId: string, visitorId: string) {
  return aServerMessage(aPurchase({ sub_id: subscriptionId }, { device_id: visitorId }));
}

function recorder() {
  const applied: RevenueEvent[] = [];
  return {
    applied,
    apply: async (_env: unknown, events: readonly RevenueEvent[]) => {
      applied.push(...events);
    },
  };
}

describe('who bought a subscription', () => {
  it('comes from the verified purchase the queue consumer delivers, so its events count for that buyer', async () => {
    const buyer = aBuyer();
    const { run } = consumer();
    const result = await run(
      asDeliveries([verifiedPurchase(buyer.subscriptionId, buyer.visitorId.toUpperCase())]),
    );
    expect(result.retried).toEqual([]);

    const { send, applied } = lifecycleApp();
    const answer = await send(anEvent(buyer.subscriptionId));

    expect(answer).toMatchObject({ status: 200, body: { recorded: true } });
    // The visitor as the experiments key them: the lower-case uuid.
    expect(applied).toEqual([expect.objectContaining({ visitorId: buyer.visitorId })]);
  });

  it('never comes from a purchase a browser posted to the collector', async () => {
    const buyer = aBuyer();
    const posted = aMessage(
      aPurchase({ sub_id: buyer.subscriptionId }, { device_id: buyer.visitorId }),
    );
    await consumer().run(asDeliveries([posted]));

    const { send, applied } = lifecycleApp();
    const answer = await send(anEvent(buyer.subscriptionId));

    expect(answer).toMatchObject({ status: 202, body: { reason: 'unknown_subscription' } });
    expect(applied).toEqual([]);
  });

  it('is the first buyer: the same subscription delivered again for another visitor changes nothing', async () => {
    const buyer = aBuyer();
    await remember(buyer);
    await remember({ ...buyer, visitorId: crypto.randomUUID() });
    const { send, applied } = lifecycleApp();
    await send(anEvent(buyer.subscriptionId));
    expect(applied).toEqual([expect.objectContaining({ visitorId: buyer.visitorId })]);
  });

  it('when the ledger fails, the purchase message is retried for the ledger alone', async () => {
    const buyer = aBuyer();
    const broken = {
      idFromName: () => {
        throw new Error('ledger unreachable');
      },
    } as unknown as typeof env.SUBSCRIPTION_LEDGER;
    const destination = subscriptionLedgerDestination({ ...env, SUBSCRIPTION_LEDGER: broken });
    const outcomes = await destination.deliver([
      verifiedPurchase(buyer.subscriptionId, buyer.visitorId),
    ]);
    expect(outcomes).toEqual(['retry']);
    expect(logs.errors()).toContainEqual(
      expect.objectContaining({ error: 'subscription_ledger_failed', purchases: 1 }),
    );
  });
});

describe('an event that arrives before its purchase reached the ledger', () => {
  it('is held, and counted for the buyer when the purchase arrives, once', async () => {
    const buyer = aBuyer();
    const endpoint = lifecycleApp();
    const event = anEvent(buyer.subscriptionId, { type: 'refund', amount: 6.99 });

    const early = await endpoint.send(event);
    const { apply, applied } = recorder();
    const destination = subscriptionLedgerDestination(env, { apply, now: () => NOW + 60_000 });
    const message = verifiedPurchase(buyer.subscriptionId, buyer.visitorId);
    const delivered = await destination.deliver([message]);
    // The queue hands the purchase over again: nothing more is passed on.
    await destination.deliver([message]);
    const retried = await endpoint.send(event, { t: NOW_SECONDS + 120 });

    expect(early).toMatchObject({ status: 202, body: { reason: 'unknown_subscription' } });
    expect(delivered).toEqual(['delivered']);
    expect(applied).toEqual([
      {
        eventId: event.id,
        subscriptionId: buyer.subscriptionId,
        visitorId: buyer.visitorId,
        kind: 'refund',
        amountMinor: -699,
        currency: 'USD',
        at: Date.parse(event.occurred_at),
      },
    ]);
    expect(retried).toMatchObject({ status: 200, body: { duplicate: true } });
    expect(endpoint.applied).toEqual([]);
  });

  it(`is given up after ${PARKED_MS / 3_600_000} hours: a purchase that late counts none of it`, async () => {
    const buyer = aBuyer();
    await lifecycleApp().send(anEvent(buyer.subscriptionId));
    const { apply, applied } = recorder();
    const late = subscriptionLedgerDestination(env, { apply, now: () => NOW + PARKED_MS + 1 });
    expect(await late.deliver([verifiedPurchase(buyer.subscriptionId, buyer.visitorId)])).toEqual([
      'delivered',
    ]);
    expect(applied).toEqual([]);
  });

  it('stays held while the experiments cannot take it, and is passed on with the retried purchase', async () => {
    const buyer = aBuyer();
    await lifecycleApp().send(anEvent(buyer.subscriptionId));
    const message = verifiedPurchase(buyer.subscriptionId, buyer.visitorId);
    const failing = subscriptionLedgerDestination(env, {
      now: () => NOW + 1000,
      apply: async () => {
        throw new Error('experiment shard overloaded');
      },
    });
    const { apply, applied } = recorder();
    const working = subscriptionLedgerDestination(env, { apply, now: () => NOW + 2000 });

    expect(await failing.deliver([message])).toEqual(['retry']);
    expect(await working.deliver([message])).toEqual(['delivered']);
    expect(applied).toHaveLength(1);
  });
});

function event(subscriptionId: string): SubscriptionEvent {
  return {
    eventId: `evt_${crypto.randomUUID()}`,
    subscriptionId,
    kind: 'renewal',
    amountMinor: 3999,
    currency: 'USD',
    at: NOW,
  };
}

function seen(at = NOW) {
  return { signature: crypto.randomUUID(), freshUntil: freshUntil(at / 1000) };
}

describe('a claim on an event', () => {
  it('whose request died is taken over after CLAIM_TIMEOUT_MS, and the dead request can no longer settle it', async () => {
    const buyer = aBuyer();
    await remember(buyer);
    const ledger = ledgerStub(env.SUBSCRIPTION_LEDGER, buyer.subscriptionId);
    const taken = event(buyer.subscriptionId);

    const first = await ledger.begin(taken, seen(), NOW);
    const meanwhile = await ledger.begin(taken, seen(), NOW + CLAIM_TIMEOUT_MS - 1000);
    const later = await ledger.begin(taken, seen(), NOW + CLAIM_TIMEOUT_MS);
    if (first.kind !== 'claimed' || later.kind !== 'claimed') throw new Error('not claimed');
    // The first request wakes up and fails: its release must not drop the new claim.
    await ledger.release(taken.eventId, first.claim);
    const whileSecondWorks = await ledger.begin(taken, seen(), NOW + CLAIM_TIMEOUT_MS + 1000);
    await ledger.settle(taken.eventId, later.claim);
    const afterwards = await ledger.begin(taken, seen(), NOW + CLAIM_TIMEOUT_MS + 2000);

    expect(meanwhile).toEqual({ kind: 'in_progress', retryAfterSeconds: 1 });
    expect(whileSecondWorks).toMatchObject({ kind: 'in_progress' });
    expect(afterwards).toEqual({ kind: 'duplicate' });
  });
});

/** The rows of one ledger shard's table. */
function rows(stub: DurableObjectStub<SubscriptionLedger>, sql: string) {
  return runInDurableObject(stub, (_instance, state) => state.storage.sql.exec(sql).toArray());
}

describe('what the ledger forgets', () => {
  it('drops signatures once stale, held events after a day, event ids after 30 days, buyers after 13 months', async () => {
    const old = aBuyer();
    // Every id on one shard, so one object's tables tell the story.
    const kept = aBuyer({ subscriptionId: sameShard(old.subscriptionId) });
    const unknown = sameShard(old.subscriptionId);
    const stub = ledgerStub(env.SUBSCRIPTION_LEDGER, old.subscriptionId);
    await stub.remember([old], NOW);
    await stub.remember([kept], NOW + 396 * DAY_MS);
    const counted = event(old.subscriptionId);
    const signatures = [seen(NOW), seen(NOW)];
    await stub.begin(counted, signatures[0]!, NOW);
    const held = event(unknown);
    await stub.begin(held, signatures[1]!, NOW);

    // Six minutes on: the signatures are stale, nothing else has aged.
    await runInDurableObject(stub, (ledger) =>
      (ledger as SubscriptionLedger).prune(NOW + 6 * 60_000),
    );
    // Only this test's: the ledger is not emptied between tests, and another's may be fresher.
    const ours = signatures.map(({ signature }) => `'${signature}'`).join(', ');
    expect(await rows(stub, `SELECT * FROM signatures WHERE signature IN (${ours})`)).toEqual([]);
    expect(await rows(stub, `SELECT state FROM events WHERE event_id = '${held.eventId}'`)).toEqual(
      [{ state: 'parked' }],
    );

    // A day and a minute on: the held event is given up, its id kept.
    await runInDurableObject(stub, (ledger) =>
      (ledger as SubscriptionLedger).prune(NOW + PARKED_MS + 60_000),
    );
    expect(
      await rows(stub, `SELECT state, event FROM events WHERE event_id = '${held.eventId}'`),
    ).toEqual([{ state: 'expired', event: null }]);

    // Past 30 days: the event ids go; past 13 months: the first buyer goes, the later one stays.
    await runInDurableObject(stub, (ledger) =>
      (ledger as SubscriptionLedger).prune(NOW + Math.max(EVENT_IDS_KEPT_MS, 396 * DAY_MS) + 1),
    );
    expect(
      await rows(
        stub,
        `SELECT event_id FROM events WHERE event_id IN ('${counted.eventId}', '${held.eventId}')`,
      ),
    ).toEqual([]);
    const buyers = await rows(
      stub,
      `SELECT subscription_id FROM subscriptions WHERE subscription_id IN ('${old.subscriptionId}', '${kept.subscriptionId}')`,
    );
    expect(buyers).toEqual([{ subscription_id: kept.subscriptionId }]);
  });
});

/** Another subscription id on the shard of `subscriptionId`. */
function sameShard(subscriptionId: string): string {
  const shard = ledgerShardOf(subscriptionId);
  for (;;) {
    const id = `sub_${crypto.randomUUID()}`;
    if (ledgerShardOf(id) === shard) return id;
  }
}

describe('the ledger shards', () => {
  // χ² with 15 degrees of freedom exceeds 37.7 once in a thousand even spreads; the ids are fixed,
  // so the test is too.
  it.each([
    ['random ids', (next: () => number) => `sub_${Math.floor(next() * 2 ** 53).toString(36)}`],
    ['sequential ids', (_: () => number, i: number) => `sub_${String(i).padStart(10, '0')}`],
  ])(`spread 160,000 %s evenly over ${LEDGER_SHARD_COUNT} shards`, (_, idOf) => {
    const next = seededRandom(20261122);
    const counts = new Array<number>(LEDGER_SHARD_COUNT).fill(0);
    const n = 160_000;
    for (let i = 0; i < n; i++) {
      const shard = ledgerShardOf(idOf(next, i));
      counts[shard] = (counts[shard] ?? 0) + 1;
    }
    const expected = n / LEDGER_SHARD_COUNT;
    const chiSquare = counts.reduce((sum, count) => sum + (count - expected) ** 2 / expected, 0);
    expect(chiSquare).toBeLessThan(37.7);
  });
});
