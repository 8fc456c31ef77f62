import type { ExperimentResultMetric } from '../../../shared/console-api/experiment-results';
import type { ExperimentDesign } from '../design/experiment-design';
import type {
  ArmRow,
  DayRevenueRow,
  ExperimentArmRow,
  ExperimentDayRow,
  ExperimentPhaseRows,
  RevenueRow,
} from '../store/phase-rows';
import { type DailyLook, dailyLooks } from './daily-looks';
import { type ExperimentDays, experimentDays } from './experiment-days';
import { currenciesByPurchasers, experimentTotals, type MetricCounts } from './totals';

/**
 * What an experiment's answer judges each metric on (worker/experiments/answer/): every arm's
 * counts and the daily looks at them, from the phase's rows. Steps count only after exposure
 * (the rows' flags).
 *
 * - `revenue` is first payments, capped at their 99th percentile; `net_revenue` adds what the
 *   product API reported since (renewals, less refunds and chargebacks), capped at its own;
 *   `mature_revenue` is net revenue over the visitors exposed at least `matureAfterDays` ago
 *   (whole UTC exposure days), so every one of them has had the chance to renew.
 * - A price test also judges mature revenue in each currency paid in (currencyInputs).
 */

const DAY_MS = 24 * 60 * 60 * 1000;

export const NOBODY: MetricCounts = { n: 0, sum: 0, sumSquares: 0, nonZero: 0 };

export function conversion(exposed: number, converted: number): MetricCounts {
  return { n: exposed, sum: converted, sumSquares: converted, nonZero: converted };
}

/**
 * The last UTC exposure day ('YYYY-MM-DD') whose visitors are all mature at `now`: its end is at
 * least `afterDays` days before now.
 */
export function lastMatureDay(now: number, afterDays: number): string {
  const dayEnd = now - afterDays * DAY_MS;
  // The day before the one `dayEnd` falls in has ended by then.
  return new Date(dayEnd - DAY_MS).toISOString().slice(0, 10);
}

/** An arm row of `exposed` visitors and nothing else, for totals over revenue alone. */
function exposedOnly(variant: string, exposed: number): ArmRow {
  return {
    variant,
    exposed,
    reached_lookup: 0,
    signed_up: 0,
    reached_checkout: 0,
    purchased: 0,
    purchases: 0,
    unpriced_purchases: 0,
    bots: 0,
  };
}

/** Day histograms added over the days kept, as one histogram per variant and currency. */
function addedBuckets(rows: readonly DayRevenueRow[]): RevenueRow[] {
  const sums = new Map<string, RevenueRow>();
  for (const row of rows) {
    const key = `${row.variant}\u0000${row.currency}\u0000${row.revenue_minor}`;
    const known = sums.get(key);
    if (known) known.visitors += row.visitors;
    else
      sums.set(key, {
        variant: row.variant,
        currency: row.currency,
        revenue_minor: row.revenue_minor,
        visitors: row.visitors,
      });
  }
  return [...sums.values()];
}

/** Upsells as the looks' `purchase` step: the looks count a 0/1 step by day the same way. */
function upsellDays(days: readonly ExperimentDayRow[]): ExperimentDays['arms'] {
  return days.map((row) => ({
    day: row.day,
    variant: row.variant,
    exposed: row.exposed,
    steps: { lookup: 0, signup: 0, checkout: 0, purchase: row.upsold },
  }));
}

export interface MetricInput {
  counts: (variant: string) => MetricCounts;
  looks: DailyLook[];
}

/** Mature net revenue compared in one currency (CurrencyRevenueResult). */
export interface CurrencyInput extends MetricInput {
  currency: string;
}

export type Totals = ReturnType<typeof experimentTotals>;

/**
 * The phase's three readings of revenue: first payments (with the steps), net revenue, and net
 * revenue over the visitors exposed at least `matureAfterDays` ago, with those mature visitors'
 * count and rows by day.
 */
function revenueTotals(
  design: ExperimentDesign,
  rows: ExperimentPhaseRows,
  phase: number,
  now: number,
) {
  const totals = experimentTotals(phase, rows);
  const net = experimentTotals(phase, { arms: rows.arms, revenue: rows.netRevenue });
  const lastMature = lastMatureDay(now, design.matureAfterDays);
  const matureDays = rows.days.filter((row) => row.day <= lastMature);
  const matureExposed = new Map<string, number>();
  for (const row of matureDays) {
    matureExposed.set(row.variant, (matureExposed.get(row.variant) ?? 0) + row.exposed);
  }
  const matureNetRows = rows.dayNetRevenue.filter((row) => row.day <= lastMature);
  const matureRows = {
    arms: [...matureExposed].map(([variant, exposed]) => exposedOnly(variant, exposed)),
    revenue: addedBuckets(matureNetRows),
  };
  const mature = experimentTotals(phase, matureRows);
  return { totals, net, mature, matureExposed, matureDays, matureNetRows, matureRows };
}

