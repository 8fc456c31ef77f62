import type { SegmentDimension } from '../../../shared/console-api/experiment-results';
import { SPLIT_EXPERIMENT_ID } from '../../../shared/experiments';
import { confirmedCovers, EXPOSURE_COLUMNS } from './confirmation-statements';
import { EXPERIMENT_FLAGS, type Outcome, outcomeFlagStatements } from './outcomes';
import type { ExperimentPurchase, Statement } from './split-statements';

/**
 * The SQL that writes and reads every experiment's rows in a shard (every-experiment-schema.ts).
 * Each outcome, purchase and revenue event counts in an experiment only if it happened at or
 * after the visitor's exposure to it (issue's "results count only what happened after
 * exposure"): a paywall test's visitor who looked a number up on the landing did it before the
 * test could act on them.
 */

/** The segments an exposure is captured with; 'unknown' where the visitor's value was absent. */
export type ExposureSegments = Record<SegmentDimension, string>;

/** An arm of one experiment. */
export interface ExperimentArm {
  experiment: string;
  phase: number;
  variant: string;
}

export interface ExperimentExposure extends ExperimentArm {
  /** The userUuid cookie. */
  visitorId: string;
  /** The config that placed the visitor, e.g. 'v12+v12'. */
  configVersion: string;
  /** Epoch ms on the worker's clock. */
  at: number;
  segments: ExposureSegments;
}

const segmentsOf = (exposure: ExperimentExposure) => [
  exposure.segments.country,
  exposure.segments.source,
  exposure.segments.platform,
  exposure.segments.in_app,
  exposure.segments.language,
  exposure.segments.route,
];

/**
 * Each visitor's exposure to each experiment, once (whatever the phase), with its segment set
 * (made first if new): pending until their page's script confirms it (confirmation-statements.ts),
 * straight into `xp_exposures` where a confirmation already covers it. A visitor whose split
 * exposure is in the split's own table from before (`exposures`) is not counted again here. Three
 * statements however many.
 */
export function experimentExposureStatements(
  exposures: readonly ExperimentExposure[],
): Statement[] {
  const rows = exposures.map((e) => [
    e.visitorId,
    e.experiment,
    e.phase,
    e.variant,
    e.configVersion,
    e.at,
    ...segmentsOf(e),
  ]);
  const list = JSON.stringify(rows);
  const at = (index: number) => `json_extract(value, '$[${index}]')`;
  const exposed = `SELECT e.visitor_id, e.experiment, e.phase, e.variant, e.config_version,
              e.exposed_at, s.id AS segments
            FROM (SELECT ${at(0)} AS visitor_id, ${at(1)} AS experiment, ${at(2)} AS phase,
                         ${at(3)} AS variant, ${at(4)} AS config_version, ${at(5)} AS exposed_at,
                         ${at(6)} AS country, ${at(7)} AS source, ${at(8)} AS platform,
                         ${at(9)} AS in_app, ${at(10)} AS language, ${at(11)} AS route
                  FROM json_each(?1)) AS e
            JOIN xp_segment_sets AS s ON s.country = e.country AND s.source = e.source
              AND s.platform = e.platform AND s.in_app = e.in_app AND s.language = e.language
              AND s.route = e.route
            WHERE NOT (e.experiment = ?2
              AND EXISTS (SELECT 1 FROM exposures AS old WHERE old.visitor_id = e.visitor_id))`;
  return [
    {
      sql: `INSERT OR IGNORE INTO xp_segment_sets (country, source, platform, in_app, language, route)
            SELECT ${at(6)}, ${at(7)}, ${at(8)}, ${at(9)}, ${at(10)}, ${at(11)} FROM json_each(?1)`,
      params: [list],
    },
    {
      sql: `INSERT INTO xp_exposures (${EXPOSURE_COLUMNS})
            SELECT * FROM (${exposed}) AS x WHERE ${confirmedCovers('x')}
            ON CONFLICT (visitor_id, experiment) DO NOTHING`,
      params: [list, SPLIT_EXPERIMENT_ID],
    },
    {
      sql: `INSERT INTO xp_pending_exposures (${EXPOSURE_COLUMNS})
            SELECT * FROM (${exposed}) AS x WHERE NOT ${confirmedCovers('x')}
              AND NOT EXISTS (SELECT 1 FROM xp_exposures AS counted
                WHERE counted.visitor_id = x.visitor_id AND counted.experiment = x.experiment)
            ON CONFLICT (visitor_id, experiment) DO NOTHING`,
      params: [list, SPLIT_EXPERIMENT_ID],
    },
  ];
}

/**
 * Why a page's draws were left out of the exposures, each the arm's counter it adds to: a known
 * bot's (`bots`), or one whose address had spent its exposure budget (`over_budget`).
 */
