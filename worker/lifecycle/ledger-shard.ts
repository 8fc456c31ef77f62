import { EXPERIMENT_SHARD_COUNT, shardOfVisitor } from '../experiments/assignment/assign';
import type { SubscriptionLedger } from './ledger';

/**
 * Which ledger shard (ledger.ts) keeps a subscription: its buyer, the lifecycle event ids seen
 * for it and the signatures that carried them, all in one SQLite Durable Object, so an event is
 * checked, claimed and matched to its buyer in one call.
 */

/**
 * How many shards the subscriptions are spread over. Fixed for good once deployed, like the
 * experiment shards: it decides where a subscription's buyer is found.
 *
 * Sized for 100 M visitors a month of whom 5% buy, their buyers kept 13 months as the experiments
 * keep their visitors (VISITOR_ROWS_KEPT_MS): 65 M subscriptions. Measured in a shard
 * (test/worker/lifecycle/ledger-storage.test.ts, Stripe-length ids), a subscription costs about
 * 98 bytes with what its buyer paid and got back (subscription-fit.ts), and an event id about
 * 215 with the signature that came with it (the signature goes after 5 minutes, so less once
 * settled). Event ids are kept 30 days; at most every subscription of the 13 months renews each
 * month, 65 M event ids at a time. That bound is 6.4 + 14 GB, 20 GB in all: 16 shards hold
 * 1.3 GB each, an eighth of a Durable Object's 10 GB, with room for the
 * longer ids the product API may use (8 would hold 2.5 GB, a quarter). Traffic is no constraint:
 * 65 M events a month are 25 a second, 250 at a peak hour's 10×, 16 a shard, two calls each
 * (claim, settle), against the ~1,000 requests a second one object serves; the buyers come in the
 * queue consumer's batches, one call per shard touched.
 */
export const LEDGER_SHARD_COUNT = 16;

/**
 * The shard of a subscription id: FNV-1a, the hash that spreads the visitors
 * (assign.ts shardOfVisitor). LEDGER_SHARD_COUNT divides EXPERIMENT_SHARD_COUNT, so the visitor shard's
 * FNV-1a mod 64 taken mod 16 is FNV-1a mod 16: the same hash, not a second one.
 */
export function ledgerShardOf(subscriptionId: string): number {
  return shardOfVisitor(subscriptionId) % LEDGER_SHARD_COUNT;
}

if (EXPERIMENT_SHARD_COUNT % LEDGER_SHARD_COUNT !== 0) {
  throw new Error('LEDGER_SHARD_COUNT must divide EXPERIMENT_SHARD_COUNT (ledgerShardOf)');
}

/** The Durable Object of shard `index`. */
export function ledgerShardStub(
  ledger: DurableObjectNamespace<SubscriptionLedger>,
  index: number,
): DurableObjectStub<SubscriptionLedger> {
  return ledger.get(ledger.idFromName(`ledger:${index}`));
}

/** The Durable Object that keeps `subscriptionId`. */
export function ledgerStub(
  ledger: DurableObjectNamespace<SubscriptionLedger>,
  subscriptionId: string,
): DurableObjectStub<SubscriptionLedger> {
  return ledgerShardStub(ledger, ledgerShardOf(subscriptionId));
}

/** The items grouped by their subscription's shard: one call per shard touched. */
export function groupByLedgerShard<T>(
  items: readonly T[],
  subscriptionOf: (item: T) => string,
): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const item of items) {
    const shard = ledgerShardOf(subscriptionOf(item));
    const group = groups.get(shard);
    if (group) group.push(item);
    else groups.set(shard, [item]);
  }
  return groups;
}
