import type { VitalMetric } from '../../../shared/analytics/vitals';
import type { DayVitalsRow, VitalsRow } from '../store/vitals-statements';
import type { VitalsHistogram, VitalsLook } from './vitals-guardrail';

/**
 * The field vitals' daily looks (docs/statistics.md, "A verdict that stays"): at the end of each
 * UTC exposure day, every sample of the visitors exposed up to then, per arm, as the metrics'
 * looks count (daily-looks.ts). The guardrail's interval is then the overlap of every look's
 * (vitals-guardrail.ts runningP75Comparisons), so a *worse* once earned stays until the evidence
 * reverses it.
 *
 * A metric of an arm whose days do not hold every sample of its totals (samples counted before
 * the store kept the day) has no looks: its totals are read alone, as before, rather than mixed
 * with looks over only some of its visitors.
 */

/** An arm's histogram, buckets in increasing order. */
function histogramOf(counts: Map<number, number>): VitalsHistogram {
  return {
    buckets: [...counts]
      .sort(([a], [b]) => a - b)
      .map(([bucket, visitors]) => ({ bucket, visitors })),
  };
}

const keyOf = (variant: string, metric: string) => `${variant}\u0000${metric}`;

/** The samples of each arm and metric, from a histogram's rows. */
function samplesBy(rows: readonly VitalsRow[]): Map<string, number> {
  const samples = new Map<string, number>();
  for (const row of rows) {
    const key = keyOf(row.variant, row.metric);
    samples.set(key, (samples.get(key) ?? 0) + row.visitors);
  }
  return samples;
}

/**
 * The looks of one metric for a variant against the control, oldest first; empty when either
 * arm's days fall short of its totals.
 */
export function vitalsLooks(rows: {
  vitals: readonly VitalsRow[];
  dayVitals: readonly DayVitalsRow[];
}) {
  const totals = samplesBy(rows.vitals);
  const byDay = samplesBy(rows.dayVitals);
  const complete = (variant: string, metric: VitalMetric) =>
    (totals.get(keyOf(variant, metric)) ?? 0) === (byDay.get(keyOf(variant, metric)) ?? 0);

  return (metric: VitalMetric, control: string, variant: string): VitalsLook[] => {
    if (!complete(control, metric) || !complete(variant, metric)) return [];
    const own = rows.dayVitals
      .filter(
        (row) => row.metric === metric && (row.variant === control || row.variant === variant),
      )
      .sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
    const counts = { control: new Map<number, number>(), variant: new Map<number, number>() };
    const looks: VitalsLook[] = [];
    own.forEach((row, i) => {
      const arm = row.variant === control ? counts.control : counts.variant;
      arm.set(row.bucket, (arm.get(row.bucket) ?? 0) + row.visitors);
      // The day's last row: the look at its end.
      if (own[i + 1]?.day !== row.day) {
        looks.push({ control: histogramOf(counts.control), variant: histogramOf(counts.variant) });
      }
    });
    return looks;
  };
}
