import { VITAL_METRICS, type VitalMetric } from '../../../shared/analytics/vitals';
import type {
  CurrencyRevenueResult,
  ExperimentMetricResult,
  ExperimentResultMetric,
  ExperimentVariantResults,
} from '../../../shared/console-api/experiment-results';
import type { ResultVerdict } from '../../../shared/console-api/results';
import type { adjustedReader } from '../results/adjusted-answer';
import { type GuardrailReading, guardrails, recoveryResult } from '../results/guardrails';
import { judgedMetric, unjudgedMetric } from '../results/judged-metric';
import type { CurrencyInput, MetricInput, Totals } from '../results/metric-inputs';
import { type SaveOfferRows, saveOfferResult } from '../results/save-offer-answer';
import { armReportedRevenue, otherRevenue } from '../results/totals';
import { type VitalsHistogram, vitalGuardrail } from '../results/vitals-guardrail';
import type { vitalsLooks } from '../results/vitals-looks';
import { ALPHA } from '../statistics/statistics';
import type { VitalsRow } from '../store/vitals-statements';

/**
 * One variant's row of an experiment's answer (experiment-answer.ts): each metric shown judged
 * against the control, its revenue in each currency of a price test, its guardrails, recovery,
 * save offers and vitals.
 */

/** What every variant's results are read against: the phase's inputs and its sample-ratio check. */
export interface Reading extends GuardrailReading {
  inputs: Map<ExperimentResultMetric, MetricInput>;
  totals: Totals;
  matureExposed: Map<string, number>;
  awaitingMatureSample: boolean;
  currencies: CurrencyInput[];
  /** An arm's histogram of one vital. */
  vitals: (variant: string, metric: VitalMetric) => VitalsHistogram;
  /** A variant's daily looks at one vital against the control's (vitals-looks.ts). */
  vitalsLooks: ReturnType<typeof vitalsLooks>;
  /** A save offer test's outcomes, reasons and net revenue per arm (save-offer-answer.ts). */
  saveOffers: SaveOfferRows;
  /** An arm's exposed visitors; a save offer test's subscriptions shown its offer. */
  exposedOf: (variant: string) => number;
  /** A variant's comparison adjusted for what is known at exposure (adjusted-answer.ts). */
  adjusted: ReturnType<typeof adjustedReader>;
}

/** One variant's reading of one metric, judged against the control unless it is the control. */
function metricResult(
  reading: Reading,
  variant: string,
  metric: ExperimentResultMetric,
): ExperimentMetricResult {
  const { design } = reading;
  const { counts, looks } = reading.inputs.get(metric)!;
  const own = counts(variant);
  const result = unjudgedMetric(metric, metric === design.primaryMetric, own);
  if (variant === design.control) return result;
  const judged = judgedMetric({
    control: { key: design.control, counts: counts(design.control) },
    variant: { key: variant, counts: own },
    looks,
    plannedPerArm: design.plannedPerArm,
    srmAlarm: reading.srmAlarm,
  });
  const adjusted = reading.adjusted(
    metric,
    { key: design.control, totals: counts(design.control) },
    { key: variant, totals: own },
  );
  return {
    ...result,
    ...judged,
    verdict: untilMature(reading, judged.verdict),
    ...(adjusted === undefined ? {} : { adjusted }),
  };
}

/** A price test judged before its revenue matured would pick the cheapest intro. */
function untilMature(reading: Reading, verdict: ResultVerdict | null): ResultVerdict | null {
  return reading.awaitingMatureSample && verdict !== 'withheld_srm' ? 'not_enough_data' : verdict;
}

/**
 * One variant's mature revenue in each currency of a price test, each judged against the
 * control's in the same currency with α shared among the currencies (Bonferroni), so a table of
 * several verdicts raises a false one no more often than a single verdict would.
 */
function currencyResults(reading: Reading, variant: string): CurrencyRevenueResult[] {
  const { design, currencies } = reading;
  const alpha = ALPHA / Math.max(1, currencies.length);
  return currencies.map(({ currency, counts, looks }) => {
    const result = { ...unjudgedMetric('mature_revenue', false, counts(variant)), currency };
    if (variant === design.control) return result;
    const judged = judgedMetric({
      control: { key: design.control, counts: counts(design.control) },
      variant: { key: variant, counts: counts(variant) },
      looks,
      plannedPerArm: design.plannedPerArm,
      srmAlarm: reading.srmAlarm,
      alpha,
    });
    return { ...result, ...judged, verdict: untilMature(reading, judged.verdict) };
  });
}

/** The arms' vital histograms, buckets in increasing order. */
export function vitalsHistograms(rows: readonly VitalsRow[]): Reading['vitals'] {
  const sorted = [...rows].sort((a, b) => a.bucket - b.bucket);
  return (variant, metric) => ({
    buckets: sorted.filter((row) => row.variant === variant && row.metric === metric),
  });
}

/** One variant's row of the results: its exposure, metrics, other currencies and guardrails. */
export function variantResults(reading: Reading, variant: string): ExperimentVariantResults {
  const { design, totals } = reading;
  return {
    variant,
    name: design.names[variant] ?? variant,
    control: variant === design.control,
    share: design.shares[variant] ?? 0,
    exposed: reading.exposedOf(variant),
    bots: reading.arms.get(variant)?.bots ?? 0,
    overBudget: reading.arms.get(variant)?.over_budget ?? 0,
    unconfirmed: reading.arms.get(variant)?.unconfirmed ?? 0,
    metrics: design.metricsShown.map((metric) => metricResult(reading, variant, metric)),
    otherRevenue: otherRevenue(
      totals.arms.find((arm) => arm.variant === variant),
      totals.mainCurrency,
    ),
    reportedRevenue: armReportedRevenue(totals.arms.find((arm) => arm.variant === variant)),
    matureExposed: reading.matureExposed.get(variant) ?? 0,
    guardrails: guardrails(reading, variant),
    recovery: recoveryResult(reading, variant),
    saveOffer: saveOfferResult(design, reading.saveOffers, variant, reading.srmAlarm),
    byCurrency: currencyResults(reading, variant),
    vitals: VITAL_METRICS.map((metric) =>
      vitalGuardrail({
        metric,
        control: reading.vitals(design.control, metric),
        variant: reading.vitals(variant, metric),
        isControl: variant === design.control,
        earlierLooks:
          variant === design.control ? [] : reading.vitalsLooks(metric, design.control, variant),
        srmAlarm: reading.srmAlarm,
      }),
    ),
  };
}
