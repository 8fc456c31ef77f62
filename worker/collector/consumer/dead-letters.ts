import { logError } from '../../../shared/log';
import { type DeliveryFailure, deliveryKey, deliveryStates } from './deliveries';
import { type DestinationName, deadLetterRetryDelaySeconds } from './outcome';

/** The insert ids a message carries: one event's (`v: 1`) or a batch's (`v: 2`). */
function insertIdsOf(body: unknown): string[] {
  const message = body as { event?: { insert_id?: unknown }; events?: unknown } | null;
  const events = Array.isArray(message?.events) ? message.events : [message?.event];
  return events.flatMap((event) => {
    const id = (event as { insert_id?: unknown } | null | undefined)?.insert_id;
    return typeof id === 'string' ? [id] : [];
  });
}

/** Where a dead letter never arrived, how often it was tried, and why, as far as it is known. */
interface Undelivered {
  destinations: DestinationName[] | null;
  attempts: number | null;
  error: Partial<Record<DestinationName, string>> | null;
}

/**
 * The destinations that asked for these events again and never took them since
 * (./deliveries.ts); nothing known (all null) for events no destination failed on record, such
 * as an unreadable message's.
 */
function undelivered(
  ids: readonly string[],
  states: { settled: ReadonlySet<string>; failures: readonly DeliveryFailure[] },
): Undelivered {
  const wanted = new Set(ids);
  const failed = states.failures.filter(
    (failure) =>
      wanted.has(failure.insertId) &&
      !states.settled.has(deliveryKey(failure.insertId, failure.destination)),
  );
  if (failed.length === 0) return { destinations: null, attempts: null, error: null };
  const error: Partial<Record<DestinationName, string>> = {};
  for (const failure of failed) if (failure.error) error[failure.destination] = failure.error;
  return {
    destinations: [...new Set(failed.map((failure) => failure.destination))].sort(),
    attempts: Math.max(...failed.map((failure) => failure.attempts)),
    error: Object.keys(error).length > 0 ? error : null,
  };
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
  let rows: { insert_id: string | null; destinations: string | null }[] = [];
  try {
    const states = await deliveryStates(db, ids.flat());
    // One row per message; insert_id names its event when it carries one, the body holds them
    // all, and what is known of where it never arrived (`npm run events -- dead-letters show`).
    rows = messages.map((handle, index) => {
      const missed = undelivered(ids[index] ?? [], states);
      return {
        insert_id: ids[index]?.length === 1 ? (ids[index][0] ?? null) : null,
        body: JSON.stringify(handle.body),
        destinations: missed.destinations && JSON.stringify(missed.destinations),
        attempts: missed.attempts,
        error: missed.error && JSON.stringify(missed.error),
      };
    });
    await db
      .prepare(
        `INSERT INTO dead_letters (insert_id, body, failed_at, destinations, attempts, error)
         SELECT json_extract(value, '$.insert_id'), json_extract(value, '$.body'), ?1,
           json_extract(value, '$.destinations'), json_extract(value, '$.attempts'),
           json_extract(value, '$.error')
         FROM json_each(?2)`,
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
      destinations: rows[index]?.destinations ?? null,
      message_id: handle.id,
    });
    handle.ack();
  }
}
