import { logError, logLine } from '../../../shared/log';
import type { Bindings } from '../../env';
import { eventsOf, isVerifiedPurchase, type QueuedEvent, QueuedMessage } from '../queued-event';
import { keepDeadLetters } from './dead-letters';
import {
  type DeliveryFailure,
  type DeliveryRecord,
  deliveryKey,
  recordDeliveries,
  recordFailures,
  settledDeliveries,
} from './deliveries';
import type { Destination } from './destination';
import { selectDestinations } from './destinations';
import { type DestinationName, type Outcome, retryDelaySeconds } from './outcome';
import type { Fetch } from './post-json';
import { claimPurchases } from './purchase-claims';

/**
 * Whether a batch comes from where the events queue gives up (max_retries): wrangler.toml names
 * it geofunnel-events-dlq, and geofunnel-events-staging-dlq for staging.
 */
function isDeadLetterQueue(queue: string): boolean {
  return queue.endsWith('-dlq');
}

export interface QueueHandlerOptions {
  /** Every call to Amplitude, Meta and TikTok goes through this; tests pass a fake endpoint. */
  fetch?: Fetch;
  /** Epoch ms; Date.now unless a test fixes it. */
  now?: () => number;
}

interface Delivery {
  message: QueuedEvent;
  /** Every queue message carrying this event (the queue may hand over one twice). */
  handles: Message<unknown>[];
  /**
   * The destinations a redriven dead letter is for (its `only`, worker/collector/redrive.ts);
   * null: every destination that takes the event, as for any message.
   */
  only: ReadonlySet<DestinationName> | null;
}

/**
 * Valid messages' events grouped by insert_id (a batch message carries several, an older message
 * one), and the messages the consumer cannot read, logged.
 */
function readMessages(batch: MessageBatch<unknown>) {
  const byId = new Map<string, Delivery>();
  const unreadable: Message<unknown>[] = [];
  for (const handle of batch.messages) {
    const parsed = QueuedMessage.safeParse(handle.body);
    if (!parsed.success) {
      logError('collector_message_invalid', {
        message_id: handle.id,
        detail: parsed.error.issues[0]?.message ?? 'invalid',
      });
      unreadable.push(handle);
      continue;
    }
    const only = parsed.data.only ? new Set(parsed.data.only) : null;
    for (const message of eventsOf(parsed.data)) {
      const id = message.event.insert_id;
      const known = byId.get(id);
      if (!known) byId.set(id, { message, handles: [handle], only });
      else {
        if (!known.handles.includes(handle)) known.handles.push(handle);
        // Handed over as a message for everyone too: everyone that has not had it.
        known.only = known.only && only ? new Set([...known.only, ...only]) : null;
      }
    }
  }
  return { byId, unreadable };
}

type Tally = Partial<Record<`${Outcome}_${DestinationName}`, number>>;

/** What became of one event at one destination, and why when it must be tried again. */
type Attempted = DeliveryRecord & { error: string | null };

/**
 * Sends the events `destination` takes and has not had (of a redriven dead letter, only where it
 * is for); what became of each.
 */
async function deliverTo(
  destination: Destination,
  deliveries: readonly Delivery[],
  settled: ReadonlySet<string>,
  tally: Tally,
): Promise<Attempted[]> {
  const pending = deliveries
    .filter((delivery) => delivery.only === null || delivery.only.has(destination.name))
    .map((delivery) => delivery.message)
    .filter(
      (message) =>
        destination.takes(message) &&
        !settled.has(deliveryKey(message.event.insert_id, destination.name)),
    );
  if (pending.length === 0) return [];
  let error: string | null = null;
  const outcomes = await destination.deliver(pending, (code) => {
    error = code;
  });
  return pending.map((message, index) => {
    const outcome = outcomes[index] ?? 'retry';
    const key = `${outcome}_${destination.name}` as const;
    tally[key] = (tally[key] ?? 0) + 1;
    return {
      insertId: message.event.insert_id,
      destination: destination.name,
      outcome,
      error: outcome === 'retry' ? error : null,
    };
  });
}

/** The failures of events whose messages are retried, each on its message's latest try. */
function failuresOf(
  deliveries: readonly Delivery[],
  records: readonly Attempted[],
): DeliveryFailure[] {
  const attempts = new Map(
    deliveries.map((delivery) => [
      delivery.message.event.insert_id,
      Math.max(...delivery.handles.map((handle) => handle.attempts)),
    ]),
  );
  return records
    .filter((record) => record.outcome === 'retry')
    .map((record) => ({
      insertId: record.insertId,
      destination: record.destination,
      attempts: attempts.get(record.insertId) ?? 1,
      error: record.error,
    }));
}

/** What the destinations had already taken of events whose message is handed over again. */
async function settledBefore(db: D1Database, deliveries: readonly Delivery[]) {
  const again = deliveries
    .filter((delivery) => delivery.handles.some((handle) => handle.attempts > 1))
    .map((delivery) => delivery.message.event.insert_id);
  return again.length === 0 ? new Set<string>() : settledDeliveries(db, again);
}

/**
 * The events a destination asked to have again, the messages retried for them (whole: a message
 * is retried when any of its events must be) and every event those messages carry, whose settled
 * destinations are written down so that the retry reaches only the ones that asked.
 */
