import { type VitalMetric, vitalRating } from '../../../shared/analytics/vitals';
import type { VitalGuardrail } from '../../../shared/console-api/experiment-results';
import type { ResultInterval, ResultVerdict } from '../../../shared/console-api/results';
import { mixtureRho, normalMixtureBound } from '../../../shared/statistics/normal-mixture';
import { bucketLower, bucketOf, bucketValue } from '../statistics/vitals-histogram';

/**
 * The field vitals' guardrails (docs/statistics.md, "Field vitals"): each arm's 75th percentile
 * of LCP, INP and CLS from its histogram (../statistics/vitals-histogram.ts), and the variant's difference from
 * the control with an always-valid interval, so the alerts may look at it every hour.
 *
 * - p75: the value of the bucket holding the ⌈0.75·n⌉-th smallest sample, as CrUX reads a page.
 * - Its standard error, without assuming a distribution (Price and Bonett 2002, "Distribution-free
 *   confidence intervals for difference and ratio of medians", J. Stat. Comput. Simul. 72(2),
 *   for the median; the same order-statistic argument for any quantile): the ranks
 *   l, u = n·p ∓ 1.96·√(n·p·(1−p)) bound a 95 % interval for the quantile, and
 *   (x₍ᵤ₎ − x₍ₗ₎)/(2·1.96) estimates √(p(1−p)/n)/f(q), the sample quantile's standard error.
 *   From the histogram, x₍ₗ₎ is the lower end of its bucket and x₍ᵤ₎ the upper end of its own, so
 *   the estimate errs wide, never 0.
 * - The difference's interval: the sample quantile is asymptotically a mean of independent
 *   terms (Bahadur's representation) of that variance, and a visitor counts once per metric
 *   (vitals-statements.ts), so the asymptotic confidence sequence every metric of the results uses
 *   (statistics.ts: the normal-mixture boundary of Howard et al. 2021 over the samples of both
 *   arms) applies with this standard error: with probability 1 − α the true difference is in
 *   every look's interval at once, so an alert that fires the first time it leaves out 0 is a
 *   false alarm with probability at most α, however often it looks.
 * - A verdict only from VITALS_MIN_SAMPLE samples in each arm: the order-statistic standard error
 *   is asymptotic, and below that a few slow pages decide it.
 */

export const VITALS_ALPHA = 0.05;

/** Samples per arm before a verdict. */
const VITALS_MIN_SAMPLE = 200;

/**
 * The samples per arm the boundary is tightest at (its mixture's tuning, fixed in advance as the
 * guarantee needs): a tenth of a typical planned sample of 8 000 visitors, as the default sample
 * of visitors reports vitals.
 */
const VITALS_TUNED_PER_ARM = 800;

const P = 0.75;
const Z = 1.959964;

export interface VitalsHistogram {
  /** Buckets in increasing order, each with its samples. */
  buckets: readonly { bucket: number; visitors: number }[];
}

function sampleCount(histogram: VitalsHistogram): number {
  return histogram.buckets.reduce((sum, { visitors }) => sum + visitors, 0);
}

/**
 * The buckets of the samples at `ranks` (1-based, increasing), in one pass over the buckets: a
 * read judges every look before it too, whose arms were each counted four times and walked four
 * (readArm now counts once and walks once).
 */
function bucketsAtRanks(histogram: VitalsHistogram, ranks: readonly number[]): number[] {
  const found: number[] = [];
  let seen = 0;
  for (const { bucket, visitors } of histogram.buckets) {
    seen += visitors;
    while (found.length < ranks.length && seen >= ranks[found.length]!) found.push(bucket);
    if (found.length === ranks.length) return found;
  }
  const last = histogram.buckets.at(-1)?.bucket ?? 0;
  while (found.length < ranks.length) found.push(last);
  return found;
}

