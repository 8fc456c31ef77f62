import { type EventRecord, eventRecord } from './event-record';
import type { QueuedEvent } from './queued-event';

/**
 * The local event store (EVENTS_DB events): where events go in development when no
 * AMPLITUDE_API_KEY is set, and what `npm run events -- tail | list` prints. Never written by a
 * deployed worker: raw events would fill D1 in days; those keep them in R2 (event-archive.ts).
 * Written by the queue consumer on the edge, read from Node through wrangler's platform proxy
 * (scripts/events.ts).
 */

/** An EventRecord as a row: its arrival order, and its two objects as JSON text. */
export interface StoredEvent extends Omit<EventRecord, 'event_properties' | 'context'> {
  /** Arrival order. */
  seq: number;
  /** event_properties, JSON. */
  properties: string;
  /** The server context (worker/collector/queued-event.ts), JSON. */
  context: string;
}

const COLUMNS =
  'seq, insert_id, event_type, time, received_at, device_id, user_id, session_id, screen_name, properties, context';

/**
 * Stores the events in the given order, each insert_id once: a message delivered again changes
 * nothing. One statement for the whole batch (D1 caps bound parameters per statement).
 */
export async function storeEvents(db: D1Database, messages: readonly QueuedEvent[]): Promise<void> {
  const rows = messages.map((message) => {
    const { event_properties, context, ...columns } = eventRecord(message);
    return {
      ...columns,
      properties: JSON.stringify(event_properties),
      context: JSON.stringify(context),
    };
  });
  await db
    .prepare(
      `INSERT OR IGNORE INTO events (insert_id, event_type, time, received_at, device_id, user_id, session_id, screen_name, properties, context)
       SELECT json_extract(value, '$.insert_id'), json_extract(value, '$.event_type'),
              json_extract(value, '$.time'), json_extract(value, '$.received_at'),
              json_extract(value, '$.device_id'), json_extract(value, '$.user_id'),
              json_extract(value, '$.session_id'), json_extract(value, '$.screen_name'),
              json_extract(value, '$.properties'), json_extract(value, '$.context')
       FROM json_each(?1)`,
    )
    .bind(JSON.stringify(rows))
    .run();
}

/** The last `count` events, oldest first. */
export async function latestEvents(db: D1Database, count: number): Promise<StoredEvent[]> {
  const { results } = await db
    .prepare(
      `SELECT ${COLUMNS} FROM (SELECT ${COLUMNS} FROM events ORDER BY seq DESC LIMIT ?1) ORDER BY seq`,
    )
    .bind(count)
    .all<StoredEvent>();
  return results;
}

/** Events that arrived after `seq`, oldest first, at most `limit`. */
export async function eventsAfter(
  db: D1Database,
  seq: number,
  limit: number,
): Promise<StoredEvent[]> {
  const { results } = await db
    .prepare(`SELECT ${COLUMNS} FROM events WHERE seq > ?1 ORDER BY seq LIMIT ?2`)
    .bind(seq, limit)
    .all<StoredEvent>();
  return results;
}

/** Whether the events database's migrations (worker/events-db/migrations) have run here. */
export async function isEventStoreMigrated(db: D1Database): Promise<boolean> {
  const row = await db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'events'")
    .first<{ name: string }>();
  return row !== null;
}
