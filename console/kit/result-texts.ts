import type {
  AdjustedComparison,
  ExperimentResultMetric,
} from '../../shared/console-api/experiment-results';
import type { ResultInterval, ResultVerdict } from '../../shared/console-api/results';
import { isMoneyMetric } from '../../shared/experiments';

/**
 * The results page's numbers and words as a marketer reads them: rates and lifts in percent,
 * revenue in its currency, p-values, verdicts. Pure, so the page and its tests agree.
 */

/**
 * Each metric's name, in the funnel's order (EXPERIMENT_RESULT_METRICS of
 * shared/console-api/experiment-results.ts, of which the split's RESULT_METRICS are the first
 * five).
 */
export const METRIC_NAMES: Record<ExperimentResultMetric, string> = {
  lookup: 'Lookup',
  signup: 'Sign-up',
  checkout: 'Checkout',
  purchase: 'Purchase',
  revenue: 'Revenue per visitor',
  upsell: 'Upsell',
  net_revenue: 'Net revenue per visitor',
  mature_revenue: 'Mature net revenue per visitor',
};

/** Each verdict's word; only better and worse are verdicts a marketer may act on. */
const VERDICT_WORDS: Record<ResultVerdict, string> = {
  better: 'better',
  worse: 'worse',
  no_difference_yet: 'no difference yet',
  not_enough_data: 'not enough data',
  withheld_srm: 'withheld (SRM)',
};

/**
 * A metric's mean as the results show it: a step's conversion rate, or money per visitor in
 * `currency`; `none` while there is no currency to say it in.
 */
export function meanText(
  metric: string,
  mean: number,
  currency: string | null,
  none: string,
): string {
  if (!isMoneyMetric(metric)) return percentText(mean);
  return currency ? moneyText(mean, currency) : none;
}

/** A true minus sign: a hyphen before a number is easily missed, and read out as "dash". */
const withMinus = (text: string) => text.replace('-', '−');

/**
 * A rate (0–1) in percent: one decimal, two below 1% so that a rare purchase does not read as
 * "0%": 0.123 → "12.3%", 0.0004 → "0.04%". `signed` for a lift: "+12.3%", "−4%".
 */
export function percentText(value: number, signed = false): string {
  const format = new Intl.NumberFormat('en', {
    style: 'percent',
    maximumFractionDigits: Math.abs(value) < 0.01 ? 2 : 1,
    signDisplay: signed ? 'exceptZero' : 'auto',
  });
  return withMinus(format.format(value));
}

/** An interval of relative lifts: "−4% to +28.6%". */
export function intervalText(interval: ResultInterval): string {
  return `${percentText(interval.lower, true)} to ${percentText(interval.upper, true)}`;
}

/**
 * A relative lift with its interval: "+12.3% (−4% to +28.6%)"; "—" while there is none, and
 * "not enough data yet" for a variant whose verdict waits for data (the results withhold its
 * relative lift below the verdict's minimums, docs/statistics.md). A lift without an interval
 * (an arm without variance, such as no conversion yet) says so, rather than read as a certain
 * "−100%".
 */
export function liftText(
  lift: number | null,
  interval: ResultInterval | null,
  verdict: ResultVerdict | null = null,
): string {
  if (lift === null) return verdict === 'not_enough_data' ? 'not enough data yet' : '—';
  return `${percentText(lift, true)} (${interval ? intervalText(interval) : 'no interval yet'})`;
}

/**
 * The lift adjusted for what is known at exposure, where it says more than the plain one: "+10.2%
 * (+3.1% to +17.8%), 8% narrower". Null where its interval is no narrower (to the percent shown),
 * cannot be computed yet, or the metric is not adjusted: an adjustment that narrows nothing adds
 * nothing to read beside the plain lift (docs/statistics.md, "Adjusted for what is known at
 * exposure").
 */
export function adjustedLiftText(adjusted: AdjustedComparison | null | undefined): string | null {
  if (!adjusted) return null;
  const narrower = 1 - adjusted.widthRatio;
  if (narrower < 0.005) return null;
  return `${liftText(adjusted.relativeLift, adjusted.relativeInterval)}, ${percentText(narrower)} narrower`;
}

export function verdictWord(verdict: ResultVerdict): string {
  return VERDICT_WORDS[verdict];
}

const pValues = new Intl.NumberFormat('en', { maximumSignificantDigits: 2 });

/** "p = 0.042", "p = 0.00012"; below a millionth, "p < 0.000001" (no exponent to decode). */
export function pValueText(p: number): string {
  return p < 1e-6 ? 'p < 0.000001' : `p = ${pValues.format(p)}`;
}

/** Minor units of `currency` (cents, yen) as money: 1234.5 USD → "$12.35", 500 JPY → "¥500". */
export function moneyText(minor: number, currency: string): string {
  let format: Intl.NumberFormat;
  try {
    format = new Intl.NumberFormat('en', { style: 'currency', currency });
  } catch {
    // A code Intl does not know: cents, with the code after them.
    return `${(minor / 100).toFixed(2)} ${currency}`;
  }
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(minor / 10 ** digits);
}

const counts = new Intl.NumberFormat('en');

/** A count of visitors: 12345 → "12,345". */
export function countText(count: number): string {
  return counts.format(count);
}

const days = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });

/** A results day (YYYY-MM-DD, UTC) as a short label: "2026-11-22" → "22 Nov". */
export function dayText(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? day : days.format(date);
}
