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

/** One destination that asked for an event again: on which try of its message, and why. */
export interface DeliveryFailure {
  insertId: string;
  destination: DestinationName;
  attempts: number;
  /** The log code the destination wrote for the failure; null when it named none. */
  error: string | null;
}

/**
 * Writes down the destinations that asked for events again, with the message's attempts and the
 * failure's code (EVENTS_DB delivery_failures), so a dead letter can say where it never arrived
 * and why (./dead-letters.ts). Written only beside a retry, one statement for all of them.
 */
export async function recordFailures(
  db: D1Database,
  failures: readonly DeliveryFailure[],
  at: number,
): Promise<void> {
  if (failures.length === 0) return;
  await db
    .prepare(
      `INSERT INTO delivery_failures (insert_id, destination, attempts, error, at)
       SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'),
         json_extract(value, '$[3]'), ?1
       FROM json_each(?2) WHERE true
       ON CONFLICT (insert_id, destination) DO UPDATE SET attempts = max(attempts, excluded.attempts),
         error = coalesce(excluded.error, error), at = excluded.at`,
    )
    .bind(at, JSON.stringify(failures.map((f) => [f.insertId, f.destination, f.attempts, f.error])))
    .run();
}

/** What the destinations recorded of these events: those that took them, those that failed. */
export async function deliveryStates(
  db: D1Database,
  insertIds: readonly string[],
): Promise<{ settled: Set<string>; failures: DeliveryFailure[] }> {
  const ids = JSON.stringify(insertIds);
  const [settled, failed] = await db.batch([
    db
      .prepare(
        'SELECT insert_id, destination FROM deliveries WHERE insert_id IN (SELECT value FROM json_each(?1))',
      )
      .bind(ids),
    db
      .prepare(
        `SELECT insert_id, destination, attempts, error FROM delivery_failures
         WHERE insert_id IN (SELECT value FROM json_each(?1))`,
      )
      .bind(ids),
  ]);
  const settledRows = (settled?.results ?? []) as {
    insert_id: string;
    destination: DestinationName;
  }[];
  const failedRows = (failed?.results ?? []) as {
    insert_id: string;
    destination: DestinationName;
    attempts: number;
    error: string | null;
  }[];
  return {
    settled: new Set(settledRows.map((row) => deliveryKey(row.insert_id, row.destination))),
    failures: failedRows.map((row) => ({
      insertId: row.insert_id,
      destination: row.destination,
      attempts: row.attempts,
      error: row.error,
    })),
  };
}