function toRetry(deliveries: readonly Delivery[], records: readonly DeliveryRecord[]) {
  const retryIds = new Set(
    records.filter((record) => record.outcome === 'retry').map((record) => record.insertId),
  );
  const again = new Set(
    deliveries
      .filter((delivery) => retryIds.has(delivery.message.event.insert_id))
      .flatMap((delivery) => delivery.handles),
  );
  const carried = new Set(
    deliveries
      .filter((delivery) => delivery.handles.some((handle) => again.has(handle)))
      .map((delivery) => delivery.message.event.insert_id),
  );
  return { retryIds, again, carried };
}

/**
 * The deliveries to send on once the purchases among them are claimed (./purchase-claims.ts),
 * and what became of the others: a repeat purchase (another message is that purchase) is acked
 * and sent nowhere; while EVENTS_DB cannot claim, the messages carrying purchases are retried
 * with the queue's backoff (then its dead letters: never dropped) and the rest go on.
 */
async function claimed(
  db: D1Database,
  all: readonly Delivery[],
  at: number,
): Promise<{ deliveries: Delivery[]; noted: Record<string, number> }> {
  let repeats = new Set<string>();
  let held = new Set<Message<unknown>>();
  try {
    ({ repeats } = await claimPurchases(
      db,
      all.map((delivery) => delivery.message),
      at,
    ));
  } catch (error) {
    logError('purchase_claim_failed', { detail: String(error) });
    held = new Set(
      all.filter((delivery) => isVerifiedPurchase(delivery.message)).flatMap((d) => d.handles),
    );
    for (const handle of held) handle.retry({ delaySeconds: retryDelaySeconds(handle.attempts) });
  }
  const isRepeat = (delivery: Delivery) => repeats.has(delivery.message.event.insert_id);
  const deliveries = all.filter(
    (delivery) => !isRepeat(delivery) && !delivery.handles.some((handle) => held.has(handle)),
  );
  const going = new Set(deliveries.flatMap((delivery) => delivery.handles));
  for (const handle of all.filter(isRepeat).flatMap((delivery) => delivery.handles)) {
    if (!going.has(handle) && !held.has(handle)) handle.ack();
  }
  const noted: Record<string, number> = {};
  if (repeats.size > 0) noted.purchase_repeats = repeats.size;
  if (held.size > 0) noted.purchase_claims_retried = held.size;
  return { deliveries, noted };
}

/**
 * The queue consumer (worker/index.ts): sends each event to every destination that takes it and
 * has not had it yet, then acks its message, or retries the message later when a destination
 * asked to. One JSON log line per batch.
 *
 * What each destination took is written down (EVENTS_DB deliveries) only for a message about to
 * be retried, and read only for a message handed over again: so that only the destination that
 * asked hears of its events again. A message delivered on its first try, the usual case, costs
 * no database statement (a verified purchase costs one request: its claim, claimed). The queue may, rarely, hand over a message it had already had acked;
 * its events then reach the destinations again, which each drop a repeat (Amplitude by
 * insert_id, Meta and TikTok by event_id, the local store and the experiment's flags by key;
 * the raw archive keeps the line twice, docs/analytics.md).
 */
export function createQueueHandler(options: QueueHandlerOptions = {}) {
  const fetcher: Fetch = options.fetch ?? ((url, init) => fetch(url, init));
  const now = options.now ?? Date.now;

  return async function queue(
    batch: MessageBatch<unknown>,
    env: Bindings,
    _ctx: ExecutionContext,
  ): Promise<void> {
    if (isDeadLetterQueue(batch.queue)) {
      return keepDeadLetters(batch.queue, batch.messages, env.EVENTS_DB, now());
    }
    const { byId, unreadable } = readMessages(batch);
    // A newer or broken format: retrying would not make it readable, so it is kept with the dead
    // letters at once (to be sent again once a worker that reads it is deployed), never dropped.
    if (unreadable.length > 0) {
      await keepDeadLetters(batch.queue, unreadable, env.EVENTS_DB, now(), retryDelaySeconds);
    }
    if (byId.size === 0) return;
    const { deliveries, noted } = await claimed(env.EVENTS_DB, [...byId.values()], now());
    if (deliveries.length === 0) {
      logLine({ queue: batch.queue, messages: batch.messages.length, events: 0, ...noted });
      return;
    }
    const handles = new Set(deliveries.flatMap((delivery) => delivery.handles));

    let settled: Set<string>;
    try {
      settled = await settledBefore(env.EVENTS_DB, deliveries);
    } catch (error) {
      logError('collector_db_failed', { queue: batch.queue, detail: String(error) });
      for (const handle of handles) {
        handle.retry({ delaySeconds: retryDelaySeconds(handle.attempts) });
      }
      return;
    }

    const tally: Tally = {};
    const destinations = selectDestinations(env, fetcher);
    const records = (
      await Promise.all(
        destinations.map((destination) => deliverTo(destination, deliveries, settled, tally)),
      )
    ).flat();
    const { retryIds, again, carried } = toRetry(deliveries, records);
    try {
      const at = now();
      await recordDeliveries(
        env.EVENTS_DB,
        records.filter((record) => record.outcome !== 'retry' && carried.has(record.insertId)),
        at,
      );
      await recordFailures(env.EVENTS_DB, failuresOf(deliveries, records), at);
    } catch (error) {
      // They did arrive; the retry sends them again, and every destination de-duplicates by
      // insert_id or event_id.
      logError('collector_record_failed', { detail: String(error) });
    }
    for (const handle of handles) {
      if (again.has(handle)) handle.retry({ delaySeconds: retryDelaySeconds(handle.attempts) });
      else handle.ack();
    }
    logLine({
      queue: batch.queue,
      messages: batch.messages.length,
      events: deliveries.length,
      retried: retryIds.size,
      ...noted,
      ...tally,
    });
  };
}