/** What a look reads of one arm's histogram. */
interface ArmRead {
  samples: number;
  p75: number | null;
  /** The p75's standard error (above); null below two samples. */
  standardError: number | null;
  /** A CLS p75 near the pages with no shift (p75AtZeroShift below). */
  atZeroShift: boolean;
}

/**
 * One arm's p75, its standard error and whether it sits near the pages at 0, from the order
 * statistics at three ranks: the lower end of the window (also the zero-shift check's), the p75
 * and the upper end.
 */
function readArm(metric: VitalMetric, histogram: VitalsHistogram): ArmRead {
  const n = sampleCount(histogram);
  if (n === 0) return { samples: 0, p75: null, standardError: null, atZeroShift: false };
  const half = Z * Math.sqrt(n * P * (1 - P));
  const lower = Math.max(1, Math.floor(n * P - half));
  const upper = Math.min(n, Math.ceil(n * P + half));
  const [lowBucket, p75Bucket, highBucket] = bucketsAtRanks(histogram, [
    lower,
    Math.ceil(P * n),
    upper,
  ]) as [number, number, number];
  const low = bucketLower(metric, lowBucket);
  const high = bucketLower(metric, highBucket + 1);
  return {
    samples: n,
    p75: bucketValue(metric, p75Bucket),
    standardError: n < 2 ? null : (high - low) / (2 * Z),
    atZeroShift: p75AtZeroShift(metric, lowBucket),
  };
}

export function p75Of(metric: VitalMetric, histogram: VitalsHistogram): number | null {
  return readArm(metric, histogram).p75;
}

/** The p75's standard error (above); null below two samples. */
export function p75StandardError(metric: VitalMetric, histogram: VitalsHistogram): number | null {
  return readArm(metric, histogram).standardError;
}

/**
 * CLS's p75 near the pages with no layout shift at all: the order-statistic window around the
 * 75th percentile reaches the pages at exactly 0 (their own bucket, ../statistics/vitals-histogram.ts). There
 * the p75 jumps between 0 and the shifted pages' values as a few samples move, its sampling
 * distribution is nothing like normal, and the window's standard error misjudges it: with 74%
 * of pages at 0, A/A comparisons read 30 times left out 0 in about 14% of runs. So no interval
 * or verdict is shown for it (docs/statistics.md, "Field vitals"); both p75s are then about 0.
 * `windowLowBucket` is the bucket at the window's lower rank.
 */
function p75AtZeroShift(metric: VitalMetric, windowLowBucket: number): boolean {
  return metric === 'cls' && windowLowBucket === bucketOf('cls', 0);
}

/** Both arms' reads at one look. */
interface LookRead {
  control: ArmRead;
  variant: ArmRead;
}

function readLook(metric: VitalMetric, { control, variant }: VitalsLook): LookRead {
  return { control: readArm(metric, control), variant: readArm(metric, variant) };
}

/** Either arm's CLS p75 near the pages with no shift: no interval is valid there (above). */
function nearZeroShift({ control, variant }: LookRead): boolean {
  return control.atZeroShift || variant.atZeroShift;
}

export interface VitalsComparison {
  difference: number;
  interval: ResultInterval;
}

/** The boundary's mixture precision, fixed in advance as the guarantee needs (above). */
const RHO = mixtureRho(2 * VITALS_TUNED_PER_ARM, VITALS_ALPHA);

/** The variant's p75 less the control's, with its always-valid interval; null without samples. */
export function compareP75(
  metric: VitalMetric,
  control: VitalsHistogram,
  variant: VitalsHistogram,
): VitalsComparison | null {
  return compareReads(readLook(metric, { control, variant }));
}

function compareReads({ control, variant }: LookRead): VitalsComparison | null {
  if (
    control.p75 === null ||
    variant.p75 === null ||
    control.standardError === null ||
    variant.standardError === null
  )
    return null;
  const standardError = Math.sqrt(control.standardError ** 2 + variant.standardError ** 2);
  const n = control.samples + variant.samples;
  const halfWidth = (normalMixtureBound(n, VITALS_ALPHA, RHO) / Math.sqrt(n)) * standardError;
  const difference = variant.p75 - control.p75;
  return { difference, interval: { lower: difference - halfWidth, upper: difference + halfWidth } };
}

