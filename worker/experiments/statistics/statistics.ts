/**
 * The statistics of an experiment's results, as pure functions of per-arm sufficient statistics
 * (exposed visitors, sum and sum of squares of the per-visitor value), so the store keeps three
 * numbers per arm and metric and every look at the results is computed from them afresh.
 *
 * - Always-valid intervals: the two-sided normal-mixture boundary of Howard, Ramdas, McAuliffe
 *   and Sekhon (2021), "Time-uniform, nonparametric, nonasymptotic confidence sequences", Ann.
 *   Statist. 49(2) (arXiv:1810.08240), applied as the asymptotic confidence sequence for a
 *   difference of means of Waudby-Smith, Arbour, Sinha, Kennedy and Ramdas, "Time-uniform
 *   central limit theory and asymptotic confidence sequences" (arXiv:2103.06476v7: the interval
 *   eq. 9, the tuning eq. 161, the p-value eq. 155, as GrowthBook's gbstats cites them). The
 *   tests hold our numbers to confseq's (the boundary) and to gbstats' `SequentialTwoSidedTTest`.
 *   Across looks, each interval is the running intersection and the p-value never rises
 *   (runningComparisons).
 * - Sample-ratio mismatch: Pearson's chi-square goodness of fit against the phase's weights.
 * - Verdicts: both the absolute and the relative interval on one side of 0; and the minimum
 *   data before any verdict.
 *
 * Revenue per visitor arrives here already capped at the 99th percentile (revenue.ts).
 */

import { chiSquareUpperTail } from '../../../shared/statistics/distributions';
import {
  logNormalMixture,
  mixtureRho,
  normalMixtureBound,
} from '../../../shared/statistics/normal-mixture';
import {
  MIN_CONVERSIONS_PER_ARM,
  MIN_VISITORS_PER_ARM,
} from '../../../shared/statistics/verdict-minimums';

/** One arm of one metric in one phase: exposed visitors, and the sum and sum of squares of the per-visitor value (0/1 for a conversion; revenue, capped, for revenue per visitor). */
export interface ArmSample {
  n: number;
  sum: number;
  sumSquares: number;
}

/** An arm as a verdict needs it: its sample and how many of its visitors have a non-zero value (converters; for revenue, purchasers). */
export interface ArmCounts extends ArmSample {
  nonZero: number;
}

export interface Interval {
  lower: number;
  upper: number;
}

export type Verdict = 'better' | 'worse' | 'no_difference_yet' | 'not_enough_data' | 'withheld_srm';

/** A variant against the control on one metric; intervals hold at every look at once, with probability 1 − α. */
export interface Comparison {
  controlMean: number;
  variantMean: number;
  /** Variant mean − control mean. */
  absoluteLift: number;
  absoluteInterval: Interval;
  /** (Variant mean − control mean) / control mean; null while the control mean is 0. */
  relativeLift: number | null;
  /** Null with the relative lift, and while either arm has no variance (no conversion yet). */
  relativeInterval: Interval | null;
  /**
   * Always-valid, and below α exactly when both intervals exclude 0 on the same side (the
   * verdict's rule): the larger of the two intervals' p-values; over several looks, as
   * runningComparisons keeps it, it never rises.
   */
  pValue: number;
}

/** Both arms' samples at one look: for the results, the totals at the end of an exposure day. */
export interface Look {
  control: ArmSample;
  variant: ArmSample;
}

export interface VariantResult {
  /** Null until both arms have two visitors and some variance between visitors. */
  comparison: Comparison | null;
  verdict: Verdict;
}

export interface SampleRatioCheck {
  chiSquare: number;
  degreesOfFreedom: number;
  pValue: number;
  /** p < SRM_ALARM_P: the split is broken and every verdict of the phase is withheld. */
  alarm: boolean;
}

/** Two-sided, for every interval and verdict. */
export const ALPHA = 0.05;
/** Sample-ratio mismatch is declared below this p-value. */
const SRM_ALARM_P = 0.001;

// ---------------------------------------------------------------------------------------------
// A variant against the control.

function mean(arm: ArmSample): number {
  return arm.sum / arm.n;
}

/** The unbiased sample variance from the sums; never negative through rounding. */
function variance(arm: ArmSample): number {
  return Math.max(0, (arm.sumSquares - (arm.sum * arm.sum) / arm.n) / (arm.n - 1));
}

