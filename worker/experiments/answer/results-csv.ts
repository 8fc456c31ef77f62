import type {
  AdjustedComparison,
  ExperimentGuardrail,
  ExperimentVariantResults,
  SegmentResults,
} from '../../../shared/console-api/experiment-results';
import type {
  MetricResult,
  ResultsAnswer,
  VariantResults,
} from '../../../shared/console-api/results';
import { isMoneyMetric } from '../../../shared/experiments';
import { minorDigits } from '../../../shared/minor-units';

/**
 * The results of a phase as CSV for a spreadsheet (GET /console/api/results?format=csv): one
 * row per variant and metric, the numbers of the JSON answer unrounded. RFC 4180: CRLF line
 * ends, a header row, fields holding a comma, a quote or a line end quoted with quotes doubled.
 * Money is in major units with its currency (0.5825 EUR per visitor, where the JSON has 58.25
 * minor units): a spreadsheet reader has no `mainCurrency` field to tell cents from euros. An
 * experiment's metric with an adjusted comparison (docs/statistics.md, "Adjusted for what is
 * known at exposure") has it in the `adjusted_` columns of its own row, beside the plain lift:
 * its lifts, intervals, p-value and width against the plain interval's; empty where there is none.
 */

export const RESULTS_CSV_COLUMNS = [
  'phase',
  'variant',
  'control',
  'share',
  'exposed',
  'bots',
  'over_budget',
  'unconfirmed',
  'metric',
  'currency',
  'primary',
  'count',
  'mean',
  'absolute_lift',
  'absolute_lower',
  'absolute_upper',
  'relative_lift',
  'relative_lower',
  'relative_upper',
  'p_value',
  'verdict',
  'adjusted_relative_lift',
  'adjusted_relative_lower',
  'adjusted_relative_upper',
  'adjusted_absolute_lift',
  'adjusted_absolute_lower',
  'adjusted_absolute_upper',
  'adjusted_p_value',
  'adjusted_width_ratio',
  'srm_p_value',
  'srm_alarm',
] as const;

export type Cell = string | number | boolean | null;

/**
 * A text cell a spreadsheet would run as a formula (OWASP, "CSV Injection": a leading = + - @,
 * tab or carriage return) starts with a quote mark instead, which shows it as text. Variant keys
 * cannot start so (shared/config/split.ts), but a phase from before that rule, or a row written
 * around the worker, could. Numbers are ours and go as they are: −0.02 is a lift, not a formula.
 */
