import type { SqlRunner } from '../config/versions';
import type { DueAlert } from './alert-rules';

/**
 * The alerts' delivery record in CONFIG_DB (worker/config/migrations/0004_alert_deliveries.sql).
 * A handful of alerts a day fit one D1 table; what makes it exactly-once is that every step is
 * one conditional statement, which D1 runs one at a time:
 * - claim: INSERT OR IGNORE on the alert's key, before anything is posted. The first run to see
 *   a condition records it; every later run, and a concurrent one, finds the key and adds nothing;
 * - take: a run leases the due rows (one UPDATE … RETURNING), so two runs never post the same
 *   row. A run that dies after taking leaves the lease to run out, and the next run posts it;
 * - settle: sent, retried later, or given up, each only while the row is still pending.
 * Every alert is claimed, posted or not: claimed without a webhook (none set, or not allowed), it
 * is the console's inbox's alone (state `inbox`), which lists each row and records who
 * acknowledged it (0010_alert_inbox.sql).
 */

export interface Delivery {
  key: string;
  experiment: string;
  phase: number;
  kind: string;
  variant: string | null;
  /** Never null: a row without a webhook is never pending. */
  webhook: string;
  body: string;
  /** Attempts made, this one included once taken. */
  attempts: number;
}

/**
 * How long a taken row is left to its run: far longer than a post may take (its timeout,
 * post-alert.ts), far shorter than the cron's interval, so a run that died is retried by the next.
 */
export const LEASE_MS = 5 * 60 * 1000;

/** Rows posted per run at most: a burst of alerts is spread over runs, each within its limits. */
const TAKEN_PER_RUN = 25;

/**
 * Records `alert` as due to `webhook` with `body`, or for the inbox alone when `webhook` is null;
 * false when its key was claimed before. Through `SqlRunner`, so the CLI's break-glass publish
 * claims its alert as the worker does.
 */
export async function claimAlert(
  sql: SqlRunner,
  alert: DueAlert,
  webhook: string | null,
  body: string,
  now: number,
): Promise<boolean> {
  const variant = 'variant' in alert.facts ? alert.facts.variant : null;
  const state = webhook === null ? 'inbox' : 'pending';
  const { changes } = await sql.run(
    `INSERT OR IGNORE INTO alert_deliveries
       (key, experiment, phase, kind, variant, webhook, body, state, attempts, next_attempt_at, claimed_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?)`,
    [
      alert.key,
      alert.experiment,
      alert.phase,
      alert.facts.kind,
      variant,
      webhook,
      body,
      state,
      now,
      now,
    ],
  );
  return changes === 1;
}

/** Leases the pending rows due at `now` to this run, counting the attempt it is about to make. */
export async function takeDueDeliveries(db: D1Database, now: number): Promise<Delivery[]> {
  const { results } = await db
    .prepare(
      `UPDATE alert_deliveries
          SET lease_until = ?1 + ?2, attempts = attempts + 1
        WHERE key IN (
          SELECT key FROM alert_deliveries
           WHERE state = 'pending' AND next_attempt_at <= ?1
             AND (lease_until IS NULL OR lease_until <= ?1)
           ORDER BY next_attempt_at LIMIT ?3)
          AND state = 'pending' AND (lease_until IS NULL OR lease_until <= ?1)
        RETURNING key, experiment, phase, kind, variant, webhook, body, attempts`,
    )
    .bind(now, LEASE_MS, TAKEN_PER_RUN)
    .all<Delivery>();
  return results;
}

/** The webhook took it: never posted again. */
export async function markSent(db: D1Database, key: string, status: number, now: number) {
  await db
    .prepare(
      `UPDATE alert_deliveries SET state = 'sent', sent_at = ?3, last_status = ?2, lease_until = NULL, last_error = NULL
        WHERE key = ?1 AND state = 'pending'`,
    )
    .bind(key, status, now)
    .run();
}

/** Not taken this time: posted again from `retryAt` on. */
export async function markRetry(
  db: D1Database,
  key: string,
  outcome: { status: number | null; error: string },
  retryAt: number,
) {
  await db
    .prepare(
      `UPDATE alert_deliveries SET next_attempt_at = ?2, lease_until = NULL, last_status = ?3, last_error = ?4
        WHERE key = ?1 AND state = 'pending'`,
    )
    .bind(key, retryAt, outcome.status, outcome.error)
    .run();
}

/** Refused for good, or out of attempts: never posted again (the log says why). */
export async function markGivenUp(
  db: D1Database,
  key: string,
  outcome: { status: number | null; error: string },
) {
  await db
    .prepare(
      `UPDATE alert_deliveries SET state = 'given_up', lease_until = NULL, last_status = ?2, last_error = ?3
        WHERE key = ?1 AND state = 'pending'`,
    )
    .bind(key, outcome.status, outcome.error)
    .run();
}

/** One alert as the inbox reads it. */
export interface StoredAlert {
  key: string;
  experiment: string;
  phase: number;
  kind: string;
  variant: string | null;
  body: string;
  state: 'pending' | 'sent' | 'given_up' | 'inbox';
  attempts: number;
  claimed_at: number;
  sent_at: number | null;
  last_status: number | null;
  last_error: string | null;
  acknowledged_at: number | null;
  acknowledged_by: string | null;
}

const STORED_COLUMNS = `key, experiment, phase, kind, variant, body, state, attempts, claimed_at, sent_at,
  last_status, last_error, acknowledged_at, acknowledged_by`;

/** The newest `limit` alerts, newest first, and how many of all are not acknowledged yet. */
export async function listAlerts(
  db: D1Database,
  limit: number,
): Promise<{ alerts: StoredAlert[]; unacknowledged: number }> {
  const [listed, counted] = await db.batch([
    db
      .prepare(
        `SELECT ${STORED_COLUMNS} FROM alert_deliveries ORDER BY claimed_at DESC, key LIMIT ?1`,
      )
      .bind(limit),
    db.prepare('SELECT COUNT(*) AS n FROM alert_deliveries WHERE acknowledged_at IS NULL'),
  ]);
  const [count] = (counted?.results ?? []) as { n: number }[];
  return { alerts: (listed?.results ?? []) as StoredAlert[], unacknowledged: count?.n ?? 0 };
}

/**
 * Marks `key` acknowledged by `by` at `now`, once: the first acknowledgement stands. The alert as
 * it is then, or null when no alert has that key.
 */
export async function acknowledgeAlert(
  db: D1Database,
  key: string,
  by: string,
  now: number,
): Promise<StoredAlert | null> {
  const [, read] = await db.batch([
    db
      .prepare(
        `UPDATE alert_deliveries SET acknowledged_at = ?3, acknowledged_by = ?2
          WHERE key = ?1 AND acknowledged_at IS NULL`,
      )
      .bind(key, by, now),
    db.prepare(`SELECT ${STORED_COLUMNS} FROM alert_deliveries WHERE key = ?1`).bind(key),
  ]);
  const [alert] = (read?.results ?? []) as StoredAlert[];
  return alert ?? null;
}