function around(estimate: number, halfWidth: number): Interval {
  return { lower: estimate - halfWidth, upper: estimate + halfWidth };
}

/** One look: the comparison, and the p-value of each interval alone (1 without a relative one). */
interface LookEvidence {
  comparison: Comparison;
  absolutePValue: number;
  relativePValue: number;
}

/**
 * The mixture's 1/e-value for an estimate `z` standard errors from 0 after time n: below α
 * exactly when the interval of half-width bound(n)/√n standard errors leaves out 0.
 */
function mixturePValue(z: number, n: number, rho: number): number {
  const p = Math.exp(-logNormalMixture(Math.sqrt(n) * z, n, rho));
  return Number.isNaN(p) ? 1 : Math.min(1, p);
}

/**
 * What one look's intervals are built from: the two arms' estimated means, the visitors behind
 * them (the confidence sequence's time), the variance of the estimated difference of the means
 * and of the log of their ratio (null where there is none: a mean not above 0, an arm without
 * variance). The plain means give it from the arms' sums (momentsOf); the means adjusted for
 * what is known at exposure from the strata's (adjusted-statistics.ts).
 */
export interface LookMoments {
  controlMean: number;
  variantMean: number;
  n: number;
  differenceVariance: number;
  logRatioVariance: number | null;
}

/** The plain means' moments: each arm's mean and its variance over its visitors. */
function momentsOf(control: ArmSample, variant: ArmSample): LookMoments {
  const controlMean = mean(control);
  const variantMean = mean(variant);
  const controlVariance = variance(control);
  const variantVariance = variance(variant);
  // The delta method's variance of ln(mean_v) − ln(mean_c). None while either mean is not above
  // 0 (no logarithm) or either arm has no variance (a variant without a conversion yet): the
  // standard error would leave out that arm's uncertainty, and gbstats refuses the same case
  // (its zero-variance check).
  const logRatio =
    controlMean > 0 && variantMean > 0 && controlVariance > 0 && variantVariance > 0
      ? variantVariance / (variantMean ** 2 * variant.n) +
        controlVariance / (controlMean ** 2 * control.n)
      : null;
  return {
    controlMean,
    variantMean,
    n: control.n + variant.n,
    differenceVariance: controlVariance / control.n + variantVariance / variant.n,
    logRatioVariance: logRatio,
  };
}

/**
 * The relative lift's interval and p-value, on the log of the ratio of the means: the delta
 * method's standard error of ln(mean_v) − ln(mean_c), the absolute interval's multiple of it,
 * then exp(·) − 1. Its bounds stay above −100%, which no rate or revenue can go below, and the
 * estimate mean_v/mean_c − 1 always lies inside (docs/statistics.md, "The relative lift").
 * gbstats builds it on the ratio itself, symmetric about the estimate, which at small samples
 * reached −1,157% and, read across looks, excluded 0 too often on skewed revenue.
 */
function relativeEvidence(
  moments: LookMoments,
  rho: number,
  multiple: number,
): { interval: Interval; pValue: number } | null {
  const { controlMean, variantMean, n, logRatioVariance } = moments;
  if (logRatioVariance === null || !(logRatioVariance > 0)) return null;
  const logRatio = Math.log(variantMean / controlMean);
  const standardError = Math.sqrt(logRatioVariance);
  const halfWidth = multiple * standardError;
  return {
    interval: { lower: Math.expm1(logRatio - halfWidth), upper: Math.expm1(logRatio + halfWidth) },
    pValue: mixturePValue(logRatio / standardError, n, rho),
  };
}

/**
 * One look's comparison from its moments; null without a positive, finite variance of the
 * difference.
 */