function neutralized(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** One CSV cell: quoted where it must be, a formula-like text defused (neutralized). */
export function csvField(cell: Cell): string {
  if (cell === null) return '';
  const text = typeof cell === 'string' ? neutralized(cell) : String(cell);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A metric row; `mean` null where nothing was measured (a vital with no sample). */
type CsvMetric = Omit<MetricResult, 'metric' | 'mean'> & {
  metric: string;
  mean: number | null;
  /** An experiment's comparison adjusted for what is known at exposure: the `adjusted_` columns. */
  adjusted?: AdjustedComparison | null;
};

type CsvVariant = Pick<
  VariantResults,
  'variant' | 'control' | 'share' | 'exposed' | 'bots' | 'overBudget' | 'unconfirmed'
> & {
  metrics: readonly CsvMetric[];
  /** An experiment's price test: mature revenue judged in each currency. */
  byCurrency?: readonly (CsvMetric & { currency: string })[];
  /** An experiment's (the split's own results have none). */
  guardrails?: ExperimentVariantResults['guardrails'];
  /** An experiment's field vitals (the split's own results have none). */
  vitals?: ExperimentVariantResults['vitals'];
  /** An experiment's failed renewals and recoveries (the split's own results have none). */
  recovery?: ExperimentVariantResults['recovery'];
  /** A save offer test's subscriptions shown, kept and cancelled (null for any other test). */
  saveOffer?: ExperimentVariantResults['saveOffer'];
};

/** What the CSV reads of an answer: the split's results and one experiment's alike. */
type CsvAnswer = Pick<ResultsAnswer, 'phase' | 'sampleRatio' | 'mainCurrency'> & {
  variants: readonly CsvVariant[];
};

/** The metric a price test's row by currency is written as: apart from the main-currency one. */
const BY_CURRENCY_METRIC = 'mature_revenue_by_currency';

/** Recovered revenue per exposed visitor, one row per currency; `count` the renewals it came from. */
const RECOVERED_METRIC = 'recovered_revenue';

/** A save offer arm's net revenue since the offer per shown subscription, one row per currency. */
const SAVE_OFFER_REVENUE_METRIC = 'save_offer_net_revenue';

/**
 * A metric's money, in minor units of `currency`, as major units ("58.25" cents → 0.5825 euros);
 * the scale is 1 for a rate, and a money metric with no main currency yet (nobody bought) has no
 * amounts to show.
 */
function majorUnits(
  metric: string,
  currency: string | null,
): { currency: string | null; scale: number } {
  const money =
    isMoneyMetric(metric) ||
    metric === BY_CURRENCY_METRIC ||
    metric === RECOVERED_METRIC ||
    metric === SAVE_OFFER_REVENUE_METRIC;
  if (!money) return { currency: null, scale: 1 };
  if (currency === null) return { currency: null, scale: 1 };
  return { currency, scale: 10 ** (minorDigits(currency) ?? 2) };
}

/**
 * A variant's guardrails as metric rows: `declined`, then each decline class as
 * `declined:insufficient_funds` (its verdict at the α the classes share), then `refunded`,
 * `cancelled`, `renewed` (retention, whose verdict `better` is a rise), `server_error` and
 * `client_error`; the mean is the share of exposed visitors, the count how many.
 */
function guardrailRows(variant: CsvVariant): CsvMetric[] {
  if (!variant.guardrails) return [];
  const { declines, declineClasses, refunds, cancellations, renewed, serverErrors, clientErrors } =
    variant.guardrails;
  return shareRows([
    ['declined', declines],
    ...declineClasses.map((row): [string, ExperimentGuardrail] => [
      `declined:${row.declineClass}`,
      row,
    ]),
    ['refunded', refunds],
    ['cancelled', cancellations],
    ['renewed', renewed],
    ['server_error', serverErrors],
    ['client_error', clientErrors],
  ]);
}

/**
 * A save offer test's arm as rows (docs/experiments.md, "Testing the save offer"):
 * `save_offer_shown` (the subscriptions shown the offer; mean 1), `save_offer_chose_keep`,
 * `save_offer_took_action` and `save_offer_cancelled` (counts and shares of the shown, not
 * judged), then `save_offer_kept`, the keep rate with its lift, interval and verdict.
 */
function saveOfferRows(variant: CsvVariant): CsvMetric[] {
  const result = variant.saveOffer;
  if (!result) return [];
  const share = (count: number) => (result.shown === 0 ? 0 : count / result.shown);
  const counted = (count: number, rate: number): ExperimentGuardrail => ({
    count,
    rate,
    relativeLift: null,
    relativeInterval: null,
    verdict: null,
  });
  return shareRows([
    ['save_offer_shown', counted(result.shown, result.shown === 0 ? 0 : 1)],
    ['save_offer_chose_keep', counted(result.choseKeep, share(result.choseKeep))],
    ['save_offer_took_action', counted(result.tookAction, share(result.tookAction))],
    ['save_offer_cancelled', counted(result.cancelled, share(result.cancelled))],
    ['save_offer_kept', result.kept],
  ]);
}

/** Shares compared in relative terms only, as metric rows: no currency, no absolute lift. */
function shareRows(named: readonly [string, ExperimentGuardrail][]): CsvMetric[] {
  return named.map(([metric, guardrail]) => ({
    metric,
    primary: false,
    count: guardrail.count,
    mean: guardrail.rate,
    absoluteLift: null,
    absoluteInterval: null,
    relativeLift: guardrail.relativeLift,
    relativeInterval: guardrail.relativeInterval,
    pValue: null,
    verdict: guardrail.verdict,
  }));
}

/**
 * A variant's page speed as metric rows: `p75_lcp`, `p75_inp`, `p75_cls`, the count its samples,
 * the mean its 75th percentile (ms, or the CLS score), the absolute lift and bounds its
 * difference from the control's with its interval, and its verdict (docs/statistics.md, "Field
 * vitals"). No relative lift: a percentile's is not estimated.
 */
function vitalRows(variant: CsvVariant): CsvMetric[] {
  return (variant.vitals ?? []).map((vital) => ({
    metric: `p75_${vital.metric}`,
    primary: false,
    count: vital.samples,
    mean: vital.p75,
    absoluteLift: vital.difference,
    absoluteInterval: vital.interval,
    relativeLift: null,
    relativeInterval: null,
    pValue: null,
    verdict: vital.verdict,
  }));
}

/**
 * A variant's failed renewals as rows (docs/experiments.md, "After the first payment"):
 * `renewal_failed` and `recovered`, buyers as a count and a share of exposed, then
 * `recovered_revenue` in each currency per exposed visitor. Counts, never judged.
 */
/**
 * A save offer arm's net revenue since the offer as `save_offer_net_revenue` rows, one per
 * currency: the subscriptions that paid in it as the count, the mean per shown subscription in
 * major units, and a variant's relative lift, interval and verdict (the α the currencies share).
 */
function saveOfferRevenueRows(variant: CsvVariant): (CsvMetric & { currency: string })[] {
  return (variant.saveOffer?.netRevenue ?? []).map((money) => ({
    metric: SAVE_OFFER_REVENUE_METRIC,
    currency: money.currency,
    primary: false,
    count: money.paying,
    mean: money.perShown,
    absoluteLift: null,
    absoluteInterval: null,
    relativeLift: money.relativeLift,
    relativeInterval: money.relativeInterval,
    pValue: null,
    verdict: money.verdict,
  }));
}

function recoveryRows(variant: CsvVariant): (CsvMetric & { currency: string | null })[] {
  if (!variant.recovery) return [];
  const { renewalFailed, recovered, revenue } = variant.recovery;
  const share = (count: number) => (variant.exposed === 0 ? 0 : count / variant.exposed);
  const row = (metric: string, count: number, mean: number, currency: string | null) => ({
    metric,
    currency,
    primary: false,
    count,
    mean,
    absoluteLift: null,
    absoluteInterval: null,
    relativeLift: null,
    relativeInterval: null,
    pValue: null,
    verdict: null,
  });
  return [
    row('renewal_failed', renewalFailed, share(renewalFailed), null),
    row('recovered', recovered, share(recovered), null),
    ...revenue.map((money) =>
      row(RECOVERED_METRIC, money.renewals, share(money.amountMinor), money.currency),
    ),
  ];
}

function metricRow(
  answer: CsvAnswer,
  variant: CsvVariant,
  metric: CsvMetric,
  moneyIn: string | null,
) {
  const { currency, scale } = majorUnits(metric.metric, moneyIn);
  const major = (minor: number | null | undefined) =>
    minor === null || minor === undefined ? null : minor / scale;
  const adjusted = metric.adjusted ?? null;
  return [
    answer.phase,
    variant.variant,
    variant.control,
    variant.share,
    variant.exposed,
    variant.bots,
    variant.overBudget,
    variant.unconfirmed,
    metric.metric,
    currency,
    metric.primary,
    metric.count,
    major(metric.mean),
    major(metric.absoluteLift),
    major(metric.absoluteInterval?.lower),
    major(metric.absoluteInterval?.upper),
    metric.relativeLift,
    metric.relativeInterval?.lower ?? null,
    metric.relativeInterval?.upper ?? null,
    metric.pValue,
    metric.verdict,
    adjusted?.relativeLift ?? null,
    adjusted?.relativeInterval?.lower ?? null,
    adjusted?.relativeInterval?.upper ?? null,
    major(adjusted?.absoluteLift),
    major(adjusted?.absoluteInterval.lower),
    major(adjusted?.absoluteInterval.upper),
    adjusted?.pValue ?? null,
    adjusted?.widthRatio ?? null,
    answer.sampleRatio.pValue,
    answer.sampleRatio.alarm,
  ];
}

/**
 * Every variant's metrics in the main currency, then a price test's mature revenue in each
 * currency as `mature_revenue_by_currency` rows, their intervals as widened for the currencies.
 */
export function resultsCsv(answer: CsvAnswer): string {
  const rows: Cell[][] = [[...RESULTS_CSV_COLUMNS]];
  for (const variant of answer.variants) {
    // A save offer test counts subscriptions shown its offer, not funnel visitors: the funnel's
    // metrics, guardrails and page speed read nothing for it, so its rows are its own only, as
    // its card shows (console/experiments/ExperimentResults.tsx).
    if (variant.saveOffer) {
      for (const row of saveOfferRows(variant)) rows.push(metricRow(answer, variant, row, null));
      for (const row of saveOfferRevenueRows(variant)) {
        rows.push(metricRow(answer, variant, row, row.currency));
      }
      continue;
    }
    for (const metric of variant.metrics) {
      rows.push(metricRow(answer, variant, metric, answer.mainCurrency));
    }
    for (const row of variant.byCurrency ?? []) {
      rows.push(metricRow(answer, variant, { ...row, metric: BY_CURRENCY_METRIC }, row.currency));
    }
    for (const guardrail of guardrailRows(variant)) {
      rows.push(metricRow(answer, variant, guardrail, null));
    }
    for (const row of recoveryRows(variant))
      rows.push(metricRow(answer, variant, row, row.currency));
    for (const vital of vitalRows(variant)) rows.push(metricRow(answer, variant, vital, null));
  }
  return rows.map((row) => `${row.map(csvField).join(',')}\r\n`).join('');
}

export const SEGMENT_CSV_COLUMNS = [
  'phase',
  'segment',
  'level',
  'variant',
  'exposed',
  'metric',
  'mean',
  'relative_lift',
  'relative_lower',
  'relative_upper',
  'verdict',
] as const;

/**
 * A segment's view as CSV (`?segment=…&format=csv`): one row per level, variant and metric, the
 * levels the console shows and no others, their intervals as corrected for the levels shown,
 * each with its verdict on that interval.
 */
export function segmentCsv(phase: number, segment: SegmentResults): string {
  const rows: Cell[][] = [[...SEGMENT_CSV_COLUMNS]];
  for (const level of segment.levels) {
    for (const variant of level.variants) {
      for (const metric of variant.metrics) {
        rows.push([
          phase,
          segment.dimension,
          level.level,
          variant.variant,
          variant.exposed,
          metric.metric,
          metric.mean,
          metric.relativeLift,
          metric.relativeInterval?.lower ?? null,
          metric.relativeInterval?.upper ?? null,
          metric.verdict,
        ]);
      }
    }
  }
  return rows.map((row) => `${row.map(csvField).join(',')}\r\n`).join('');
}
