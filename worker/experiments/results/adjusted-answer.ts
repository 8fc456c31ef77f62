import type {
  AdjustedComparison,
  ExperimentResultMetric,
} from '../../../shared/console-api/experiment-results';
import { type ArmSample, compareToControl } from '../statistics/statistics';
import { type ExperimentPhaseRows, STEP_COLUMNS, type StratumRow } from '../store/phase-rows';
import { adjustedComparison, type StratumSample } from './adjusted-statistics';
import { type RevenueBucket, revenueStatistics } from './revenue';

/**
 * The adjusted comparison of the results answer (AdjustedComparison): a variant's steps and
 * first-payment revenue per visitor against the control's, each arm's mean post-stratified by
 * the visitors' country, source, platform and language at exposure (adjusted-statistics.ts),
 * from the phase's rows by stratum (strata-statements.ts). Revenue is read as the plain
 * comparison reads it: in the main currency, capped at the same 99th percentile.
 */

type AdjustedMetric = keyof typeof STEP_COLUMNS | 'revenue';

function isAdjusted(metric: ExperimentResultMetric): metric is AdjustedMetric {
  return metric === 'revenue' || Object.hasOwn(STEP_COLUMNS, metric);
}

/** How revenue is compared: the currency and the cap of the plain comparison's totals. */
export interface RevenueReading {
  mainCurrency: string | null;
  revenueCap: number | null;
}

const cellKey = (variant: string, stratum: string) => `${variant}\u0000${stratum}`;

/** The first payments in the main currency, by arm and stratum. */
function bucketsByCell(
  rows: ExperimentPhaseRows,
  revenue: RevenueReading,
): Map<string, RevenueBucket[]> {
  const cells = new Map<string, RevenueBucket[]>();
  for (const row of rows.strataRevenue) {
    if (row.currency !== revenue.mainCurrency) continue;
    const key = cellKey(row.variant, row.stratum);
    const bucket = { revenueMinor: row.revenue_minor, visitors: row.visitors };
    const known = cells.get(key);
    if (known) known.push(bucket);
    else cells.set(key, [bucket]);
  }
  return cells;
}

/** One arm's samples by stratum of one metric. */
function armStrata(
  strata: readonly StratumRow[],
  metric: AdjustedMetric,
  variant: string,
  revenue: { buckets: Map<string, RevenueBucket[]>; cap: number | null },
): Map<string, ArmSample> {
  const samples = new Map<string, ArmSample>();
  for (const row of strata) {
    if (row.variant !== variant) continue;
    if (metric === 'revenue') {
      const buckets = revenue.buckets.get(cellKey(variant, row.stratum)) ?? [];
      samples.set(row.stratum, revenueStatistics(row.exposed, buckets, revenue.cap ?? undefined));
    } else {
      const converted = row[STEP_COLUMNS[metric]];
      samples.set(row.stratum, { n: row.exposed, sum: converted, sumSquares: converted });
    }
  }
  return samples;
}

const NOBODY: ArmSample = { n: 0, sum: 0, sumSquares: 0 };

/**
 * Reads the adjusted comparison of one metric for a variant: undefined for a metric not
 * adjusted, null while it cannot be computed. It is computed only while the strata hold every
 * exposed visitor of both arms (the split's visitors of its own tables, and those whose rows the
 * retention removed before the strata were counted, are in no stratum): a mean over some of an
 * arm's visitors is not that arm's.
 */
export function adjustedReader(
  rows: ExperimentPhaseRows,
  revenue: RevenueReading,
  plannedPerArm: number,
) {
  const exposedIn = (variant: string) =>
    rows.strata.reduce((sum, row) => sum + (row.variant === variant ? row.exposed : 0), 0);
  const exposed = (variant: string) =>
    rows.arms.find((row) => row.variant === variant)?.exposed ?? 0;
  const covered = (variant: string) => exposedIn(variant) === exposed(variant);
  const money = { buckets: bucketsByCell(rows, revenue), cap: revenue.revenueCap };

  return (
    metric: ExperimentResultMetric,
    control: { key: string; totals: ArmSample },
    variant: { key: string; totals: ArmSample },
  ): AdjustedComparison | null | undefined => {
    if (!isAdjusted(metric)) return undefined;
    if (!covered(control.key) || !covered(variant.key)) return null;
    const controlStrata = armStrata(rows.strata, metric, control.key, money);
    const variantStrata = armStrata(rows.strata, metric, variant.key, money);
    const keys = new Set([...controlStrata.keys(), ...variantStrata.keys()]);
    const cells: StratumSample[] = [...keys].map((key) => ({
      key,
      control: controlStrata.get(key) ?? NOBODY,
      variant: variantStrata.get(key) ?? NOBODY,
    }));
    const adjusted = adjustedComparison(cells, plannedPerArm);
    const plain = compareToControl(control.totals, variant.totals, plannedPerArm);
    if (adjusted === null || plain === null) return null;
    const { comparison, strata } = adjusted;
    const width = (interval: { lower: number; upper: number }) => interval.upper - interval.lower;
    return {
      absoluteLift: comparison.absoluteLift,
      absoluteInterval: comparison.absoluteInterval,
      relativeLift: comparison.relativeLift,
      relativeInterval: comparison.relativeInterval,
      pValue: comparison.pValue,
      strata,
      widthRatio: width(comparison.absoluteInterval) / width(plain.absoluteInterval),
    };
  };
}