function compareMoments(
  moments: LookMoments,
  plannedPerArm: number,
  alpha: number,
): LookEvidence | null {
  const { controlMean, variantMean, n } = moments;
  const standardError = Math.sqrt(moments.differenceVariance);
  if (!(standardError > 0) || !Number.isFinite(standardError)) return null;

  // The difference of the means is the mean of n visitors' contributions of variance se²·n,
  // so in unit-variance time their sum is √n·z after time n, and the boundary on it, divided
  // by n, is bound(n)/√n standard errors. The mixture is tuned to both arms' planned total.
  const rho = mixtureRho(2 * plannedPerArm, alpha);
  const multiple = normalMixtureBound(n, alpha, rho) / Math.sqrt(n);
  const absoluteLift = variantMean - controlMean;
  const absolutePValue = mixturePValue(absoluteLift / standardError, n, rho);

  const relativeLift = controlMean !== 0 ? absoluteLift / controlMean : null;
  const relative = relativeEvidence(moments, rho, multiple);
  const relativeInterval = relative?.interval ?? null;
  const relativePValue = relative?.pValue ?? 1;

  return {
    comparison: {
      controlMean,
      variantMean,
      absoluteLift,
      absoluteInterval: around(absoluteLift, multiple * standardError),
      relativeLift,
      relativeInterval,
      pValue: Math.max(absolutePValue, relativePValue),
    },
    absolutePValue,
    relativePValue,
  };
}

/**
 * One look's comparison from moments computed elsewhere (adjusted-statistics.ts): the same
 * intervals and p-value compareToControl gives the plain means, at that one look.
 */
export function compareLookMoments(
  moments: LookMoments,
  plannedPerArm: number,
  alpha: number = ALPHA,
): Comparison | null {
  return compareMoments(moments, plannedPerArm, alpha)?.comparison ?? null;
}

function compareLook(
  control: ArmSample,
  variant: ArmSample,
  plannedPerArm: number,
  alpha: number,
): LookEvidence | null {
  if (control.n < 2 || variant.n < 2) return null;
  return compareMoments(momentsOf(control, variant), plannedPerArm, alpha);
}

/**
 * The variant against the control; null while it cannot be computed (fewer than two visitors in
 * an arm, or no variance at all, such as no conversion yet in either arm).
 *
 * The relative lift's interval is the absolute one's construction applied to the log of the
 * ratio of the means (relativeEvidence): the same multiple of a standard error, so the sequence's
 * width carries over; like the absolute one, it is asymptotic. Its standard error is not the
 * absolute one's divided by the control mean, so the two intervals can disagree about 0. The
 * p-value is the larger of the two intervals' own (each an always-valid p-value for "no
 * difference"), below α exactly when both exclude 0, the verdict's rule (judgeVariant).
 */
export function compareToControl(
  control: ArmSample,
  variant: ArmSample,
  plannedPerArm: number,
  alpha: number = ALPHA,
): Comparison | null {
  return compareLook(control, variant, plannedPerArm, alpha)?.comparison ?? null;
}

function intersect(a: Interval, b: Interval): Interval {
  return { lower: Math.max(a.lower, b.lower), upper: Math.min(a.upper, b.upper) };
}

function isEmpty(interval: Interval | null): boolean {
  return interval !== null && interval.lower > interval.upper;
}

/**
 * The absolute interval wholly on one side of 0 and the relative one wholly on the other: they
 * cannot both hold, since a positive control mean gives a difference and a relative lift the
 * same sign.
 */
function pointOpposite(absolute: Interval, relative: Interval | null): boolean {
  if (relative === null) return false;
  return (absolute.lower > 0 && relative.upper < 0) || (absolute.upper < 0 && relative.lower > 0);
}

/** The smallest p-value so far of each interval, among the looks whose lift had one sign. */
interface DirectionEvidence {
  absolute: number;
  relative: number;
}

function lowest(a: DirectionEvidence, b: DirectionEvidence): DirectionEvidence {
  return { absolute: Math.min(a.absolute, b.absolute), relative: Math.min(a.relative, b.relative) };
}

/** A look's p-values, each filed under the direction its own lift points (a lift of 0 has p = 1). */
function evidenceOf(look: LookEvidence): { rise: DirectionEvidence; fall: DirectionEvidence } {
  const { absoluteLift, relativeLift } = look.comparison;
  const rises = (lift: number | null) => lift !== null && lift > 0;
  return {
    rise: {
      absolute: rises(absoluteLift) ? look.absolutePValue : 1,
      relative: rises(relativeLift) ? look.relativePValue : 1,
    },
    fall: {
      absolute: rises(absoluteLift) ? 1 : look.absolutePValue,
      relative: rises(relativeLift) ? 1 : look.relativePValue,
    },
  };
}

