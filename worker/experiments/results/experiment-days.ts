import type { PhaseRows } from '../store/phase-rows';
import type { RevenueBucket } from './revenue';
import type { ExperimentStep } from './totals';

/**
 * A phase's counts by exposure day (experiment_days and experiment_day_revenue,
 * worker/events-db/migrations/0004_experiment_days.sql), for the lift over days: a few rows per
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

/** A phase's counts by exposure day, from its rows (every store's, added: phase-rows.ts). */
export function experimentDays(rows: Pick<PhaseRows, 'days' | 'dayRevenue'>): ExperimentDays {
  const dayRows = rows.days;
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
    revenue: rows.dayRevenue.map((row) => ({
      day: row.day,
      variant: row.variant,
      currency: row.currency,
      revenueMinor: row.revenue_minor,
      visitors: row.visitors,
    })),
    startedAt: firsts.length === 0 ? null : Math.min(...firsts),
  };
}
