import type { CollectedEvent } from '../../shared/analytics/batch';
import { QUEUE_MESSAGE_BYTES } from './intake-rules';
import type { QueuedBatch, QueuedMessage, ServerContext } from './queued-event';

const encoder = new TextEncoder();

function byteLength(message: QueuedBatch): number {
  return encoder.encode(JSON.stringify(message)).byteLength;
}

/**
 * A batch's events as queue messages, one unless it is over the queue's size per message: then
 * halves, and halves of halves, each in order. A batch within ANALYTICS_LIMITS.maxBatchBytes and
 * its capped context (server-context.ts) comes to under 64 KB, half the limit, so the split is
 * for limits changed later; one event alone always makes a message of its own.
 */
export function batchMessages(
  events: readonly CollectedEvent[],
  context: ServerContext,
  limit: number = QUEUE_MESSAGE_BYTES,
): QueuedBatch[] {
  const message: QueuedBatch = { v: 2, source: 'browser', events: [...events], context };
  if (events.length < 2 || byteLength(message) <= limit) return [message];
  const half = Math.ceil(events.length / 2);
  return [
    ...batchMessages(events.slice(0, half), context, limit),
    ...batchMessages(events.slice(half), context, limit),
  ];
}

/**
 * Queues an accepted batch: one `send` in the usual case, else one `sendBatch` of its pieces
 * (at most 100 messages and 256 KB a call; pieces of one 60 KB batch are far fewer and smaller).
 * Either all of it reaches the queue or, on a throw, none of it: the caller releases the ids.
 */
export async function enqueueBatch(
  queue: Queue<QueuedMessage>,
  events: readonly CollectedEvent[],
  context: ServerContext,
): Promise<void> {
  const [first, ...rest] = batchMessages(events, context);
  if (!first) return;
  if (rest.length === 0) await queue.send(first, { contentType: 'json' });
  else
    await queue.sendBatch([first, ...rest].map((body) => ({ body, contentType: 'json' as const })));
}
