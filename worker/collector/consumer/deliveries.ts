import type { DestinationName } from './outcome';

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

export async function recordDeliveries(
  db: D1Database,
  destination: DestinationName,
  settled: readonly { insertId: string; outcome: 'delivered' | 'dropped' }[],
  at: number,
): Promise<void> {
  if (settled.length === 0) return;
  await db
    .prepare(
      `INSERT OR IGNORE INTO deliveries (insert_id, destination, outcome, at)
       SELECT json_extract(value, '$[0]'), ?1, json_extract(value, '$[1]'), ?2 FROM json_each(?3)`,
    )
    .bind(destination, at, JSON.stringify(settled.map((row) => [row.insertId, row.outcome])))
    .run();
}
