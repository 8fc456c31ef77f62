import type { VitalMetric } from '../../../shared/analytics/vitals';

/**
 * The field vitals kept as histograms (xp_vitals: visitors per experiment, phase, variant,
 * metric and bucket), so the shards keep a few hundred rows per arm, never a row per value, and
 * their histograms add up. Buckets are logarithmic, 2 % wide: bucket b holds the values v with
 * (1.02^b − 1)·unit ≤ v < (1.02^(b+1) − 1)·unit, unit 1 ms for LCP and INP and 0.0001 for CLS,
 * so a percentile read from them is within 1 % of the value's own (a bucket's middle,
 * bucketValue), and 0 has a bucket of its own (a page without a layout shift).
 */

const GROWTH = 1.02;
const LOG_GROWTH = Math.log(GROWTH);

const UNIT: Record<VitalMetric, number> = { lcp: 1, inp: 1, cls: 0.0001 };

export function bucketOf(metric: VitalMetric, value: number): number {
  return Math.max(0, Math.floor(Math.log1p(value / UNIT[metric]) / LOG_GROWTH + 1e-9));
}

/** The lowest value of bucket `bucket`; bucketLower(b + 1) is its upper end. */
export function bucketLower(metric: VitalMetric, bucket: number): number {
  return Math.expm1(bucket * LOG_GROWTH) * UNIT[metric];
}

/** The value a bucket stands for: its geometric middle. */
export function bucketValue(metric: VitalMetric, bucket: number): number {
  return Math.expm1((bucket + 0.5) * LOG_GROWTH) * UNIT[metric];
}
