import type { StratumRevenueRow, StratumRow } from './phase-rows';
import type { Statement } from './split-statements';

/**
 * Every experiment's counts by stratum (the shards only), for the comparison adjusted for what
 * is known at exposure (worker/experiments/results/adjusted-statistics.ts; docs/statistics.md,
 * "Adjusted for what is known at exposure"): per arm and segment set (xp_segment_sets, the
 * segments an exposure was captured with), the exposed and each step reached after exposure, and
 * the first payments' histogram in each currency. Triggers keep them in the same transaction as
 * the arms' totals, so the results read a few rows per stratum and arm, never the visitors'.
 *
 * A stratum is a visitor's country, source, platform and language together; the reading adds the
 * segment sets that differ only in route or in-app app. Each shard answers at most
 * MAX_STRATA_PER_SHARD strata, the largest, and counts the rest as OTHER_STRATUM: a visitor's
 * source is theirs to write, and the answer stays bounded however many levels they invent.
 */

/** The steps counted per stratum (and per answer, answer-statements.ts), as on the arms. */
export const COUNTED_STEPS = [
  'reached_lookup',
  'signed_up',
  'reached_checkout',
  'purchased',
  'upsold',
] as const;

/** The stratum of the visitors each shard does not answer one by one. */
export const OTHER_STRATUM = 'other';
/** The strata a shard answers one by one, the largest (both arms together). */
export const MAX_STRATA_PER_SHARD = 100;

/** The first payments' bucket of a buyer's stratum, found through their exposure. */
const BUYER_SEGMENTS = `(SELECT e.segments FROM xp_exposures AS e
      WHERE e.visitor_id = NEW.visitor_id AND e.experiment = NEW.experiment)`;

export const STRATA_MIGRATION: readonly string[] = [
  `CREATE TABLE xp_strata (
  experiment TEXT NOT NULL,
  phase INTEGER NOT NULL,
  segments INTEGER NOT NULL,
  variant TEXT NOT NULL,
  exposed INTEGER NOT NULL DEFAULT 0,
${COUNTED_STEPS.map((step) => `  ${step} INTEGER NOT NULL DEFAULT 0,`).join('\n')}
  PRIMARY KEY (experiment, phase, segments, variant)
) WITHOUT ROWID`,
  `CREATE TABLE xp_strata_revenue (
  experiment TEXT NOT NULL,
  phase INTEGER NOT NULL,
  segments INTEGER NOT NULL,
  variant TEXT NOT NULL,
  currency TEXT NOT NULL,
  revenue_minor INTEGER NOT NULL,
  visitors INTEGER NOT NULL,
  PRIMARY KEY (experiment, phase, segments, variant, currency, revenue_minor)
) WITHOUT ROWID`,
  // The visitors exposed before this migration, once, from their own rows (those the retention
  // already removed are in the arms' totals only: the reading then sees the strata fall short of
  // the arms and adjusts nothing).
  `INSERT INTO xp_strata (experiment, phase, segments, variant, exposed, ${COUNTED_STEPS.join(', ')})
  SELECT experiment, phase, segments, variant, count(*), ${COUNTED_STEPS.map((s) => `sum(${s})`).join(', ')}
  FROM xp_exposures GROUP BY experiment, phase, segments, variant`,
  `INSERT INTO xp_strata_revenue
    (experiment, phase, segments, variant, currency, revenue_minor, visitors)
  SELECT m.experiment, m.phase, e.segments, m.variant, m.currency, m.paid_minor, count(*)
  FROM xp_money AS m JOIN xp_exposures AS e
    ON e.visitor_id = m.visitor_id AND e.experiment = m.experiment
  WHERE m.paid_minor <> 0
  GROUP BY m.experiment, m.phase, e.segments, m.variant, m.currency, m.paid_minor`,
  `CREATE TRIGGER xp_stratum_exposed AFTER INSERT ON xp_exposures
BEGIN
  INSERT INTO xp_strata (experiment, phase, segments, variant, exposed)
    VALUES (NEW.experiment, NEW.phase, NEW.segments, NEW.variant, 1)
    ON CONFLICT (experiment, phase, segments, variant) DO UPDATE SET exposed = exposed + 1;
END`,
  `CREATE TRIGGER xp_stratum_stepped AFTER UPDATE OF ${COUNTED_STEPS.join(', ')} ON xp_exposures
BEGIN
  UPDATE xp_strata SET
${COUNTED_STEPS.map((s) => `    ${s} = ${s} + NEW.${s} - OLD.${s}`).join(',\n')}
  WHERE experiment = NEW.experiment AND phase = NEW.phase AND segments = NEW.segments
    AND variant = NEW.variant;
END`,
  `CREATE TRIGGER xp_stratum_paid AFTER INSERT ON xp_money WHEN NEW.paid_minor <> 0
BEGIN
  INSERT INTO xp_strata_revenue
      (experiment, phase, segments, variant, currency, revenue_minor, visitors)
    SELECT NEW.experiment, NEW.phase, segments, NEW.variant, NEW.currency, NEW.paid_minor, 1
    FROM (SELECT ${BUYER_SEGMENTS} AS segments) WHERE segments IS NOT NULL
    ON CONFLICT (experiment, phase, segments, variant, currency, revenue_minor) DO UPDATE SET
      visitors = visitors + 1;
END`,
  `CREATE TRIGGER xp_stratum_paid_moved AFTER UPDATE OF paid_minor ON xp_money
WHEN OLD.paid_minor <> NEW.paid_minor
BEGIN
  UPDATE xp_strata_revenue SET visitors = visitors - 1
  WHERE OLD.paid_minor <> 0 AND experiment = NEW.experiment AND phase = NEW.phase
    AND segments = ${BUYER_SEGMENTS} AND variant = NEW.variant AND currency = NEW.currency
    AND revenue_minor = OLD.paid_minor;
  DELETE FROM xp_strata_revenue WHERE visitors = 0 AND experiment = NEW.experiment
    AND phase = NEW.phase AND variant = NEW.variant AND currency = NEW.currency
    AND revenue_minor = OLD.paid_minor;
  INSERT INTO xp_strata_revenue
      (experiment, phase, segments, variant, currency, revenue_minor, visitors)
    SELECT NEW.experiment, NEW.phase, segments, NEW.variant, NEW.currency, NEW.paid_minor, 1
    FROM (SELECT ${BUYER_SEGMENTS} AS segments)
    WHERE segments IS NOT NULL AND NEW.paid_minor <> 0
    ON CONFLICT (experiment, phase, segments, variant, currency, revenue_minor) DO UPDATE SET
      visitors = visitors + 1;
END`,
];

