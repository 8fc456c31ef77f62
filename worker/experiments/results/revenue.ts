/**
 * Revenue per exposed visitor from its histogram (EVENTS_DB experiment_revenue): how many
 * visitors spent exactly each amount above 0; every other exposed visitor spent 0. Pure and exact:
 * the distinct amounts are few (plan prices and their sums), so no sample is needed.
 */

/** `visitors` exposed visitors each spent exactly `revenueMinor` (> 0) minor units. */
export interface RevenueBucket {
  revenueMinor: number;
  visitors: number;
}

/** What the statistics take per arm and metric: count, sum and sum of squares of the values. */
export interface SufficientStatistics {
  n: number;
  sum: number;
  sumSquares: number;
}

/**
 * The nearest-rank `quantile` (0 < q ≤ 1) of the per-visitor amounts above 0 in `buckets`: the
 * smallest amount at least that share of them do not exceed. Null when there is none.
 */
export function revenueQuantile(
  buckets: readonly RevenueBucket[],
  quantile: number,
): number | null {
  const sorted = [...buckets]
    .filter((bucket) => bucket.visitors > 0)
    .sort((a, b) => a.revenueMinor - b.revenueMinor);
  const total = sorted.reduce((sum, bucket) => sum + bucket.visitors, 0);
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(quantile * total));
  let seen = 0;
  for (const bucket of sorted) {
    seen += bucket.visitors;
    if (seen >= rank) return bucket.revenueMinor;
  }
  return sorted.at(-1)?.revenueMinor ?? null;
}

/**
 * Revenue per exposed visitor over `exposed` visitors (zeros included), each amount capped at
 * `cap` (unset: uncapped). In minor units; the sums stay exact integers below 2^53 (9·10^15:
 * the sum of squares of 250 million purchases of 60.00).
 */
export function revenueStatistics(
  exposed: number,
  buckets: readonly RevenueBucket[],
  cap = Number.POSITIVE_INFINITY,
): SufficientStatistics {
  let sum = 0;
  let sumSquares = 0;
  for (const { revenueMinor, visitors } of buckets) {
    const value = Math.min(revenueMinor, cap);
    sum += value * visitors;
    sumSquares += value * value * visitors;
  }
  return { n: exposed, sum, sumSquares };
}
