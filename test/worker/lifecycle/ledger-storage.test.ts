import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { SubscriptionEvent } from '../../../worker/lifecycle/apply';
import { ledgerShardStub } from '../../../worker/lifecycle/ledger-shard';
import { NOW } from './lifecycle-fixtures';

/**
 * What a subscription and a lifecycle event cost a ledger shard's storage, measured in one shard
 * through its own calls, and how fast one shard takes events. Prints what it measured
 * (worker/lifecycle/ledger-shard.ts sizes LEDGER_SHARD_COUNT from it).
 */

/** Buyers are written in batches, as the queue consumer writes them. */
const SUBSCRIPTIONS = 10_000;
/** Events one at a time with a settle each, as the endpoint takes them: slower to write. */
const EVENTS = 1_000;
const CHUNK = 500;

beforeEach(() => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

/** A subscription id as long as Stripe's (`sub_` and 24 characters). */
const subscriptionIdOf = (n: number) => `sub_${n.toString(36).padStart(8, '0')}${'x'.repeat(16)}`;

it(`measures what ${SUBSCRIPTIONS} subscriptions and ${EVENTS} events cost one shard`, {
  timeout: 120_000,
}, async () => {
  const ledger = ledgerShardStub(env.SUBSCRIPTION_LEDGER, 0);
  const empty = await ledger.databaseSize();

  for (let from = 0; from < SUBSCRIPTIONS; from += CHUNK) {
    const buyers = Array.from({ length: CHUNK }, (_, i) => ({
      subscriptionId: subscriptionIdOf(from + i),
      visitorId: crypto.randomUUID(),
      paidMinor: 3999,
      currency: 'USD',
    }));
    await ledger.remember(buyers, NOW);
  }
  const withBuyers = await ledger.databaseSize();

  // One event a subscription, each claimed then settled as the endpoint does, with its signature.
  const started = performance.now();
  for (let from = 0; from < EVENTS; from += CHUNK) {
    await Promise.all(
      Array.from({ length: CHUNK }, async (_, i) => {
        const event: SubscriptionEvent = {
          // The product API's event id, as long as Stripe's (`evt_` and 24 characters).
          eventId: `evt_${(from + i).toString(36).padStart(8, '0')}${'y'.repeat(16)}`,
          subscriptionId: subscriptionIdOf(from + i),
          kind: 'renewal',
          amountMinor: 3999,
          currency: 'USD',
          at: NOW,
        };
        const signature = {
          signature: crypto.randomUUID().replaceAll('-', '').repeat(2),
          freshUntil: NOW,
        };
        const begun = await ledger.begin(event, signature, NOW);
        if (begun.kind !== 'claimed') throw new Error(`not claimed: ${begun.kind}`);
        await ledger.settle(event.eventId, begun.claim);
      }),
    );
  }
  const eventsMs = performance.now() - started;
  // With their signatures, which the ledger drops 5 minutes later; SQLite keeps freed pages for
  // reuse, so dropping them here would not show: the figure is an upper bound.
  const withEvents = await ledger.databaseSize();

  const bytesPerSubscription = (withBuyers - empty) / SUBSCRIPTIONS;
  const bytesPerEvent = (withEvents - withBuyers) / EVENTS;
  expect(bytesPerSubscription).toBeGreaterThan(0);
  expect(bytesPerEvent).toBeGreaterThan(0);
  vi.restoreAllMocks();
  console.log(
    JSON.stringify({
      subscription_ledger: {
        bytes_per_subscription: Math.round(bytesPerSubscription),
        bytes_per_event_with_signature: Math.round(bytesPerEvent),
        events_per_s_one_shard: Math.round((EVENTS / eventsMs) * 1000),
      },
    }),
  );
});
