import { ANALYTICS_LIMITS } from '../../shared/analytics/limits';
import { QUEUE_BATCH_BYTES } from './intake-rules';
import type { QueuedEvent } from './queued-event';

const encoder = new TextEncoder();

/**
 * The messages in sendBatch-sized groups: at most 100 messages (one batch's events) and at most
 * QUEUE_BATCH_BYTES of JSON each (Queues' 256 KB per call). A batch within maxBatchBytes and its
 * context fits one group; the split is for the rare batch of many long-agent, long-URL events.
 */
function queueGroups(messages: readonly QueuedEvent[]): QueuedEvent[][] {
  const groups: QueuedEvent[][] = [];
  let group: QueuedEvent[] = [];
  let bytes = 0;
  for (const message of messages) {
    const size = encoder.encode(JSON.stringify(message)).byteLength;
    if (
      group.length > 0 &&
      (group.length >= ANALYTICS_LIMITS.batchSize || bytes + size > QUEUE_BATCH_BYTES)
    ) {
      groups.push(group);
      group = [];
      bytes = 0;
    }
    group.push(message);
    bytes += size;
  }
  if (group.length > 0) groups.push(group);
  return groups;
}

export type EnqueueResult = { ok: true } | { ok: false; unsent: QueuedEvent[]; error: unknown };

/** Sends the groups in order; on the first failure, says which messages never reached the queue. */
export async function enqueueEvents(
  queue: Queue<QueuedEvent>,
  messages: readonly QueuedEvent[],
): Promise<EnqueueResult> {
  const groups = queueGroups(messages);
  for (const [index, group] of groups.entries()) {
    try {
      await queue.sendBatch(group.map((body) => ({ body, contentType: 'json' as const })));
    } catch (error) {
      return { ok: false, unsent: groups.slice(index).flat(), error };
    }
  }
  return { ok: true };
}