/** The segment sets' four dimensions of a stratum, as its key. */
const STRATUM_KEY = `json_array(s.country, s.source, s.platform, s.language)`;

/** The phase's rows by stratum, every segment set of the same four dimensions added. */
export function strataRowsStatement(experiment: string, phase: number): Statement {
  return {
    sql: `SELECT ${STRATUM_KEY} AS stratum, t.variant, sum(t.exposed) AS exposed,
                 ${COUNTED_STEPS.map((s) => `sum(t.${s}) AS ${s}`).join(', ')}
          FROM xp_strata AS t JOIN xp_segment_sets AS s ON s.id = t.segments
          WHERE t.experiment = ?1 AND t.phase = ?2
          GROUP BY stratum, t.variant`,
    params: [experiment, phase],
  };
}

export function strataRevenueRowsStatement(experiment: string, phase: number): Statement {
  return {
    sql: `SELECT ${STRATUM_KEY} AS stratum, r.variant, r.currency, r.revenue_minor,
                 sum(r.visitors) AS visitors
          FROM xp_strata_revenue AS r JOIN xp_segment_sets AS s ON s.id = r.segments
          WHERE r.experiment = ?1 AND r.phase = ?2 AND r.visitors > 0
          GROUP BY stratum, r.variant, r.currency, r.revenue_minor`,
    params: [experiment, phase],
  };
}

/**
 * A shard's strata as it answers them: the MAX_STRATA_PER_SHARD largest (both arms together,
 * then by key) one by one, every other visitor's rows under OTHER_STRATUM. Which strata a
 * shard keeps depends on how many visitors each has, never on their arm, so the strata stay
 * a partition of the visitors by what was known at exposure.
 */
export function boundedStrata(
  rows: readonly StratumRow[],
  revenue: readonly StratumRevenueRow[],
): { strata: StratumRow[]; strataRevenue: StratumRevenueRow[] } {
  const sizes = new Map<string, number>();
  for (const row of rows) sizes.set(row.stratum, (sizes.get(row.stratum) ?? 0) + row.exposed);
  const kept = new Set(
    [...sizes]
      .sort(([a, m], [b, n]) => n - m || (a < b ? -1 : 1))
      .slice(0, MAX_STRATA_PER_SHARD)
      .map(([stratum]) => stratum),
  );
  const named = <T extends { stratum: string }>(row: T): T =>
    kept.has(row.stratum) ? row : { ...row, stratum: OTHER_STRATUM };
  return { strata: rows.map(named), strataRevenue: revenue.map(named) };
}
