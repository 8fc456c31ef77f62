import { logError } from '../../../shared/log';
import { deadLetterRetryDelaySeconds } from './outcome';

/** The insert ids a message carries: one event's (`v: 1`) or a batch's (`v: 2`). */
function insertIdsOf(body: unknown): string[] {
  const message = body as { event?: { insert_id?: unknown }; events?: unknown } | null;
  const events = Array.isArray(message?.events) ? message.events : [message?.event];
  return events.flatMap((event) => {
    const id = (event as { insert_id?: unknown } | null | undefined)?.insert_id;
    return typeof id === 'string' ? [id] : [];
  });
}

/**
 * The dead letter queue's consumer: messages a destination kept refusing for max_retries tries,
 * and messages the events queue's consumer cannot read. Each is kept in EVENTS_DB dead_letters,
 * where an operator can read what never arrived (`npm run events -- dead-letters`) and send it
 * again, and logged (collector_dead_letter, to alert on). Acked only once written: when
 * EVENTS_DB fails, every message is retried later (by `retryDelay`, growing with its attempts),
 * never dropped.
 */
export async function keepDeadLetters(
  queue: string,
  messages: readonly Message<unknown>[],
  db: D1Database,
  now: number,
  retryDelay: (attempts: number) => number = deadLetterRetryDelaySeconds,
): Promise<void> {
  const ids = messages.map((handle) => insertIdsOf(handle.body));
  // One row per message; insert_id names its event when it carries one, the body holds them all.
  const rows = messages.map((handle, index) => ({
    insert_id: ids[index]?.length === 1 ? ids[index][0] : null,
    body: JSON.stringify(handle.body),
  }));
  try {
    await db
      .prepare(
        `INSERT INTO dead_letters (insert_id, body, failed_at)
         SELECT json_extract(value, '$.insert_id'), json_extract(value, '$.body'), ?1 FROM json_each(?2)`,
      )
      .bind(now, JSON.stringify(rows))
      .run();
  } catch (error) {
    logError('collector_db_failed', { queue, detail: String(error) });
    for (const handle of messages) handle.retry({ delaySeconds: retryDelay(handle.attempts) });
    return;
  }
  for (const [index, handle] of messages.entries()) {
    logError('collector_dead_letter', {
      insert_id: rows[index]?.insert_id ?? null,
      events: ids[index]?.length ?? 0,
      message_id: handle.id,
    });
    handle.ack();
  }
}
