import { describeError, logError, logLine } from '../../shared/log';
import { VISITOR_ROWS_KEPT_MS } from '../experiments/assignment/assign';
import { SEEN_RETENTION_MS } from './intake-rules';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * How long EVENTS_DB keeps each kind of row that would otherwise grow with traffic for good:
 * - deliveries and delivery_failures: as long as a message can be retried or an id can come back
 *   (SEEN_RETENTION_MS);
 * - verified_purchases: as long as any message of the purchase can still reach the consumer
 *   (PURCHASE_CLAIMS_KEPT_MS), so a late one (another poll's, a retry's, a redriven dead
 *   letter's) never counts a purchase twice;
 * - dead_letters: 30 days for an operator to read what never arrived and redrive it (the logs
 *   keep collector_dead_letter too);
 * - exposures and experiment_purchases written before the experiment shards: 13 months, as the
 *   shards keep theirs (no trigger fires on a delete, so the arms' totals stay).
 * resume_links lapse after 15 minutes and are deleted where links are made and opened.
 */
/** How long a dead letter is kept for an operator to read and redrive. */
const DEAD_LETTERS_KEPT_MS = 30 * DAY_MS;

/**
 * The longest a purchase's message can wait before the dead letter consumer writes it down: made
 * within the hour a charge's memo is kept (worker/purchases/after-charge.ts), retried by the
 * events queue for about 4 hours (EVENTS_MAX_RETRIES), then held by the dead letter queue at most
 * its retention, 14 days, the longest Cloudflare allows (docs/operate.md); a day covers the hour
 * and the retries.
 */
const LONGEST_PURCHASE_MESSAGE_WAIT_MS = 15 * DAY_MS;

/**
 * A purchase's claim (subscription id → the insert id that is the purchase) outlives every
 * message of that purchase a redrive can still send: 45 days. Kept 30 days, a second poll's
 * message written down as a dead letter on its 14th day and redriven on its 44th met no claim
 * and was counted as a second purchase.
 */
export const PURCHASE_CLAIMS_KEPT_MS = LONGEST_PURCHASE_MESSAGE_WAIT_MS + DEAD_LETTERS_KEPT_MS;

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
    keepMs: PURCHASE_CLAIMS_KEPT_MS,
  },
  { table: 'dead_letters', key: 'seq', column: 'failed_at', keepMs: DEAD_LETTERS_KEPT_MS },
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
