import { VITAL_METRICS, type VitalMetric } from '../../../shared/analytics/vitals';
import type {
  CurrencyRevenueResult,
  ExperimentGuardrail,
  ExperimentMetricResult,
  ExperimentResultMetric,
  ExperimentResultsAnswer,
  ExperimentVariantResults,
  RecoveryResult,
  SegmentDimension,
  SegmentResults,
} from '../../../shared/console-api/experiment-results';
import type { ResultVerdict } from '../../../shared/console-api/results';
import { DECLINE_CLASSES, type DeclineClass } from '../../../shared/decline-class';
import type { DeclineRow } from '../store/decline-statements';
import type { LifecycleOutcome, RecoveredRow } from '../store/lifecycle-statements';
import type {
  ArmRow,
  DayRevenueRow,
  ExperimentArmRow,
  ExperimentDayRow,
  ExperimentPhaseRows,
  RevenueRow,
} from '../store/phase-rows';
import type { VitalsRow } from '../store/vitals-statements';
import { adjustedReader } from './adjusted-answer';
import { type DailyLook, dailyLooks } from './daily-looks';
import { type ExperimentDays, experimentDays } from './experiment-days';
import type { ExperimentDesign } from './experiment-design';
import { judgedMetric, unjudgedMetric } from './judged-metric';
import { liftOverDays } from './lift-over-days';
import { sampleRatioAnswer } from './sample-ratio-answer';
import { isSaveOfferTest, saveOfferResult, shownOf } from './save-offer-answer';
import { segmentResults } from './segment-results';
import { ALPHA, judgeVariant, type Verdict } from './statistics';
import {
  armReportedRevenue,
  currenciesByPurchasers,
  experimentTotals,
  type MetricCounts,
  otherRevenue,
} from './totals';
import { type VitalsHistogram, vitalGuardrail } from './vitals-guardrail';
import { vitalsLooks } from './vitals-looks';

/**
 * One experiment's results in one phase as the console shows them (ExperimentResultsAnswer),
 * from its rows (every shard's, added: phase-rows.ts) and its design (experiment-design.ts).
 * Pure: experiment-results.ts reads, this computes, with the statistics of the split's results
 * (always-valid intervals over daily looks, the sample-ratio alarm, the data gates).
 *
 * - Steps count only after exposure (the rows' flags), and only the steps from the trigger on are
 *   shown (design.metricsShown).
 * - `revenue` is first payments, capped at their 99th percentile; `net_revenue` adds what the
 *   product API reported since (renewals, less refunds and chargebacks), capped at its own;
 *   `mature_revenue` is net revenue over the visitors exposed at least `matureAfterDays` ago
 *   (whole UTC exposure days), so every one of them has had the chance to renew.
 * - A price test shows no verdict until every arm's mature sample reaches the planned size, and
 *   judges mature revenue in each currency paid in as well (currencyInputs).
 */

const DAY_MS = 24 * 60 * 60 * 1000;

const NOBODY: MetricCounts = { n: 0, sum: 0, sumSquares: 0, nonZero: 0 };

