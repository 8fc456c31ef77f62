import type { LiftPoint, ResultMetric } from '../../shared/console-api';
import type { DayArm, DayRevenueBucket } from './experiment-days';
import { revenueStatistics } from './revenue';
import { type ArmSample, compareToControl } from './statistics';

/**
 * The primary metric's relative lift of each variant against the control, with its always-valid
 * interval, over the visitors exposed up to each day of the phase: the chart of the results page.
 * Counts by exposure day are exact and add (experiment-days.ts), so the point of day D is the
 * results' own computation on the sum of the days up to D, and the last point is the table's.
 * A visitor stays on their exposure day with all they did since (a purchase a week later counts
 * there), so a past point is today's reading of that day's visitors, and may still move.
 *
 * Revenue per visitor is capped at the whole phase's cap (`revenueCap`) on every day, so every
 * point measures the same capped metric; and it is in the phase's main currency.
 */
export function liftOverDays(options: {
  arms: readonly DayArm[];
  revenue: readonly DayRevenueBucket[];
  control: string;
  /** The variants compared with the control, in the order the points list them. */
  variants: readonly string[];
  metric: ResultMetric;
  mainCurrency: string | null;
  revenueCap: number | null;
  plannedPerArm: number;
}): LiftPoint[] {
  const { metric, control, plannedPerArm } = options;
  const arms = byDay(options.arms);
  const revenue = byDay(
    options.revenue.filter((bucket) => bucket.currency === options.mainCurrency),
  );
  const cap = options.revenueCap ?? undefined;
  const cumulative = new Map<string, ArmSample>();
  const sampleOf = (variant: string): ArmSample => {
    let sample = cumulative.get(variant);
    if (!sample) {
      sample = { n: 0, sum: 0, sumSquares: 0 };
      cumulative.set(variant, sample);
    }
    return sample;
  };

  const points: LiftPoint[] = [];
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
    for (const variant of options.variants) {
      const comparison = compareToControl(sampleOf(control), sampleOf(variant), plannedPerArm);
      points.push({
        day,
        variant,
        relativeLift: comparison?.relativeLift ?? null,
        relativeInterval: comparison?.relativeInterval ?? null,
      });
    }
  }
  return points;
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
