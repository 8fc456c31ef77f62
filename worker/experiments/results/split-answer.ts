import type { SplitDocument } from '../../../shared/config/split';
import {
  type MetricResult,
  RESULT_METRICS,
  type ResultMetric,
  type ResultsAnswer,
  type VariantResults,
} from '../../../shared/console-api/results';
import { pickedShares } from '../assignment/assign';
import { DEFAULT_PLANNED_PER_ARM } from '../design/experiment-design';
import { type DailyLook, dailyLooks } from './daily-looks';
import type { ExperimentDays } from './experiment-days';
import { judgedMetric, unjudgedMetric } from './judged-metric';
import { liftOverDays } from './lift-over-days';
import { sampleRatioAnswer } from './sample-ratio-answer';
import {
  type ArmTotals,
  armReportedRevenue,
  type ExperimentTotals,
  type MetricCounts,
  otherRevenue,
} from './totals';

/**
 * The results of a phase as the console shows them (shared/console-api/results.ts ResultsAnswer),
 * from the phase's exact totals (totals.ts), its counts by day (experiment-days.ts) and the split
 * the phase was drawn with. Pure: the route (worker/console/results-route.ts) reads, this computes.
 */

/** Purchase conversion, unless the split names another. */
const DEFAULT_PRIMARY_METRIC: ResultMetric = 'purchase';

/** How a phase was drawn and is read. */
export interface PhaseDesign {
  control: string;
  /** The share of new visitors each variant is drawn for (0–1), by key, in the split's order. */
  shares: Record<string, number>;
  primaryMetric: ResultMetric;
  plannedPerArm: number;
}

/** The design of a phase whose split is known: the live one, or a version of the history. */
export function designOf(split: SplitDocument): PhaseDesign {
  return {
    control: split.defaultVariant,
    // As the hash draws them (assign.ts): the split is placed like every experiment.
    shares: pickedShares(Object.entries(split.variants).map(([key, { weight }]) => [key, weight])),
    primaryMetric: split.experiment?.primaryMetric ?? DEFAULT_PRIMARY_METRIC,
    plannedPerArm: split.experiment?.plannedPerArm ?? DEFAULT_PLANNED_PER_ARM,
  };
}

/**
 * The design of a phase no version of the history names (published around the console and the
 * CLI): the variants seen in it at equal shares, the live split's control if it was seen (else
 * the first seen), and the live split's settings.
 */
export function assumedDesign(live: SplitDocument, seen: readonly string[]): PhaseDesign {
  const settings = designOf(live);
  const variants = [...seen].sort();
  const control = variants.includes(live.defaultVariant)
    ? live.defaultVariant
    : (variants[0] ?? live.defaultVariant);
  return {
    ...settings,
    control,
    shares: Object.fromEntries(variants.map((variant) => [variant, 1 / variants.length])),
  };
}

const NO_VISITORS: MetricCounts = { n: 0, sum: 0, sumSquares: 0, nonZero: 0 };

/**
 * The variants a phase shows: the control first (even paused), then each variant drawn (share
 * above 0) or seen (exposures or bots) in the split's order, then any seen that the split does
 * not name. None for a phase nobody was seen in and no split names.
 */
function variantsShown(design: PhaseDesign, arms: ReadonlyMap<string, ArmTotals>): string[] {
  const listed = Object.keys(design.shares);
  const known = [...listed, ...[...arms.keys()].filter((key) => !listed.includes(key))];
  return known
    .filter((key) => key === design.control || (design.shares[key] ?? 0) > 0 || arms.has(key))
    .sort((a, b) => Number(b === design.control) - Number(a === design.control));
}

interface SplitReading {
  design: PhaseDesign;
  totals: ExperimentTotals;
  arms: ReadonlyMap<string, ArmTotals>;
  /** Each metric's looks, one per exposure day: the p-values and intervals hold across them. */
  looks: ReadonlyMap<ResultMetric, DailyLook[]>;
  srmAlarm: boolean;
}

function countsOf(reading: SplitReading, variant: string, metric: ResultMetric): MetricCounts {
  return reading.arms.get(variant)?.metrics[metric] ?? NO_VISITORS;
}

/** One variant's reading of one metric, judged against the control unless it is the control. */
function metricResult(reading: SplitReading, variant: string, metric: ResultMetric): MetricResult {
  const { design } = reading;
  const counts = countsOf(reading, variant, metric);
  const result = unjudgedMetric(metric, metric === design.primaryMetric, counts);
  if (variant === design.control) return result;
  return {
    ...result,
    ...judgedMetric({
      control: { key: design.control, counts: countsOf(reading, design.control, metric) },
      variant: { key: variant, counts },
      looks: reading.looks.get(metric) ?? [],
      plannedPerArm: design.plannedPerArm,
      srmAlarm: reading.srmAlarm,
    }),
  };
}

/** One variant's row of the results: its exposure, metrics and other currencies. */
function variantResults(reading: SplitReading, variant: string): VariantResults {
  const arm = reading.arms.get(variant);
  return {
    variant,
    control: variant === reading.design.control,
    share: reading.design.shares[variant] ?? 0,
    exposed: arm?.exposed ?? 0,
    bots: arm?.bots ?? 0,
    overBudget: arm?.overBudget ?? 0,
    unconfirmed: arm?.unconfirmed ?? 0,
    metrics: RESULT_METRICS.map((metric) => metricResult(reading, variant, metric)),
    otherRevenue: otherRevenue(arm, reading.totals.mainCurrency),
    reportedRevenue: armReportedRevenue(arm),
  };
}

/** Each metric's daily looks over the phase's days, capped and in its main currency. */
function looksByMetric(days: ExperimentDays, totals: ExperimentTotals) {
  return new Map(
    RESULT_METRICS.map((metric) => [
      metric,
      dailyLooks({
        arms: days.arms,
        revenue: days.revenue,
        metric,
        mainCurrency: totals.mainCurrency,
        revenueCap: totals.revenueCap,
      }),
    ]),
  );
}

export function buildResults(input: {
  phase: number;
  phases: readonly number[];
  /** The live config's version, e.g. 'v12+v12'. */
  configVersion: string;
  design: PhaseDesign;
  totals: ExperimentTotals;
  days: ExperimentDays;
}): ResultsAnswer {
  const { design, totals } = input;
  const arms = new Map(totals.arms.map((arm) => [arm.variant, arm]));
  const variants = variantsShown(design, arms);
  const sampleRatio = sampleRatioAnswer(
    variants,
    design.shares,
    (variant) => arms.get(variant)?.exposed ?? 0,
    totals.arms.some((arm) => arm.exposed > 0),
  );
  const looks = looksByMetric(input.days, totals);
  const reading: SplitReading = { design, totals, arms, looks, srmAlarm: sampleRatio.alarm };

  return {
    phase: input.phase,
    phases: [...input.phases],
    configVersion: input.configVersion,
    startedAt: input.days.startedAt === null ? null : new Date(input.days.startedAt).toISOString(),
    control: design.control,
    primaryMetric: design.primaryMetric,
    plannedPerArm: design.plannedPerArm,
    mainCurrency: totals.mainCurrency,
    revenueCap: totals.revenueCap,
    sampleRatio,
    variants: variants.map((variant) => variantResults(reading, variant)),
    liftOverDays: liftOverDays({
      looks: looks.get(design.primaryMetric) ?? [],
      control: design.control,
      variants: variants.filter((variant) => variant !== design.control),
      plannedPerArm: design.plannedPerArm,
    }),
  };
}