/**
 * The comparison at each of `looks`, in order, made always-valid across them: each interval is
 * the running intersection of each look's, and the p-value never rises (null where a look cannot
 * be compared yet). The standard always-valid p-value (Johari, Koomen, Pekelis and Walsh, "Always
 * valid inference: continuous monitoring of A/B tests", Operations Research 70(3), 2022; Howard
 * et al. 2021): by Ville's inequality the mixture's 1/e-value is ≤ α at *some* look with
 * probability at most α, so its smallest value so far has the very guarantee the value at one
 * look has, and it is the p-value that matches the sequence: evidence the guarantee already
 * counted is never taken back. The value at one look alone can rise again as the estimate
 * wanders back towards 0, and a marketer who saw p = 0.03 yesterday would read today's 0.2 as a
 * reversal the statistics never claimed. Likewise the true difference lies in every look's
 * interval at once (probability 1 − α), hence in their intersection.
 *
 * The results take their looks afresh from the counts by exposure day (daily-looks.ts): a day
 * added never raises the p-value, but a purchase today by a visitor exposed last week changes
 * last week's looks too, and can move it either way by that much.
 *
 * Verdict and p-value agree. A look's p-value of either interval is below α exactly when that
 * interval leaves out 0, on the side its lift points to. So the smallest p-value so far of the
 * absolute interval among the looks whose lift rose is below α exactly when the intersection's
 * lower bound is above 0 (some look's was), and likewise for a fall and the upper bound, and
 * for the relative interval. The p-value shown is, for each direction, the larger of the two
 * intervals' smallest values, and the smaller over the two directions: below α exactly when
 * both intersections exclude 0 on the same side, the verdict's rule. It is valid: it is at
 * least the larger of the two intervals' running minima over all looks, each an always-valid
 * p-value for the same null (a difference of 0 is a relative lift of 0), and the larger of two
 * valid p-values is valid (P(max ≤ α) ≤ P(either ≤ α) ≤ α). Taking the larger of the two
 * running minima without the directions would not match: the absolute interval could leave out
 * 0 above it on a rise and the relative one below it on a later fall.
 *
 * An empty intersection, of either interval, or two that point opposite ways (the absolute one
 * above 0, the relative one below it, or the reverse), means the looks cannot all hold: by
 * chance (probability at most 2α) or because the difference itself changed during the phase.
 * Then the looks are read afresh from that one on, its own intervals and p-value, rather than
 * shown as an interval with its ends crossed or as a rise beside a fall.
 */
export function runningComparisons(
  looks: readonly Look[],
  plannedPerArm: number,
  alpha: number = ALPHA,
): (Comparison | null)[] {
  let running: { comparison: Comparison; rise: DirectionEvidence; fall: DirectionEvidence } | null =
    null;
  return looks.map(({ control, variant }) => {
    const look = compareLook(control, variant, plannedPerArm, alpha);
    if (look === null) return null;
    const now = look.comparison;
    const fresh = () => {
      running = { comparison: now, ...evidenceOf(look) };
      return now;
    };
    if (running === null) return fresh();
    const before: Comparison = running.comparison;
    const absoluteInterval = intersect(before.absoluteInterval, now.absoluteInterval);
    // A look without a relative interval (the control mean 0, or an arm without variance) adds
    // nothing to it: the earlier looks' intersection stands.
    const relativeInterval =
      now.relativeInterval && before.relativeInterval
        ? intersect(before.relativeInterval, now.relativeInterval)
        : (now.relativeInterval ?? before.relativeInterval);
    if (
      isEmpty(absoluteInterval) ||
      isEmpty(relativeInterval) ||
      pointOpposite(absoluteInterval, relativeInterval)
    ) {
      return fresh();
    }
    const { rise, fall } = evidenceOf(look);
    const evidence = { rise: lowest(running.rise, rise), fall: lowest(running.fall, fall) };
    const pValue = Math.min(
      Math.max(evidence.rise.absolute, evidence.rise.relative),
      Math.max(evidence.fall.absolute, evidence.fall.relative),
    );
    const comparison = { ...now, absoluteInterval, relativeInterval, pValue };
    running = { comparison, ...evidence };
    return comparison;
  });
}