/** Both arms' histograms at one look: everyone sampled up to then. */
export interface VitalsLook {
  control: VitalsHistogram;
  variant: VitalsHistogram;
}

/**
 * The comparison at each of `looks`, in order, its interval the running intersection of the
 * looks' intervals (as statistics.ts runningComparisons keeps the metrics'): the true difference
 * lies in every look's interval at once with probability 1 − α, hence in their overlap. So a
 * verdict, once earned, stays while the overlap stays on its side of 0: a later look whose own
 * interval has drifted back over 0 no longer takes it away (a 10% slower LCP was *worse* at some
 * look in 92.7% of runs but at the last look in 76.4%). Only evidence against it changes it: a
 * look whose interval no longer meets the overlap (the difference itself changed, or the
 * α chance came up), from which the looks are read afresh (docs/statistics.md, "A verdict that
 * stays").
 */
export function runningP75Comparisons(
  metric: VitalMetric,
  looks: readonly VitalsLook[],
): (VitalsComparison | null)[] {
  let running: VitalsComparison | null = null;
  return looks.map((look) => {
    running = nextRunning(running, readLook(metric, look));
    return running;
  });
}

/** The running comparison after one more look (runningP75Comparisons). */
function nextRunning(running: VitalsComparison | null, look: LookRead): VitalsComparison | null {
  // A look whose p75 sat near the pages at 0 has no valid interval (p75AtZeroShift): it shows
  // none, and must not narrow the overlap the later looks read either.
  const now = nearZeroShift(look) ? null : compareReads(look);
  if (now === null) return running;
  const interval = running && {
    lower: Math.max(running.interval.lower, now.interval.lower),
    upper: Math.min(running.interval.upper, now.interval.upper),
  };
  return interval && interval.lower <= interval.upper ? { ...now, interval } : now;
}

function verdictOf(
  comparison: VitalsComparison | null,
  samples: readonly number[],
  srmAlarm: boolean,
): ResultVerdict {
  if (srmAlarm) return 'withheld_srm';
  if (comparison === null || samples.some((n) => n < VITALS_MIN_SAMPLE)) return 'not_enough_data';
  // Higher is worse for all three.
  if (comparison.interval.lower > 0) return 'worse';
  if (comparison.interval.upper < 0) return 'better';
  return 'no_difference_yet';
}

/** One arm's guardrail of `metric`; for the control, without the comparison. */
export function vitalGuardrail(options: {
  metric: VitalMetric;
  control: VitalsHistogram;
  variant: VitalsHistogram;
  isControl: boolean;
  srmAlarm: boolean;
  /** The looks before this one, oldest first: the interval is the overlap of them all. */
  earlierLooks?: readonly VitalsLook[];
}): VitalGuardrail {
  const { metric, earlierLooks = [] } = options;
  const look = readLook(metric, options);
  const { p75, samples } = look.variant;
  const own = { metric, samples, p75, rating: p75 === null ? null : vitalRating(metric, p75) };
  if (options.isControl) return { ...own, difference: null, interval: null, verdict: null };
  if (nearZeroShift(look)) {
    const controlP75 = look.control.p75;
    const difference = p75 === null || controlP75 === null ? null : p75 - controlP75;
    return { ...own, difference, interval: null, verdict: null };
  }
  let comparison: VitalsComparison | null = null;
  for (const earlier of earlierLooks)
    comparison = nextRunning(comparison, readLook(metric, earlier));
  comparison = nextRunning(comparison, look);
  return {
    ...own,
    difference: comparison?.difference ?? null,
    interval: comparison?.interval ?? null,
    verdict: verdictOf(comparison, [samples, look.control.samples], options.srmAlarm),
  };
}
