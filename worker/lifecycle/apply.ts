import type { Bindings } from '../env';
import { experimentStores, toEachShard } from '../experiments/store/experiment-stores';
import type { RevenueEvent } from '../experiments/store/revenue-events';

/** What a `renewal_failed` says beyond its type: what is due, and how it failed. */
export interface RenewalFailure {
  /** The amount due, minor units of the event's currency. */
  dueMinor: number;
  /** The product API's `attempt_count`; null when it sent none usable. */
  attempt: number | null;
  /** The product API's `decline_code`, a short word; null when it sent none usable. */
  declineCode: string | null;
}

/**
 * How a charge or its return went, as the product API told it (both optional in its body): the
 * try of this billing period that the event is about (`attempt_count`, the first 1) and the card's
 * brand (`card_brand`). Null when it sent none usable; kept for the event archive only.
 */
export interface PaymentFacts {
  attempt: number | null;
  cardBrand: string | null;
}

/**
 * An event before the ledger has named its visitor. A `renewal_failed` moves no money in the
 * results (amountMinor 0, its currency checked against the purchase's) and carries `failure`.
 */
export type SubscriptionEvent = Omit<RevenueEvent, 'visitorId'> & {
  failure?: RenewalFailure;
  payment?: PaymentFacts;
  /** A renewal's or a failed renewal's card, for the retry governor (./renewal-attempts.ts). */
  charged?: ChargedCard;
};

/**
 * The card a renewal or a failed renewal charged, as the product API told it (all optional):
 * its fingerprint, brand and, on a decline, the network's codes.
 */
export interface ChargedCard {
  fingerprint: string | null;
  brand: string | null;
  responseCode: string | null;
  adviceCode: string | null;
}

/**
 * What passes events to the experiments: applyToExperiments in the worker, a recorder in the
 * tests. It must be safe to call twice with the same events (the shard counts an event id once),
 * since a failure after the shard took them is retried.
 */
export type ApplyRevenueEvents = (env: Bindings, events: readonly RevenueEvent[]) => Promise<void>;

/**
 * Passes the events to their buyers' experiment shards, one call per shard touched. Only to the
 * shards, never to the events queue: revenue after the first payment is for the results alone
 * and never reaches an ad network or an analytics destination. The shard counts it in every
 * experiment the buyer was exposed to before it (experiment-shard.ts recordRevenueEvents); the
 * split's visitors counted in its own tables (before every experiment was) get none of it: their
 * results stay first-payment only. A save offer test's subscriptions are counted in their own
 * shards besides (save-offer-statements.ts): one more shard call per event's shard, none written
 * for a subscription never shown an offer.
 */
export async function applyToExperiments(
  env: Bindings,
  events: readonly RevenueEvent[],
): Promise<void> {
  const stores = experimentStores(env);
  await Promise.all([
    toEachShard(
      stores,
      events,
      (event) => event.visitorId,
      (shard, group) => shard.recordRevenueEvents(group),
    ),
    // A save offer test counts by subscription, in the subscription's shard: what each
    // subscription shown an offer paid or got back since, and a cancellation wherever it was made.
    toEachShard(
      stores,
      events,
      (event) => event.subscriptionId,
      (shard, group) => shard.recordSaveOfferEvents(group),
    ),
  ]);
}
