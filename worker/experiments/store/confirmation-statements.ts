import type { Statement } from './split-statements';

/**
 * Exposures that count only once their visitor's page script has confirmed them
 * (docs/statistics.md, "What is counted"). A page's exposures are written pending, in
 * `xp_pending_exposures`, and counted per arm as `unconfirmed`; the page's script sends back the
 * page's signed ticket (worker/collector/exposure-ticket.ts), and then the visitor's pending rows
 * served up to that page move to `xp_exposures`, whose triggers count them as exposed, by day, by
 * segment and stratum, as they counted every exposure before. Only rows in `xp_exposures` take
 * steps, purchases, vitals, declines and errors, so a visitor never confirmed counts in none, as
 * one over their address's budget. Rows from before this change are in `xp_exposures`: they stay
 * counted.
 *
 * The ticket may come back before the page's exposures are written (both follow the answer), so
 * a confirmation is kept for its visitor (`xp_confirmed_visitors`: until when it confirms), and
 * an exposure it covers goes straight to `xp_exposures`. A replayed ticket finds nothing pending:
 * each row moves once. The alarm deletes pending rows and confirmations a day old
 * (PENDING_KEPT_MS): a ticket is taken for an hour; the `unconfirmed` counts stay.
 */

/** How long a pending exposure and a visitor's confirmation are kept. */
export const PENDING_KEPT_MS = 24 * 60 * 60 * 1000;

export const CONFIRMATION_MIGRATION: readonly string[] = [
  // ALTER TABLE … ADD COLUMN rewrites no row: every arm's unconfirmed reads 0.
  'ALTER TABLE xp_arms ADD COLUMN unconfirmed INTEGER NOT NULL DEFAULT 0',
  `CREATE TABLE xp_pending_exposures (
  visitor_id TEXT NOT NULL,
  experiment TEXT NOT NULL,
  phase INTEGER NOT NULL,
  variant TEXT NOT NULL,
  config_version TEXT NOT NULL,
  exposed_at INTEGER NOT NULL,
  segments INTEGER NOT NULL,
  PRIMARY KEY (visitor_id, experiment)
) WITHOUT ROWID`,
  `CREATE TABLE xp_confirmed_visitors (
  visitor_id TEXT PRIMARY KEY,
  until INTEGER NOT NULL
) WITHOUT ROWID`,
  `CREATE TRIGGER xp_exposure_pending AFTER INSERT ON xp_pending_exposures
BEGIN
  INSERT INTO xp_arms (experiment, phase, variant, unconfirmed)
    VALUES (NEW.experiment, NEW.phase, NEW.variant, 1)
    ON CONFLICT (experiment, phase, variant) DO UPDATE SET unconfirmed = unconfirmed + 1;
END`,
];

/** The columns an exposure row is written with, pending or counted. */
export const EXPOSURE_COLUMNS =
  'visitor_id, experiment, phase, variant, config_version, exposed_at, segments';

/** Whether a confirmation of its visitor covers the exposure `row` (an alias of such columns). */
export const confirmedCovers = (row: string) =>
  `EXISTS (SELECT 1 FROM xp_confirmed_visitors AS confirmed
    WHERE confirmed.visitor_id = ${row}.visitor_id AND ${row}.exposed_at <= confirmed.until)`;

/** A visitor's page script's answer: their exposures served up to `until` (epoch ms) count. */
export interface Confirmation {
  visitorId: string;
  until: number;
}

/** The confirmations as `(visitor_id, until)` rows of the JSON list `?1`. */
const CONFIRMED = `SELECT json_extract(value, '$[0]') AS visitor_id,
    json_extract(value, '$[1]') AS until FROM json_each(?1)`;

/** The pending rows the confirmations of `?1` cover. */
const COVERED = `SELECT p.${EXPOSURE_COLUMNS.split(', ').join(', p.')}
  FROM xp_pending_exposures AS p JOIN (${CONFIRMED}) AS c ON c.visitor_id = p.visitor_id
  WHERE p.exposed_at <= c.until`;

/** The list of `?1`: one row per visitor, their latest `until`. */
export function confirmationList(confirmations: readonly Confirmation[]): string {
  const until = new Map<string, number>();
  for (const { visitorId, until: at } of confirmations) {
    until.set(visitorId, Math.max(until.get(visitorId) ?? at, at));
  }
  return JSON.stringify([...until]);
}

/** How many pending rows the confirmations of `?1` would move. */
export function coveredCountStatement(list: string): Statement {
  return { sql: `SELECT count(*) AS covered FROM (${COVERED})`, params: [list] };
}

/**
 * Keeps each confirmation, and moves the pending rows it covers to `xp_exposures`: their arms'
 * `unconfirmed` down and, by its triggers, `exposed` up. Four statements, in one transaction.
 */
export function confirmationStatements(list: string): Statement[] {
  return [
    {
      sql: `INSERT INTO xp_confirmed_visitors (visitor_id, until)
            SELECT visitor_id, until FROM (${CONFIRMED}) WHERE true
            ON CONFLICT (visitor_id) DO UPDATE SET until = max(until, excluded.until)`,
      params: [list],
    },
    {
      sql: `UPDATE xp_arms SET unconfirmed = unconfirmed - moved.n
            FROM (SELECT experiment, phase, variant, count(*) AS n FROM (${COVERED})
                  GROUP BY experiment, phase, variant) AS moved
            WHERE xp_arms.experiment = moved.experiment AND xp_arms.phase = moved.phase
              AND xp_arms.variant = moved.variant`,
      params: [list],
    },
    {
      sql: `INSERT INTO xp_exposures (${EXPOSURE_COLUMNS})
            SELECT * FROM (${COVERED}) WHERE true
            ON CONFLICT (visitor_id, experiment) DO NOTHING`,
      params: [list],
    },
    {
      sql: `DELETE FROM xp_pending_exposures
            WHERE (visitor_id, experiment) IN (SELECT visitor_id, experiment FROM (${COVERED}))`,
      params: [list],
    },
  ];
}

/** Pending rows and confirmations older than `before` (epoch ms): no ticket can reach them now. */
export function pendingPruneStatements(before: number): Statement[] {
  return [
    { sql: 'DELETE FROM xp_pending_exposures WHERE exposed_at < ?1', params: [before] },
    { sql: 'DELETE FROM xp_confirmed_visitors WHERE until < ?1', params: [before] },
  ];
}