function hasEnoughData(arm: ArmCounts): boolean {
  return arm.n >= MIN_VISITORS_PER_ARM && arm.nonZero >= MIN_CONVERSIONS_PER_ARM;
}

/**
 * Both intervals lie wholly on one side of 0. The table shows the relative lift and its
 * interval, and the CSV both, so a verdict that read only one of them could say *better*
 * beside an interval that holds 0. Requiring both is sound: each interval alone holds the true
 * lift at every look with probability 1 − α, so both wrongly leaving out 0 is at most as
 * likely as either one doing so. It costs some power: for a rise the relative interval is the
 * wider one in standard errors, and it decides.
 */
function excludesZero(comparison: Comparison, side: 'above' | 'below'): boolean {
  const { absoluteInterval, relativeInterval } = comparison;
  if (relativeInterval === null) return false;
  return side === 'above'
    ? absoluteInterval.lower > 0 && relativeInterval.lower > 0
    : absoluteInterval.upper < 0 && relativeInterval.upper < 0;
}

/** Every metric counts more as better (conversions, revenue). */
export function judgeVariant(options: {
  control: ArmCounts;
  variant: ArmCounts;
  /** Visitors per arm expected at decision time: the mixture is tuned to it. */
  plannedPerArm: number;
  /** The phase's sample-ratio check alarmed: its numbers stand, its verdicts do not. */
  srmAlarm: boolean;
  /** The looks before this one, oldest first: the p-value and interval hold across them all. */
  earlierLooks?: readonly Look[];
  alpha?: number;
}): VariantResult {
  const { control, variant, plannedPerArm, srmAlarm, earlierLooks = [], alpha = ALPHA } = options;
  const looks = [...earlierLooks, { control, variant }];
  const running = runningComparisons(looks, plannedPerArm, alpha).at(-1) ?? null;
  const enough = hasEnoughData(control) && hasEnoughData(variant);
  let verdict: Verdict;
  if (srmAlarm) verdict = 'withheld_srm';
  else if (running === null || !enough) verdict = 'not_enough_data';
  else if (excludesZero(running, 'above')) verdict = 'better';
  else if (excludesZero(running, 'below')) verdict = 'worse';
  else verdict = 'no_difference_yet';
  // Below the verdict's minimums a ratio of a handful of conversions means nothing a marketer
  // can use (bounds of +10^22% were shown): the relative lift waits with the verdict.
  const comparison =
    running === null || enough
      ? running
      : { ...running, relativeLift: null, relativeInterval: null };
  return { comparison, verdict };
}

// ---------------------------------------------------------------------------------------------
// Sample-ratio mismatch.

/**
 * Pearson's chi-square of exposures against the shares the weights give; a paused arm (weight 0)
 * that still has exposures is a mismatch. The weights must give the shares the assignment really
 * draws (assign.ts pickedShares: the hash's 1/10 000 steps); a whole-percent roll drew 1:1:1 as
 * 34/33/33, which checked against thirds alarms on 4 sound splits in 5 by 100 000 visitors.
 */
export function checkSampleRatio(
  arms: readonly { exposed: number; weight: number }[],
): SampleRatioCheck {
  const live = arms.filter((arm) => arm.weight > 0);
  const total = arms.reduce((sum, arm) => sum + arm.exposed, 0);
  const totalWeight = live.reduce((sum, arm) => sum + arm.weight, 0);
  const degreesOfFreedom = Math.max(0, live.length - 1);
  const quiet = { chiSquare: 0, degreesOfFreedom, pValue: 1, alarm: false };
  if (total === 0 || totalWeight === 0) return quiet;
  if (arms.some((arm) => arm.weight <= 0 && arm.exposed > 0)) {
    return { chiSquare: Number.POSITIVE_INFINITY, degreesOfFreedom, pValue: 0, alarm: true };
  }
  if (degreesOfFreedom === 0) return quiet;
  const chiSquare = live.reduce((sum, arm) => {
    const expected = (total * arm.weight) / totalWeight;
    return sum + (arm.exposed - expected) ** 2 / expected;
  }, 0);
  const pValue = chiSquareUpperTail(chiSquare, degreesOfFreedom);
  return { chiSquare, degreesOfFreedom, pValue, alarm: pValue < SRM_ALARM_P };
}
