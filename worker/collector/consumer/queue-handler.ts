import { logError, logLine } from '../../../shared/log';
import type { Bindings } from '../../env';
import { QueuedEvent } from '../queued-event';
import { keepDeadLetters } from './dead-letters';
import { deliveryKey, recordDeliveries, settledDeliveries } from './deliveries';
import type { Destination } from './destination';
import { selectDestinations } from './destinations';
import { type DestinationName, type Outcome, retryDelaySeconds } from './outcome';
import type { Fetch } from './post-json';

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
}

/** Valid messages grouped by insert_id; one the consumer cannot read is logged and acked. */
function readMessages(batch: MessageBatch<unknown>): Map<string, Delivery> {
  const byId = new Map<string, Delivery>();
  for (const handle of batch.messages) {
    const parsed = QueuedEvent.safeParse(handle.body);
    if (!parsed.success) {
      // A newer or broken format: retrying would not make it readable.
      logError('collector_message_invalid', {
        message_id: handle.id,
        detail: parsed.error.issues[0]?.message ?? 'invalid',
      });
      handle.ack();
      continue;
    }
    const id = parsed.data.event.insert_id;
    const known = byId.get(id);
    if (known) known.handles.push(handle);
    else byId.set(id, { message: parsed.data, handles: [handle] });
  }
  return byId;
}

type Tally = Partial<Record<`${Outcome}_${DestinationName}`, number>>;

/**
 * The queue consumer (worker/index.ts): sends each event to every destination that takes it and
 * has not had it yet, records what each took, then acks the message, or retries it later when a
 * destination asked to (only that destination hears of it again). One JSON log line per batch.
 */
export function createQueueHandler(options: QueueHandlerOptions = {}) {
  const fetcher: Fetch = options.fetch ?? ((url, init) => fetch(url, init));
  const now = options.now ?? Date.now;

  async function deliverTo(
    destination: Destination,
    deliveries: readonly Delivery[],
    settled: ReadonlySet<string>,
    env: Bindings,
    tally: Tally,
  ): Promise<string[]> {
    const pending = deliveries
      .map((delivery) => delivery.message)
      .filter(
        (message) =>
          destination.takes(message) &&
          !settled.has(deliveryKey(message.event.insert_id, destination.name)),
      );
    if (pending.length === 0) return [];
    const outcomes = await destination.deliver(pending);
    const retry: string[] = [];
    const done: { insertId: string; outcome: 'delivered' | 'dropped' }[] = [];
    pending.forEach((message, index) => {
      const outcome = outcomes[index] ?? 'retry';
      const key = `${outcome}_${destination.name}` as const;
      tally[key] = (tally[key] ?? 0) + 1;
      if (outcome === 'retry') retry.push(message.event.insert_id);
      else done.push({ insertId: message.event.insert_id, outcome });
    });
    try {
      await recordDeliveries(env.EVENTS_DB, destination.name, done, now());
    } catch (error) {
      // They did arrive; only a redelivery for another destination would send them again, and
      // every destination de-duplicates by insert_id or event_id.
      logError('collector_record_failed', {
        destination: destination.name,
        events: done.length,
        detail: String(error),
      });
    }
    return retry;
  }

  return async function queue(
    batch: MessageBatch<unknown>,
    env: Bindings,
    _ctx: ExecutionContext,
  ): Promise<void> {
    if (isDeadLetterQueue(batch.queue)) return keepDeadLetters(batch, env.EVENTS_DB, now());
    const byId = readMessages(batch);
    if (byId.size === 0) return;
    const deliveries = [...byId.values()];

    let settled: Set<string>;
    try {
      settled = await settledDeliveries(env.EVENTS_DB, [...byId.keys()]);
    } catch (error) {
      logError('collector_db_failed', { queue: batch.queue, detail: String(error) });
      for (const delivery of deliveries) {
        for (const handle of delivery.handles) {
          handle.retry({ delaySeconds: retryDelaySeconds(handle.attempts) });
        }
      }
      return;
    }

    const tally: Tally = {};
    const destinations = selectDestinations(env, fetcher);
    const retries = await Promise.all(
      destinations.map((destination) => deliverTo(destination, deliveries, settled, env, tally)),
    );
    const retryIds = new Set(retries.flat());
    for (const delivery of deliveries) {
      const again = retryIds.has(delivery.message.event.insert_id);
      for (const handle of delivery.handles) {
        if (again) handle.retry({ delaySeconds: retryDelaySeconds(handle.attempts) });
        else handle.ack();
      }
    }
    logLine({
      queue: batch.queue,
      messages: batch.messages.length,
      events: deliveries.length,
      retried: retryIds.size,
      ...tally,
    });
  };
}
