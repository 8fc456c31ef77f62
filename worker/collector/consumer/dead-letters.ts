import { logError } from '../../../shared/log';
import { retryDelaySeconds } from './outcome';

function insertIdOf(body: unknown): string | null {
  const id = (body as { event?: { insert_id?: unknown } } | null)?.event?.insert_id;
  return typeof id === 'string' ? id : null;
}

/**
 * The dead letter queue's consumer: messages a destination kept refusing for max_retries tries.
 * Each is logged (collector_dead_letter, to alert on) and kept in EVENTS_DB dead_letters, where
 * an operator can read what never arrived and why the logs say it did not.
 */
export async function keepDeadLetters(
  batch: MessageBatch<unknown>,
  db: D1Database,
  now: number,
): Promise<void> {
  const rows = batch.messages.map((handle) => ({
    insert_id: insertIdOf(handle.body),
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
    logError('collector_db_failed', { queue: batch.queue, detail: String(error) });
    for (const handle of batch.messages)
      handle.retry({ delaySeconds: retryDelaySeconds(handle.attempts) });
    return;
  }
  for (const [index, handle] of batch.messages.entries()) {
    logError('collector_dead_letter', {
      insert_id: rows[index]?.insert_id ?? null,
      message_id: handle.id,
    });
    handle.ack();
  }
}
