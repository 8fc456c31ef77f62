import type { DestinationName, Outcome } from './outcome';

/**
 * EVENTS_DB deliveries: which destination already took (or refused for good) which event, so a
 * message the queue hands over again is sent only where it has not arrived yet.
 */

export function deliveryKey(insertId: string, destination: DestinationName): string {
  return `${destination}:${insertId}`;
}

/** The deliveryKey of every settled (insert id, destination) pair among these ids. */
export async function settledDeliveries(
  db: D1Database,
  insertIds: readonly string[],
): Promise<Set<string>> {
  const { results } = await db
    .prepare(
      'SELECT insert_id, destination FROM deliveries WHERE insert_id IN (SELECT value FROM json_each(?1))',
    )
    .bind(JSON.stringify(insertIds))
    .all<{ insert_id: string; destination: DestinationName }>();
  return new Set(results.map((row) => deliveryKey(row.insert_id, row.destination)));
}

/** What became of one event at one destination on this try. */
export interface DeliveryRecord {
  insertId: string;
  destination: DestinationName;
  outcome: Outcome;
}

/** Writes down settled deliveries (never 'retry'), one statement for all of them. */
export async function recordDeliveries(
  db: D1Database,
  records: readonly DeliveryRecord[],
  at: number,
): Promise<void> {
  if (records.length === 0) return;
  await db
    .prepare(
      `INSERT OR IGNORE INTO deliveries (insert_id, destination, outcome, at)
       SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'), ?1
       FROM json_each(?2)`,
    )
    .bind(at, JSON.stringify(records.map((r) => [r.insertId, r.destination, r.outcome])))
    .run();
}
