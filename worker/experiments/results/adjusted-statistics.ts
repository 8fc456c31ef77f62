/**
 * A variant against the control with the arms' means adjusted for what is known of each visitor
 * at exposure: post-stratification (regression adjustment on categorical covariates with their
 * interaction with the arm, Lin 2013: each stratum's mean estimated in each arm apart). Visitors are grouped into strata by their country, source, platform and
 * language as captured at exposure; each arm's mean is the strata's means weighted by the
 * strata's shares of both arms' visitors together, so chance differences between the arms' mixes
 * (more visitors from a high-converting country in one arm) no longer move the comparison, and
 * the part of each visitor's outcome the stratum explains leaves the variance
 * (docs/statistics.md, "Adjusted for what is known at exposure").
 *
 * The estimate and its variance are GrowthBook's post-stratification for a mean metric
 * (gbstats `EffectMomentsPostStratification`: the strata's variance of their means, plus the
 * variance of the strata's shares, a multinomial's), and the tests hold ours to its own test
 * inputs. The interval is the same always-valid construction as the plain one's
 * (statistics.ts compareLookMoments), at one look: shown beside the plain comparison, never
 * instead of it, and the verdict stays the plain one's.
 */

import {
  ALPHA,
  type ArmSample,
  type Comparison,
  compareLookMoments,
  type LookMoments,
} from '../statistics/statistics';
import { OTHER_STRATUM } from '../store/strata-statements';

/** One stratum's visitors in each of the two arms compared. */
export interface StratumSample {
  /** The stratum's key (a shard's: JSON of its country, source, platform, language), or OTHER_STRATUM. */
  key: string;
  control: ArmSample;
  variant: ArmSample;
}

/** Strata kept at most, "other" included: a bounded number of rows and of estimated means. */
export const MAX_STRATA = 20;
/**
 * Visitors of each arm a stratum needs to stand alone: each stratum's means and variances are
 * estimated from its own visitors, and a few visitors (no conversion yet) would give a variance
 * of 0 that is not there. Smaller strata join "other".
 */
export const MIN_PER_ARM_IN_STRATUM = 100;

const EMPTY: ArmSample = { n: 0, sum: 0, sumSquares: 0 };

function added(a: ArmSample, b: ArmSample): ArmSample {
  return { n: a.n + b.n, sum: a.sum + b.sum, sumSquares: a.sumSquares + b.sumSquares };
}

const size = (stratum: StratumSample) => stratum.control.n + stratum.variant.n;

const standsAlone = (stratum: StratumSample) =>
  stratum.control.n >= MIN_PER_ARM_IN_STRATUM && stratum.variant.n >= MIN_PER_ARM_IN_STRATUM;

/**
 * The strata the adjustment uses: the largest that have MIN_PER_ARM_IN_STRATUM visitors in each
 * arm, at most MAX_STRATA − 1 of them (both arms together, then by name), and OTHER_STRATUM for
 * every other visitor (the name a shard gives those of the strata it does not answer one by one). An "other" too small to stand alone joins the smallest stratum kept;
 * with none kept, every visitor is one stratum and the adjustment is the plain comparison.
 * Then, as gbstats does, a stratum whose arms do not both vary joins the largest
 * (withUnviableInLargest). The sizes depend only on how many visitors each stratum has in each
 * arm; whether an arm varies only on whether any of its visitors converted, not on how many did.
 */
export function collapseStrata(cells: readonly StratumSample[]): StratumSample[] {
  const bySize = [...cells].sort(
    (a, b) => size(b) - size(a) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
  );
  const kept: StratumSample[] = [];
  let other: StratumSample = { key: OTHER_STRATUM, control: EMPTY, variant: EMPTY };
  for (const cell of bySize) {
    if (kept.length < MAX_STRATA - 1 && standsAlone(cell) && cell.key !== OTHER_STRATUM) {
      kept.push(cell);
    } else {
      other = {
        key: OTHER_STRATUM,
        control: added(other.control, cell.control),
        variant: added(other.variant, cell.variant),
      };
    }
  }
  if (size(other) === 0) return withUnviableInLargest(kept);
  if (standsAlone(other) || kept.length === 0) return withUnviableInLargest([...kept, other]);
  const smallest = kept.pop()!;
  return withUnviableInLargest([
    ...kept,
    {
      key: OTHER_STRATUM,
      control: added(smallest.control, other.control),
      variant: added(smallest.variant, other.variant),
    },
  ]);
}

/** Whether one arm's outcomes in a stratum vary: two visitors at least, not all alike. */
function varies(arm: ArmSample): boolean {
  return arm.n >= 2 && arm.sumSquares - (arm.sum * arm.sum) / arm.n > 0;
}