function conversion(exposed: number, converted: number): MetricCounts {
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

interface MetricInput {
  counts: (variant: string) => MetricCounts;
  looks: DailyLook[];
}

/** Mature net revenue compared in one currency (CurrencyRevenueResult). */
interface CurrencyInput extends MetricInput {
  currency: string;
}

type Totals = ReturnType<typeof experimentTotals>;

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
function metricInputs(
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

/**
 * The variants shown: the design's, the control first, then any seen in the rows that the design
 * no longer names (a variant removed in a later version still has its visitors).
 */
function variantsShown(design: ExperimentDesign, rows: ExperimentPhaseRows): string[] {
  const named = Object.keys(design.shares);
  const seen = rows.arms.map((row) => row.variant).filter((key) => !named.includes(key));
  return [design.control, ...named.filter((key) => key !== design.control), ...seen.sort()];
}

/**
 * A guardrail counts what must not rise: the statistics judge "more is better", so a rise they
 * call better is worse here. Retention (`rises: 'better'`) is the one that must not fall.
 */
function guardrail(
  control: MetricCounts,
  variant: MetricCounts,
  isControl: boolean,
  plannedPerArm: number,
  srmAlarm: boolean,
  alpha?: number,
  rises: 'worse' | 'better' = 'worse',
): ExperimentGuardrail {
  const rate = variant.n > 0 ? variant.sum / variant.n : 0;
  if (isControl) {
    return {
      count: variant.nonZero,
      rate,
      relativeLift: null,
      relativeInterval: null,
      verdict: null,
    };
  }
  const { comparison, verdict } = judgeVariant({
    control,
    variant,
    plannedPerArm,
    srmAlarm,
    ...(alpha !== undefined ? { alpha } : {}),
  });
  const flipped: Record<Verdict, Verdict> = {
    better: 'worse',
    worse: 'better',
    no_difference_yet: 'no_difference_yet',
    not_enough_data: 'not_enough_data',
    withheld_srm: 'withheld_srm',
  };
  return {
    count: variant.nonZero,
    rate,
    relativeLift: comparison?.relativeLift ?? null,
    relativeInterval: comparison?.relativeInterval ?? null,
    verdict: rises === 'better' ? verdict : flipped[verdict],
  };
}

/** What every variant's results are read against: the phase's inputs and its sample-ratio check. */
interface Reading {
  design: ExperimentDesign;
  inputs: Map<ExperimentResultMetric, MetricInput>;
  totals: Totals;
  matureExposed: Map<string, number>;
  arms: Map<string, ExperimentArmRow>;
  srmAlarm: boolean;
  awaitingMatureSample: boolean;
  currencies: CurrencyInput[];
  /** An arm's histogram of one vital. */
  vitals: (variant: string, metric: VitalMetric) => VitalsHistogram;
  /** A variant's daily looks at one vital against the control's (vitals-looks.ts). */
  vitalsLooks: ReturnType<typeof vitalsLooks>;
  /** The classes any arm had a decline of, and an arm's declined visitors of one. */
  declineClasses: readonly DeclineClass[];
  declines: (variant: string, declineClass: DeclineClass) => number;
  /** An arm's visitors with a lifecycle outcome, and its recovered revenue. */
  lifecycle: (variant: string, outcome: LifecycleOutcome) => number;
  recovered: (variant: string) => RecoveredRow[];
  saveOffers: ExperimentPhaseRows['saveOffers'];
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

/** A variant's declines, refunds, cancellations and renewals against the control's. */
function guardrails(reading: Reading, variant: string): ExperimentVariantResults['guardrails'] {
  const { design, arms } = reading;
  const isControl = variant === design.control;
  const row = arms.get(variant);
  const controlRow = arms.get(design.control);
  const rate = (of: ExperimentArmRow | undefined, key: 'declined' | 'refunded') =>
    of ? conversion(of.exposed, of[key]) : NOBODY;
  const judge = (key: 'declined' | 'refunded') =>
    guardrail(
      rate(controlRow, key),
      rate(row, key),
      isControl,
      design.plannedPerArm,
      reading.srmAlarm,
    );
  const share = (of: string, outcome: 'cancelled' | 'renewed') => {
    const arm = arms.get(of);
    return arm ? conversion(arm.exposed, reading.lifecycle(of, outcome)) : NOBODY;
  };
  const lifecycle = (outcome: 'cancelled' | 'renewed', rises: 'worse' | 'better') =>
    guardrail(
      share(design.control, outcome),
      share(variant, outcome),
      isControl,
      design.plannedPerArm,
      reading.srmAlarm,
      undefined,
      rises,
    );
  return {
    declines: judge('declined'),
    refunds: judge('refunded'),
    declineClasses: declineClassGuardrails(reading, variant),
    cancellations: lifecycle('cancelled', 'worse'),
    renewed: lifecycle('renewed', 'better'),
  };
}

/** A variant's failed renewals and recoveries, and its recovered revenue, most first. */
function recoveryResult(reading: Reading, variant: string): RecoveryResult {
  return {
    renewalFailed: reading.lifecycle(variant, 'renewal_failed'),
    recovered: reading.lifecycle(variant, 'recovered'),
    revenue: reading
      .recovered(variant)
      .map((row) => ({
        currency: row.currency,
        amountMinor: row.amount_minor,
        renewals: row.renewals,
      }))
      .sort((a, b) => b.amountMinor - a.amountMinor || (a.currency < b.currency ? -1 : 1)),
  };
}

/** The arms' lifecycle counts and recovered revenue, as Reading reads them. */
function lifecycleOf(rows: ExperimentPhaseRows): Pick<Reading, 'lifecycle' | 'recovered'> {
  return {
    lifecycle: (variant, outcome) =>
      rows.lifecycle.find((row) => row.variant === variant && row.outcome === outcome)?.visitors ??
      0,
    recovered: (variant) => rows.recovered.filter((row) => row.variant === variant),
  };
}

/**
 * A variant's declines by class against the control's same class. Looking at every class finds
 * one "worse" by chance far more often than α, so the classes shown share α (Bonferroni, as the
 * segments' levels do); the total above keeps its own α, and only it raises an alert.
 */
function declineClassGuardrails(
  reading: Reading,
  variant: string,
): ExperimentVariantResults['guardrails']['declineClasses'] {
  const { design, arms, declineClasses } = reading;
  const alpha = DECLINE_CLASSES_ALPHA / Math.max(1, declineClasses.length);
  const rate = (of: string, declineClass: DeclineClass) => {
    const row = arms.get(of);
    return row ? conversion(row.exposed, reading.declines(of, declineClass)) : NOBODY;
  };
  return declineClasses.map((declineClass) => ({
    declineClass,
    ...guardrail(
      rate(design.control, declineClass),
      rate(variant, declineClass),
      variant === design.control,
      design.plannedPerArm,
      reading.srmAlarm,
      alpha,
    ),
  }));
}

/** The family-wise α the decline classes shown share, as every interval of the results uses. */
const DECLINE_CLASSES_ALPHA = 0.05;

/** The classes with a decline in some arm, in DECLINE_CLASSES' order, and the arms' counts. */
function declinesByClass(
  rows: readonly DeclineRow[],
): Pick<Reading, 'declineClasses' | 'declines'> {
  const seen = new Set(rows.filter((row) => row.visitors > 0).map((row) => row.decline_class));
  return {
    declineClasses: DECLINE_CLASSES.filter((declineClass) => seen.has(declineClass)),
    declines: (variant, declineClass) =>
      rows.find((row) => row.variant === variant && row.decline_class === declineClass)?.visitors ??
      0,
  };
}

/** The arms' vital histograms, buckets in increasing order. */
function vitalsHistograms(rows: readonly VitalsRow[]): Reading['vitals'] {
  const sorted = [...rows].sort((a, b) => a.bucket - b.bucket);
  return (variant, metric) => ({
    buckets: sorted.filter((row) => row.variant === variant && row.metric === metric),
  });
}

/** One variant's row of the results: its exposure, metrics, other currencies and guardrails. */
function variantResults(reading: Reading, variant: string): ExperimentVariantResults {
  const { design, totals } = reading;
  return {
    variant,
    name: design.names[variant] ?? variant,
    control: variant === design.control,
    share: design.shares[variant] ?? 0,
    exposed: reading.exposedOf(variant),
    bots: reading.arms.get(variant)?.bots ?? 0,
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

interface ResultsInput {
  design: ExperimentDesign;
  rows: ExperimentPhaseRows;
  phase: number;
  phases: readonly number[];
  configVersion: string;
  /** Epoch ms: what "mature" is measured from. */
  now: number;
  /** First visits on its routes since its phase began; null when unknown. */
  routeVisits: number | null;
  segment?: SegmentDimension;
}

/** The segment asked for, if any, over the variants shown. */
function segmentOf(
  input: ResultsInput,
  variants: string[],
  srmAlarm: boolean,
): SegmentResults | undefined {
  const { design } = input;
  return input.segment === undefined
    ? undefined
    : segmentResults({
        dimension: input.segment,
        rows: input.rows.segments,
        variants,
        control: design.control,
        metrics: design.metricsShown,
        plannedPerArm: design.plannedPerArm,
        srmAlarm,
      });
}

/** What the answer repeats of the experiment's design, for the console to read its numbers by. */
function designShown(design: ExperimentDesign) {
  return {
    experiment: design.id,
    name: design.name,
    status: design.status,
    layer: design.layer,
    control: design.control,
    primaryMetric: design.primaryMetric,
    plannedPerArm: design.plannedPerArm,
    triggers: design.triggers,
    metricsShown: design.metricsShown,
    priceTest: design.priceTest,
    matureAfterDays: design.matureAfterDays,
  };
}

export function buildExperimentResults(input: ResultsInput): ExperimentResultsAnswer {
  const { design, rows } = input;
  const { inputs, totals, matureExposed, currencies } = metricInputs(
    design,
    rows,
    input.phase,
    input.now,
  );
  const variants = variantsShown(design, rows);
  const arms = new Map(rows.arms.map((row) => [row.variant, row]));
  // A save offer test exposes no visitor: the subscriptions shown its offer are its exposed.
  const saveOffers = isSaveOfferTest(design);
  const exposedOf = (variant: string) =>
    saveOffers ? shownOf(rows.saveOffers, variant) : (arms.get(variant)?.exposed ?? 0);

  const sampleRatio = sampleRatioAnswer(
    variants,
    design.shares,
    exposedOf,
    variants.some((variant) => exposedOf(variant) > 0),
  );
  const awaitingMatureSample =
    design.priceTest &&
    variants.some((variant) => (matureExposed.get(variant) ?? 0) < design.plannedPerArm);
  const reading: Reading = {
    design,
    inputs,
    totals,
    matureExposed,
    arms,
    srmAlarm: sampleRatio.alarm,
    awaitingMatureSample,
    currencies,
    vitals: vitalsHistograms(rows.vitals),
    vitalsLooks: vitalsLooks(rows),
    ...declinesByClass(rows.declines),
    ...lifecycleOf(rows),
    saveOffers: rows.saveOffers,
    exposedOf,
    adjusted: adjustedReader(rows, totals, design.plannedPerArm),
  };

  const exposed = variants.reduce((sum, variant) => sum + exposedOf(variant), 0);
  const firstExposed = rows.days.map((row) => row.first_exposed_at);
  const segment = segmentOf(input, variants, sampleRatio.alarm);
  return {
    ...designShown(design),
    phase: input.phase,
    phases: [...input.phases],
    configVersion: input.configVersion,
    startedAt: firstExposed.length === 0 ? null : new Date(Math.min(...firstExposed)).toISOString(),
    mainCurrency: totals.mainCurrency,
    revenueCap: totals.revenueCap,
    awaitingMatureSample,
    reach: {
      exposed,
      expectedAtMost:
        input.routeVisits === null ? null : Math.round(input.routeVisits * design.reachShare),
    },
    sampleRatio,
    variants: variants.map((variant) => variantResults(reading, variant)),
    liftOverDays: liftOverDays({
      looks: inputs.get(design.primaryMetric)?.looks ?? [],
      control: design.control,
      variants: variants.filter((variant) => variant !== design.control),
      plannedPerArm: design.plannedPerArm,
    }),
    ...(segment === undefined ? {} : { segment }),
  };
}
