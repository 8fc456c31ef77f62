import { describeError, logError, logLine } from '../../shared/log';
import { VISITOR_ROWS_KEPT_MS } from '../experiments/assignment/visitor-shard';
import { SEEN_RETENTION_MS } from './intake-rules';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * How long EVENTS_DB keeps each kind of row that would otherwise grow with traffic for good:
 * - deliveries and delivery_failures: as long as a message can be retried or an id can come back
 *   (SEEN_RETENTION_MS);
 * - verified_purchases: a charge's result is polled for minutes, and its messages retried for
 *   hours; 30 days stops a late message (another poll's, a retry's) from counting a purchase
 *   twice with room to spare;
 * - dead_letters: 30 days for an operator to read what never arrived (the logs keep
 *   collector_dead_letter too);
 * - exposures and experiment_purchases written before the experiment shards: 13 months, as the
 *   shards keep theirs (no trigger fires on a delete, so the arms' totals stay).
 * resume_links lapse after 15 minutes and are deleted where links are made and opened.
 */
export const EVENTS_DB_RETENTION = [
  { table: 'deliveries', key: '(insert_id, destination)', column: 'at', keepMs: SEEN_RETENTION_MS },
  {
    table: 'delivery_failures',
    key: '(insert_id, destination)',
    column: 'at',
    keepMs: SEEN_RETENTION_MS,
  },
  {
    table: 'verified_purchases',
    key: 'subscription_id',
    column: 'recorded_at',
    keepMs: 30 * DAY_MS,
  },
  { table: 'dead_letters', key: 'seq', column: 'failed_at', keepMs: 30 * DAY_MS },
  // The split test's visitor rows from before the experiment shards (worker/experiments/
  // experiment-stores.ts), kept as long as the shards keep theirs; their totals stay. Once none
  // is left, the experiment destination stops writing to EVENTS_DB.
  { table: 'exposures', key: 'visitor_id', column: 'exposed_at', keepMs: VISITOR_ROWS_KEPT_MS },
  {
    table: 'experiment_purchases',
    key: 'subscription_id',
    column: 'recorded_at',
    keepMs: VISITOR_ROWS_KEPT_MS,
  },
] as const;

/** Rows deleted per statement, so one statement never holds the one writer long. */
const ROWS_PER_DELETE = 1000;
/** Statements per table per run: 100,000 rows an hour, far over what 100 M visitors a month add. */
const DELETES_PER_RUN = 100;

/**
 * Deletes EVENTS_DB rows past their retention, a bounded number per statement until none is
 * left or DELETES_PER_RUN is reached. Run by the hourly cron (wrangler.toml [triggers]).
 */
export async function pruneEventsDb(db: D1Database, now: number): Promise<Record<string, number>> {
  const deleted: Record<string, number> = {};
  for (const { table, key, column, keepMs } of EVENTS_DB_RETENTION) {
    deleted[table] = 0;
    // Names are the constants above, never input; each age column is indexed.
    const columns = key.replace(/[()]/g, '');
    const statement = db
      .prepare(
        `DELETE FROM ${table} WHERE ${key} IN (SELECT ${columns} FROM ${table} WHERE ${column} < ?1 LIMIT ?2)`,
      )
      .bind(now - keepMs, ROWS_PER_DELETE);
    for (let round = 0; round < DELETES_PER_RUN; round++) {
      const { meta } = await statement.run();
      deleted[table] += meta.changes;
      if (meta.changes < ROWS_PER_DELETE) break;
    }
  }
  return deleted;
}

/** The cron's handler: prunes, and logs one line of what it deleted, or the failure. */
export async function runRetention(db: D1Database, now: number): Promise<void> {
  try {
    const deleted = await pruneEventsDb(db, now);
    logLine({
      task: 'retention',
      ...Object.fromEntries(
        Object.entries(deleted).map(([table, rows]) => [`deleted_${table}`, rows]),
      ),
    });
  } catch (error) {
    logError('retention_failed', { detail: describeError(error) });
  }
}
