import type { RevenueBucket } from './revenue';
import type { ExperimentStep } from './totals';

/**
 * A phase's counts by exposure day (EVENTS_DB experiment_days and experiment_day_revenue,
 * worker/collector/migrations/0004_experiment_days.sql), for the lift over days: a few rows per
 * variant and day, never the visitors' rows. Each visitor counts on the UTC day they were
 * exposed, with everything they did since, so the days add up to the phase's totals.
 */

/** One variant's visitors exposed on one day. */
export interface DayArm {
  /** 'YYYY-MM-DD', UTC. */
  day: string;
  variant: string;
  exposed: number;
  /** Of those, how many have reached each step so far. */
  steps: Record<ExperimentStep, number>;
}

/** A bucket of a day's revenue histogram: `visitors` exposed that day spent `revenueMinor`. */
export interface DayRevenueBucket extends RevenueBucket {
  day: string;
  variant: string;
  currency: string;
}

export interface ExperimentDays {
  /** By day, then variant. */
  arms: DayArm[];
  revenue: DayRevenueBucket[];
  /** The phase's first exposure (epoch ms); null before any. */
  startedAt: number | null;
}

interface DayRow {
  day: string;
  variant: string;
  exposed: number;
  reached_lookup: number;
  signed_up: number;
  reached_checkout: number;
  purchased: number;
  first_exposed_at: number;
}

interface DayRevenueRow {
  day: string;
  variant: string;
  currency: string;
  revenue_minor: number;
  visitors: number;
}

export async function experimentDays(db: D1Database, phase: number): Promise<ExperimentDays> {
  const [days, revenue] = await db.batch([
    db
      .prepare(
        `SELECT day, variant, exposed, reached_lookup, signed_up, reached_checkout, purchased,
                first_exposed_at
         FROM experiment_days WHERE phase = ?1 ORDER BY day, variant`,
      )
      .bind(phase),
    db
      .prepare(
        `SELECT day, variant, currency, revenue_minor, visitors FROM experiment_day_revenue
         WHERE phase = ?1 AND visitors > 0 ORDER BY day, variant, currency, revenue_minor`,
      )
      .bind(phase),
  ]);
  const dayRows = (days?.results ?? []) as DayRow[];
  const firsts = dayRows.map((row) => row.first_exposed_at);
  return {
    arms: dayRows.map((row) => ({
      day: row.day,
      variant: row.variant,
      exposed: row.exposed,
      steps: {
        lookup: row.reached_lookup,
        signup: row.signed_up,
        checkout: row.reached_checkout,
        purchase: row.purchased,
      },
    })),
    revenue: ((revenue?.results ?? []) as DayRevenueRow[]).map((row) => ({
      day: row.day,
      variant: row.variant,
      currency: row.currency,
      revenueMinor: row.revenue_minor,
      visitors: row.visitors,
    })),
    startedAt: firsts.length === 0 ? null : Math.min(...firsts),
  };
}

/** Every phase anyone was exposed in (bots aside), newest first: a few rows of experiment_arms. */
export async function experimentPhases(db: D1Database): Promise<number[]> {
  const { results } = await db
    .prepare('SELECT DISTINCT phase FROM experiment_arms WHERE exposed > 0 ORDER BY phase DESC')
    .all<{ phase: number }>();
  return results.map((row) => row.phase);
}
