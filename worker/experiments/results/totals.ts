import type { PhaseRows, RevenueRow } from '../store/phase-rows';
import { type ReportedRevenue, reportedRevenue } from './reporting-currency';
import {
  type RevenueBucket,
  revenueQuantile,
  revenueStatistics,
  type SufficientStatistics,
} from './revenue';

/** The steps counted per exposed visitor, in funnel order: lookup started, signed up, checkout shown, purchased. */
const EXPERIMENT_STEPS = ['lookup', 'signup', 'checkout', 'purchase'] as const;
export type ExperimentStep = (typeof EXPERIMENT_STEPS)[number];
/** Each step's conversion, and revenue per exposed visitor. */
export type ExperimentMetric = ExperimentStep | 'revenue';

/**
 * One arm of one metric, as the statistics (worker/experiments/statistics/statistics.ts) take it: exposed
 * visitors, sum and sum of squares of the per-visitor value, and how many of them are not 0
 * (converters; for revenue, buyers).
 */
export interface MetricCounts extends SufficientStatistics {
  nonZero: number;
}

/** Revenue is capped at this quantile of the per-visitor amounts above 0, all arms together. */
const REVENUE_CAP_QUANTILE = 0.99;

/** An arm's revenue in one currency, minor units, uncapped. */
export interface CurrencyRevenue {
  /** Visitors who spent more than 0 in this currency. */
  purchasers: number;
  /** Sum and sum of squares of revenue per exposed visitor. */
  sum: number;
  sumSquares: number;
  /** How many visitors spent exactly each amount above 0. */
  histogram: RevenueBucket[];
}

/** One variant in the phase. */
export interface ArmTotals {
  variant: string;
  /** Visitors first exposed in this phase (bots excluded). */
  exposed: number;
  /** Of those, how many reached each step (`purchase`: bought anything, verified by the server). */
  steps: Record<ExperimentStep, number>;
  /** Their verified purchases (subscriptions and upsells). */
  purchases: number;
  /** Of which the product API named no amount or currency: in `purchase`, not in revenue. */
  unpricedPurchases: number;
  /** Revenue per currency, never converted. */
  revenue: Record<string, CurrencyRevenue>;
  /** Known bots' draws in this arm, apart from `exposed`. */
  bots: number;
  /** Draws whose address had spent its day's exposures (exposure-budget.ts), apart from `exposed`. */
  overBudget: number;
  /** Exposures their page's script never confirmed (confirmation-statements.ts), apart from `exposed`. */
  unconfirmed: number;
  /**
   * The statistics' input, per metric over the exposed visitors: a step's 0/1 conversion, and
   * revenue per visitor in `mainCurrency` capped at `revenueCap` (zeros included).
   */
  metrics: Record<ExperimentMetric, MetricCounts>;
}

export interface ExperimentTotals {
  phase: number;
  /** By variant key. */
  arms: ArmTotals[];
  /**
   * The currency revenue is compared in: the one with the most purchasers in the phase (ties:
   * alphabetical); null without revenue. A visitor who paid in another currency counts 0 in it,
   * as assignment is random, every arm has the same mix of currencies; the other currencies are
   * in each arm's `revenue`, reported apart, never converted at a rate.
   */
  mainCurrency: string | null;
  /** The 99th percentile of per-visitor revenue above 0 in `mainCurrency`, all arms together. */
  revenueCap: number | null;
}

function conversion(exposed: number, converted: number): MetricCounts {
  // A 0/1 value's square is itself.
  return { n: exposed, sum: converted, sumSquares: converted, nonZero: converted };
}

/** The currencies paid in, most purchasers first (ties: alphabetical). */
export function currenciesByPurchasers(
  rows: readonly Pick<RevenueRow, 'currency' | 'visitors'>[],
): string[] {
  const purchasers = new Map<string, number>();
  for (const row of rows) {
    purchasers.set(row.currency, (purchasers.get(row.currency) ?? 0) + row.visitors);
  }
  return [...purchasers]
    .sort(([a, m], [b, n]) => n - m || (a < b ? -1 : 1))
    .map(([currency]) => currency);
}