/**
 * gbstats' rule for a stratum that cannot be estimated alone (`combine_cells_for_analysis` of
 * `EffectMomentsPostStratification`): one whose arms do not both vary (no conversion yet in one
 * arm, or every visitor converted) joins the largest stratum, which keeps its key. Kept alone,
 * its arm's variance of 0 would claim a certainty no one has and narrow the interval.
 */
function withUnviableInLargest(strata: readonly StratumSample[]): StratumSample[] {
  const largest = strata.reduce<StratumSample | undefined>(
    (best, s) =>
      best === undefined || size(s) > size(best) || (size(s) === size(best) && s.key < best.key)
        ? s
        : best,
    undefined,
  );
  const viable = (s: StratumSample) => s === largest || (varies(s.control) && varies(s.variant));
  const joining = strata.filter((s) => !viable(s));
  return strata.filter(viable).map((s) =>
    s !== largest
      ? s
      : joining.reduce(
          (merged, other) => ({
            key: merged.key,
            control: added(merged.control, other.control),
            variant: added(merged.variant, other.variant),
          }),
          s,
        ),
  );
}

function meanOf(arm: ArmSample): number {
  return arm.n > 0 ? arm.sum / arm.n : 0;
}

/** The variance of one arm's mean in one stratum: its visitors' variance over their number. */
function varianceOfMean(arm: ArmSample): number {
  if (arm.n < 2) return 0;
  return Math.max(0, (arm.sumSquares - (arm.sum * arm.sum) / arm.n) / (arm.n - 1)) / arm.n;
}

/**
 * The post-stratified means and their variances. With w_s each stratum's share of both arms'
 * visitors and ȳ_s an arm's mean in it, an arm's mean is Σ w_s·ȳ_s. Its variance has two parts:
 * Σ w_s²·Var(ȳ_s), the strata's own, and the shares' (w is a multinomial draw of the N
 * visitors): Cov(Σ w_s·a_s, Σ w_s·b_s) = (1/N)·Σ w_s·(a_s − ā)(b_s − b̄) for either pair of
 * arms, which also makes the two means covary. Null without a stratum whose arms both have
 * two visitors.
 */
export function stratifiedMoments(strata: readonly StratumSample[]): LookMoments | null {
  const usable = strata.filter((s) => s.control.n >= 2 && s.variant.n >= 2);
  if (usable.length === 0 || usable.length < strata.length) return null;
  const total = usable.reduce((sum, s) => sum + size(s), 0);
  const weighted = usable.map((s) => ({
    weight: size(s) / total,
    control: meanOf(s.control),
    variant: meanOf(s.variant),
    controlVariance: varianceOfMean(s.control),
    variantVariance: varianceOfMean(s.variant),
  }));
  const controlMean = weighted.reduce((sum, s) => sum + s.weight * s.control, 0);
  const variantMean = weighted.reduce((sum, s) => sum + s.weight * s.variant, 0);
  let controlVariance = 0;
  let variantVariance = 0;
  let covariance = 0;
  for (const s of weighted) {
    const c = s.control - controlMean;
    const v = s.variant - variantMean;
    controlVariance += s.weight ** 2 * s.controlVariance + (s.weight * c * c) / total;
    variantVariance += s.weight ** 2 * s.variantVariance + (s.weight * v * v) / total;
    covariance += (s.weight * c * v) / total;
  }
  const hasOwnVariance =
    weighted.some((s) => s.controlVariance > 0) && weighted.some((s) => s.variantVariance > 0);
  const logRatioVariance =
    controlMean > 0 && variantMean > 0 && hasOwnVariance
      ? variantVariance / variantMean ** 2 +
        controlVariance / controlMean ** 2 -
        (2 * covariance) / (controlMean * variantMean)
      : null;
  return {
    controlMean,
    variantMean,
    n: total,
    differenceVariance: variantVariance + controlVariance - 2 * covariance,
    logRatioVariance,
  };
}

/**
 * The variant against the control on post-stratified means (collapseStrata of `cells`): the
 * plain comparison's intervals and p-value, at this one look, on the adjusted moments. Null
 * with fewer than two strata (nothing to adjust for) or while it cannot be computed.
 */
export function adjustedComparison(
  cells: readonly StratumSample[],
  plannedPerArm: number,
  alpha: number = ALPHA,
): { comparison: Comparison; strata: number } | null {
  const strata = collapseStrata(cells);
  if (strata.length < 2) return null;
  const moments = stratifiedMoments(strata);
  if (moments === null) return null;
  const comparison = compareLookMoments(moments, plannedPerArm, alpha);
  return comparison === null ? null : { comparison, strata: strata.length };
}