function byVariant<T extends { variant: string }>(list: readonly T[]): Map<string, T> {
  return new Map(list.map((item) => [item.variant, item]));
}

/** One metric's daily looks over `source`'s days, capped and in the currency of `of`. */
function looksOf(
  source: ExperimentDays,
  metric: 'lookup' | 'signup' | 'checkout' | 'purchase' | 'revenue',
  of: Totals,
): DailyLook[] {
  return dailyLooks({
    arms: source.arms,
    revenue: source.revenue,
    metric,
    mainCurrency: of.mainCurrency,
    revenueCap: of.revenueCap,
  });
}

/** Each metric's per-arm counts and daily looks, from the rows. */
export function metricInputs(
  design: ExperimentDesign,
  rows: ExperimentPhaseRows,
  phase: number,
  now: number,
): {
  inputs: Map<ExperimentResultMetric, MetricInput>;
  totals: Totals;
  matureExposed: Map<string, number>;
  currencies: CurrencyInput[];
} {
  const { totals, net, mature, matureExposed, matureDays, matureNetRows, matureRows } =
    revenueTotals(design, rows, phase, now);
  const arms = byVariant(totals.arms);
  const netArms = byVariant(net.arms);
  const matureArms = byVariant(mature.arms);
  const armRows = byVariant<ExperimentArmRow>(rows.arms);

  const days = experimentDays(rows);
  const netDays = experimentDays({ days: rows.days, dayRevenue: rows.dayNetRevenue });
  const matureNetDays = experimentDays({ days: matureDays, dayRevenue: matureNetRows });

  const step = (metric: 'lookup' | 'signup' | 'checkout' | 'purchase'): MetricInput => ({
    counts: (variant) => arms.get(variant)?.metrics[metric] ?? NOBODY,
    looks: looksOf(days, metric, totals),
  });
  const inputs = new Map<ExperimentResultMetric, MetricInput>([
    ['lookup', step('lookup')],
    ['signup', step('signup')],
    ['checkout', step('checkout')],
    ['purchase', step('purchase')],
    [
      'revenue',
      {
        counts: (variant) => arms.get(variant)?.metrics.revenue ?? NOBODY,
        looks: looksOf(days, 'revenue', totals),
      },
    ],
    [
      'upsell',
      {
        counts: (variant) => {
          const row = armRows.get(variant);
          return row ? conversion(row.exposed, row.upsold) : NOBODY;
        },
        looks: looksOf({ ...days, arms: upsellDays(rows.days) }, 'purchase', totals),
      },
    ],
    [
      'net_revenue',
      {
        counts: (variant) => netArms.get(variant)?.metrics.revenue ?? NOBODY,
        looks: looksOf(netDays, 'revenue', net),
      },
    ],
    [
      'mature_revenue',
      {
        counts: (variant) => matureArms.get(variant)?.metrics.revenue ?? NOBODY,
        looks: looksOf(matureNetDays, 'revenue', mature),
      },
    ],
  ]);
  const currencies = design.priceTest
    ? currencyInputs(phase, matureRows, matureNetDays, matureNetRows)
    : [];
  return { inputs, totals, matureExposed, currencies };
}

/**
 * A price test's mature net revenue compared in each currency paid in, most buyers first: the
 * mature visitors and looks of `mature_revenue`, each visitor counting 0 in a currency they did
 * not pay in. A price test may change one country's price and not another's, so the verdict that
 * says which price to keep is per currency; the rates of reporting-currency.ts never decide one.
 */
function currencyInputs(
  phase: number,
  matureRows: Parameters<typeof experimentTotals>[1],
  matureNetDays: ExperimentDays,
  matureNetRows: readonly DayRevenueRow[],
): CurrencyInput[] {
  return currenciesByPurchasers(matureNetRows).map((currency) => {
    const totals = experimentTotals(phase, matureRows, currency);
    const arms = byVariant(totals.arms);
    return {
      currency,
      counts: (variant) => arms.get(variant)?.metrics.revenue ?? NOBODY,
      looks: looksOf(matureNetDays, 'revenue', totals),
    };
  });
}