export type LeftOut = 'bots' | 'over_budget';

/** Each draw left out counted in its arm under `reason`, apart from the exposures. One statement. */
export function experimentLeftOutStatement(
  arms: readonly ExperimentArm[],
  reason: LeftOut,
): Statement {
  // `reason` is one of two column names, never a visitor's text.
  return {
    sql: `INSERT INTO xp_arms (experiment, phase, variant, ${reason})
          SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'),
                 json_extract(value, '$[2]'), 1
          FROM json_each(?1) WHERE true
          ON CONFLICT (experiment, phase, variant) DO UPDATE SET ${reason} = ${reason} + 1`,
    params: [JSON.stringify(arms.map((arm) => [arm.experiment, arm.phase, arm.variant]))],
  };
}

/** Each outcome's flag set in every experiment its visitor was exposed to at or before it. */
export function experimentOutcomeStatements(outcomes: readonly Outcome[]): Statement[] {
  return outcomeFlagStatements(
    { table: 'xp_exposures', since: 'exposed_at' },
    EXPERIMENT_FLAGS,
    outcomes,
  );
}

/**
 * Each purchase counted once per subscription in every experiment its buyer was exposed to at or
 * before it: its trigger sets `purchased` (a main plan) or `upsold`, and moves the buyer's first
 * payment and net revenue. One statement per purchase, so each trigger sees those before it.
 */
export function experimentPurchaseStatements(
  purchases: readonly ExperimentPurchase[],
): Statement[] {
  return purchases.map((purchase) => ({
    sql: `INSERT OR IGNORE INTO xp_purchases
            (visitor_id, experiment, subscription_id, upsell, amount_minor, currency)
          SELECT visitor_id, experiment, ?1, ?3, ?4, ?5 FROM xp_exposures
          WHERE visitor_id = ?2 AND exposed_at <= ?6`,
    params: [
      purchase.subscriptionId,
      purchase.visitorId,
      purchase.upsell ? 1 : 0,
      purchase.amountMinor,
      purchase.currency,
      purchase.at,
    ],
  }));
}

// ---------------------------------------------------------------------------------------------
// Reading: a few rows per arm, never the visitors'.

export function experimentArmRowsStatement(experiment: string, phase: number): Statement {
  return {
    sql: `SELECT variant, exposed, reached_lookup, signed_up, reached_checkout, purchased,
                 purchases, unpriced_purchases, bots, upsold, declined, refunded, over_budget,
                 unconfirmed
          FROM xp_arms WHERE experiment = ?1 AND phase = ?2 ORDER BY variant`,
    params: [experiment, phase],
  };
}

export function experimentDayRowsStatement(experiment: string, phase: number): Statement {
  return {
    sql: `SELECT day, variant, exposed, reached_lookup, signed_up, reached_checkout, purchased,
                 first_exposed_at, upsold
          FROM xp_days WHERE experiment = ?1 AND phase = ?2 ORDER BY day, variant`,
    params: [experiment, phase],
  };
}

/** A histogram table's rows of the phase (xp_revenue, xp_net_revenue; with `day`, by day). */
export function histogramRowsStatement(
  table: 'xp_revenue' | 'xp_net_revenue' | 'xp_day_revenue' | 'xp_day_net_revenue',
  experiment: string,
  phase: number,
): Statement {
  const day = table.startsWith('xp_day_') ? 'day, ' : '';
  return {
    sql: `SELECT ${day}variant, currency, revenue_minor, visitors FROM ${table}
          WHERE experiment = ?1 AND phase = ?2 AND visitors > 0
          ORDER BY ${day}variant, currency, revenue_minor`,
    params: [experiment, phase],
  };
}

/** The segment rows of the phase: one dimension's, or all of them (`dimension` null). */
export function segmentRowsStatement(
  experiment: string,
  phase: number,
  dimension: SegmentDimension | null,
): Statement {
  return {
    sql: `SELECT variant, dimension, level, exposed, reached_lookup, signed_up, reached_checkout,
                 purchased, upsold, declined, refunded
          FROM xp_segments WHERE experiment = ?1 AND phase = ?2 AND (?3 IS NULL OR dimension = ?3)
          ORDER BY dimension, level, variant`,
    params: [experiment, phase, dimension],
  };
}

/** The phases anyone was exposed to the experiment in (bots aside), newest first. */
export function experimentPhasesStatement(experiment: string): Statement {
  return {
    sql: `SELECT DISTINCT phase FROM xp_arms WHERE experiment = ?1 AND exposed > 0
          ORDER BY phase DESC`,
    params: [experiment],
  };
}