/** An arm's revenue in each currency but the main one: its sum, minor units, uncapped. */
export function otherRevenue(
  arm: Pick<ArmTotals, 'revenue'> | undefined,
  mainCurrency: string | null,
): Record<string, number> {
  return Object.fromEntries(
    Object.entries(arm?.revenue ?? {})
      .filter(([currency]) => currency !== mainCurrency)
      .map(([currency, { sum }]) => [currency, sum]),
  );
}

/** An arm's revenue of every currency, summed in the reporting currency (./reporting-currency.ts). */
export function armReportedRevenue(arm: Pick<ArmTotals, 'revenue'> | undefined): ReportedRevenue {
  return reportedRevenue(
    Object.fromEntries(
      Object.entries(arm?.revenue ?? {}).map(([currency, { sum }]) => [currency, sum]),
    ),
  );
}

/**
 * What the results of a phase are computed from: per variant, the exposed visitors,
 * each step's count, verified purchases and revenue, and bots, as exact counts. It takes the
 * per-arm totals the tables' triggers keep (every store's, added: phase-rows.ts), a few rows per
 * variant however many visitors there were, never the visitors' rows. For the results endpoint
 * (GET /console/api/results). `compareIn` names the currency revenue is compared in, where not the
 * one with the most purchasers (a price test's verdict per currency).
 */
export function experimentTotals(
  phase: number,
  rows: Pick<PhaseRows, 'arms' | 'revenue'>,
  compareIn?: string,
): ExperimentTotals {
  const armRows = rows.arms;
  const revenueRows = rows.revenue;
  const mainCurrency = compareIn ?? currenciesByPurchasers(revenueRows)[0] ?? null;
  const bucketsOf = (rows: readonly RevenueRow[]) =>
    rows.map((row) => ({ revenueMinor: row.revenue_minor, visitors: row.visitors }));
  const revenueCap =
    mainCurrency === null
      ? null
      : revenueQuantile(
          bucketsOf(revenueRows.filter((row) => row.currency === mainCurrency)),
          REVENUE_CAP_QUANTILE,
        );

  return {
    phase,
    mainCurrency,
    revenueCap,
    arms: armRows.map((row): ArmTotals => {
      const own = revenueRows.filter((revenueRow) => revenueRow.variant === row.variant);
      const byCurrency: Record<string, CurrencyRevenue> = {};
      for (const currency of new Set(own.map((revenueRow) => revenueRow.currency))) {
        const histogram = bucketsOf(own.filter((revenueRow) => revenueRow.currency === currency));
        const { sum, sumSquares } = revenueStatistics(row.exposed, histogram);
        const purchasers = histogram.reduce((total, bucket) => total + bucket.visitors, 0);
        byCurrency[currency] = { purchasers, sum, sumSquares, histogram };
      }
      const steps = {
        lookup: row.reached_lookup,
        signup: row.signed_up,
        checkout: row.reached_checkout,
        purchase: row.purchased,
      };
      const main = mainCurrency === null ? undefined : byCurrency[mainCurrency];
      return {
        variant: row.variant,
        exposed: row.exposed,
        steps,
        purchases: row.purchases,
        unpricedPurchases: row.unpriced_purchases,
        revenue: byCurrency,
        bots: row.bots,
        overBudget: row.over_budget ?? 0,
        unconfirmed: row.unconfirmed ?? 0,
        metrics: {
          lookup: conversion(row.exposed, steps.lookup),
          signup: conversion(row.exposed, steps.signup),
          checkout: conversion(row.exposed, steps.checkout),
          purchase: conversion(row.exposed, steps.purchase),
          revenue: {
            ...revenueStatistics(row.exposed, main?.histogram ?? [], revenueCap ?? undefined),
            nonZero: main?.purchasers ?? 0,
          },
        },
      };
    }),
  };
}
