import type { LifecycleEventType } from '../../shared/api/lifecycle';
import type { Bindings } from '../env';
import type { ExperimentShard } from '../experiments/experiment-shard';
import { experimentStores, toEachShard } from '../experiments/experiment-stores';

/**
 * A lifecycle event as the experiments' results count it: revenue after the first payment, in
 * the buyer's visitor shard (worker/experiments/visitor-shard.ts), net of refunds and
 * chargebacks. The experiment shard's own declaration of this type replaces this one.
 */
export interface RevenueEvent {
  /** The product API's event id: the shard counts each once, as the ledger does. */
  eventId: string;
  subscriptionId: string;
  /** The buyer, as the verified purchase named them (the ledger's subscription → visitor). */
  visitorId: string;
  kind: LifecycleEventType;
  /**
   * In the currency's minor units, signed: a renewal adds, a refund or a chargeback takes away
   * (negative), a cancellation moves nothing (0).
   */
  amountMinor: number;
  /** ISO 4217; null on a cancellation. */
  currency: string | null;
  /** When it happened, epoch ms. */
  at: number;
}

/** An event before the ledger has named its visitor. */
export type SubscriptionEvent = Omit<RevenueEvent, 'visitorId'>;

/**
 * What passes events to the experiments: applyToExperiments in the worker, a recorder in the
 * tests. It must be safe to call twice with the same events (the shard counts an event id once),
 * since a failure after the shard took them is retried.
 */
export type ApplyRevenueEvents = (env: Bindings, events: readonly RevenueEvent[]) => Promise<void>;

/** The shard method the experiment shard adds; its own type replaces this stand-in. */
interface RevenueShard {
  recordRevenueEvents(events: readonly RevenueEvent[]): Promise<void>;
}

/**
 * Passes the events to their buyers' experiment shards, one call per shard touched. Only to the
 * shards, never to the events queue: revenue after the first payment is for the results alone
 * and never reaches an ad network or an analytics destination. Visitors exposed before the
 * shards existed (EVENTS_DB's legacy rows) get none of it: their results stay first-payment only.
 */
export async function applyToExperiments(
  env: Bindings,
  events: readonly RevenueEvent[],
): Promise<void> {
  await toEachShard(
    experimentStores(env),
    events,
    (event) => event.visitorId,
    (shard: DurableObjectStub<ExperimentShard>, group) =>
      (shard as unknown as RevenueShard).recordRevenueEvents(group),
  );
}
