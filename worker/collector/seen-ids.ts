import { PRUNE_INTERVAL_MS, PRUNE_ROW_LIMIT, SEEN_RETENTION_MS } from './intake-rules';

/**
 * The insert ids `POST /e` has accepted (EVENTS_DB seen_events): one statement per batch, however
 * many events it holds. INSERT OR IGNORE returns only the rows it inserted, so what comes back
 * is exactly the ids nobody had sent before (an id twice in one batch comes back once).
 */
export async function claimInsertIds(
  db: D1Database,
  ids: readonly string[],
  seenAt: number,
): Promise<Set<string>> {
  const { results } = await db
    .prepare(
      'INSERT OR IGNORE INTO seen_events (insert_id, seen_at) SELECT value, ?1 FROM json_each(?2) RETURNING insert_id',
    )
    .bind(seenAt, JSON.stringify(ids))
    .all<{ insert_id: string }>();
  return new Set(results.map((row) => row.insert_id));
}

/** Forgets ids claimed at `seenAt` whose events never reached the queue, so a resend counts. */
export async function releaseInsertIds(
  db: D1Database,
  ids: readonly string[],
  seenAt: number,
): Promise<void> {
  await db
    .prepare(
      'DELETE FROM seen_events WHERE seen_at = ?1 AND insert_id IN (SELECT value FROM json_each(?2))',
    )
    .bind(seenAt, JSON.stringify(ids))
    .run();
}

/**
 * Deletes seen ids and delivery records older than SEEN_RETENTION_MS, a bounded number per call,
 * at most once per PRUNE_INTERVAL_MS for one pruner (one per app, i.e. per isolate).
 */
export function createPruner(interval: number = PRUNE_INTERVAL_MS) {
  let lastRun = Number.NEGATIVE_INFINITY;
  return async function pruneOldRows(db: D1Database, now: number): Promise<boolean> {
    if (now - lastRun < interval) return false;
    lastRun = now;
    const before = now - SEEN_RETENTION_MS;
    await db.batch([
      db
        .prepare(
          'DELETE FROM seen_events WHERE insert_id IN (SELECT insert_id FROM seen_events WHERE seen_at < ?1 ORDER BY seen_at LIMIT ?2)',
        )
        .bind(before, PRUNE_ROW_LIMIT),
      db
        .prepare(
          'DELETE FROM deliveries WHERE (insert_id, destination) IN (SELECT insert_id, destination FROM deliveries WHERE at < ?1 ORDER BY at LIMIT ?2)',
        )
        .bind(before, PRUNE_ROW_LIMIT),
    ]);
    return true;
  };
}
