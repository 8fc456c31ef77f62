import { VITAL_METRICS, type VitalMetric } from '../../../shared/analytics/vitals';
import type { Statement } from './split-statements';

/**
 * The field vitals in every experiment's tables (the shards only): a visitor's first value of
 * each metric from a page that counts in an experiment (its `exp_` arms), in the arm their own
 * exposure row holds. `xp_exposures.vitals` keeps which metrics were counted (a bit each), so a
 * visitor is one sample per metric, whatever their pages and resends: the first page after their
 * exposure, the screen where the variants first differ. Samples of different visitors are then
 * independent, which the guardrails' intervals assume (vitals-guardrail.ts).
 */

export interface VitalsSample {
  visitorId: string;
  /** The arms the page named, experiment id → variant; only those the rows confirm count. */
  arms: readonly { experiment: string; variant: string }[];
  /** Each metric measured, as its histogram bucket (../statistics/vitals-histogram.ts). */
  buckets: Partial<Record<VitalMetric, number>>;
  /** When the page reported, epoch ms on the visitor's clock: their earlier page counts first. */
  at: number;
}

/** Each metric's bit in `xp_exposures.vitals`. */
const VITAL_BITS: Record<VitalMetric, number> = { lcp: 1, inp: 2, cls: 4 };

export const VITALS_MIGRATION: readonly string[] = [
  // ALTER TABLE … ADD COLUMN rewrites no row, and a 0 takes no byte in a record.
  'ALTER TABLE xp_exposures ADD COLUMN vitals INTEGER NOT NULL DEFAULT 0',
  `CREATE TABLE xp_vitals (
  experiment TEXT NOT NULL,
  phase INTEGER NOT NULL,
  variant TEXT NOT NULL,
  metric TEXT NOT NULL,
  bucket INTEGER NOT NULL,
  visitors INTEGER NOT NULL,
  PRIMARY KEY (experiment, phase, variant, metric, bucket)
) WITHOUT ROWID`,
];

/**
 * The same histograms by the visitor's UTC exposure day (`xp_day_vitals`), so the results read
 * the vitals at every daily look as they read the metrics, and a verdict once earned stays
 * (vitals-guardrail.ts runningP75Comparisons; docs/statistics.md, "A verdict that stays"). The
 * samples counted before it have no day: the reading sees the days fall short of the totals and
 * reads the totals alone, as before.
 */
export const VITALS_DAYS_MIGRATION: readonly string[] = [
  `CREATE TABLE xp_day_vitals (
  experiment TEXT NOT NULL,
  phase INTEGER NOT NULL,
  variant TEXT NOT NULL,
  day TEXT NOT NULL,
  metric TEXT NOT NULL,
  bucket INTEGER NOT NULL,
  visitors INTEGER NOT NULL,
  PRIMARY KEY (experiment, phase, variant, day, metric, bucket)
) WITHOUT ROWID`,
];

/**
 * Three statements per sample, arm and metric: the count into the histogram and into its
 * exposure day's, then the bit, all only where the visitor's row is in that arm and has not
 * counted the metric yet.
 */
export function vitalsStatements(samples: readonly VitalsSample[]): Statement[] {
  return samples.flatMap(({ visitorId, arms, buckets }) =>
    arms.flatMap(({ experiment, variant }) =>
      VITAL_METRICS.flatMap((metric) => {
        const bucket = buckets[metric];
        if (bucket === undefined) return [];
        const bit = VITAL_BITS[metric];
        const where = `visitor_id = ?1 AND experiment = ?2 AND variant = ?3 AND (vitals & ?4) = 0`;
        return [
          {
            sql: `INSERT INTO xp_vitals (experiment, phase, variant, metric, bucket, visitors)
                  SELECT experiment, phase, variant, ?5, ?6, 1 FROM xp_exposures WHERE ${where}
                  ON CONFLICT (experiment, phase, variant, metric, bucket) DO UPDATE SET
                    visitors = visitors + 1`,
            params: [visitorId, experiment, variant, bit, metric, bucket],
          },
          {
            sql: `INSERT INTO xp_day_vitals
                    (experiment, phase, variant, day, metric, bucket, visitors)
                  SELECT experiment, phase, variant, date(exposed_at / 1000, 'unixepoch'), ?5, ?6, 1
                  FROM xp_exposures WHERE ${where}
                  ON CONFLICT (experiment, phase, variant, day, metric, bucket) DO UPDATE SET
                    visitors = visitors + 1`,
            params: [visitorId, experiment, variant, bit, metric, bucket],
          },
          {
            sql: `UPDATE xp_exposures SET vitals = vitals | ?4 WHERE ${where}`,
            params: [visitorId, experiment, variant, bit],
          },
        ];
      }),
    ),
  );
}

export interface VitalsRow {
  variant: string;
  metric: VitalMetric;
  bucket: number;
  visitors: number;
}

/** A vitals histogram's bucket on one exposure day. */
export interface DayVitalsRow extends VitalsRow {
  day: string;
}

export function dayVitalsRowsStatement(experiment: string, phase: number): Statement {
  return {
    sql: `SELECT day, variant, metric, bucket, visitors FROM xp_day_vitals
          WHERE experiment = ?1 AND phase = ?2`,
    params: [experiment, phase],
  };
}

export function vitalsRowsStatement(experiment: string, phase: number): Statement {
  return {
    sql: `SELECT variant, metric, bucket, visitors FROM xp_vitals
          WHERE experiment = ?1 AND phase = ?2`,
    params: [experiment, phase],
  };
}
