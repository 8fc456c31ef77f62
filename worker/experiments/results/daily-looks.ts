import type { ResultMetric } from '../../../shared/console-api/results';
import type { ArmSample } from '../statistics/statistics';
import type { DayArm, DayRevenueBucket } from './experiment-days';
import { revenueStatistics } from './revenue';

/**
 * A phase's looks, one per exposure day: each variant's sample of one metric over the visitors
 * exposed up to the end of that day (experiment-days.ts), the sequence the always-valid
 * statistics run over (statistics.ts runningComparisons). Counts by exposure day are exact and
 * add, so the last look is the phase's totals. A visitor stays on their exposure day with all
 * they did since (a purchase a week later counts there): a past look is today's reading of that
 * day's visitors, and may still move.
 *
 * Revenue per visitor is capped at the whole phase's cap (`revenueCap`) on every day, so every
 * look measures the same capped metric; and it is in the phase's main currency.
 */

export interface DailyLook {
  /** 'YYYY-MM-DD', UTC. */
  day: string;
  /** By variant; a variant nobody was exposed to yet is absent. */
  samples: ReadonlyMap<string, ArmSample>;
}

const NOBODY: ArmSample = { n: 0, sum: 0, sumSquares: 0 };

/** A variant's sample at a look; no visitors before its first. */
export function sampleAt(look: DailyLook, variant: string): ArmSample {
  return look.samples.get(variant) ?? NOBODY;
}

export function dailyLooks(options: {
  arms: readonly DayArm[];
  revenue: readonly DayRevenueBucket[];
  metric: ResultMetric;
  mainCurrency: string | null;
  revenueCap: number | null;
}): DailyLook[] {
  const { metric } = options;
  const arms = byDay(options.arms);
  const revenue = byDay(
    options.revenue.filter((bucket) => bucket.currency === options.mainCurrency),
  );
  const cap = options.revenueCap ?? undefined;
  const cumulative = new Map<string, ArmSample>();
  const sampleOf = (variant: string): ArmSample => {
    let sample = cumulative.get(variant);
    if (!sample) {
      sample = { ...NOBODY };
      cumulative.set(variant, sample);
    }
    return sample;
  };

  const looks: DailyLook[] = [];
  for (const day of [...arms.keys()].sort()) {
    for (const arm of arms.get(day) ?? []) {
      const sample = sampleOf(arm.variant);
      sample.n += arm.exposed;
      if (metric !== 'revenue') {
        // A 0/1 value's square is itself.
        sample.sum += arm.steps[metric];
        sample.sumSquares += arm.steps[metric];
      }
    }
    if (metric === 'revenue') {
      for (const bucket of revenue.get(day) ?? []) {
        const { sum, sumSquares } = revenueStatistics(0, [bucket], cap);
        const sample = sampleOf(bucket.variant);
        sample.sum += sum;
        sample.sumSquares += sumSquares;
      }
    }
    const samples = new Map([...cumulative].map(([variant, sample]) => [variant, { ...sample }]));
    looks.push({ day, samples });
  }
  return looks;
}

function byDay<Row extends { day: string }>(rows: readonly Row[]): Map<string, Row[]> {
  const days = new Map<string, Row[]>();
  for (const row of rows) {
    const same = days.get(row.day);
    if (same) same.push(row);
    else days.set(row.day, [row]);
  }
  return days;
}
