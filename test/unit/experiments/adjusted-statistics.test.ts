import { describe, expect, it } from 'vitest';
import {
  adjustedComparison,
  collapseStrata,
  MAX_STRATA,
  MIN_PER_ARM_IN_STRATUM,
  type StratumSample,
  stratifiedMoments,
} from '../../../worker/experiments/results/adjusted-statistics';
import {
  type ArmSample,
  compareLookMoments,
  compareToControl,
} from '../../../worker/experiments/statistics/statistics';
import type { StratumRow } from '../../../worker/experiments/store/phase-rows';
import {
  boundedStrata,
  MAX_STRATA_PER_SHARD,
  OTHER_STRATUM,
} from '../../../worker/experiments/store/strata-statements';

/**
 * The post-stratified comparison (adjusted-statistics.ts) against GrowthBook's own numbers, on
 * the inputs of its post-stratification tests: gbstats' `TestPostStratification`
 * (packages/stats/tests/frequentist/test_post_strat.py, `stats_count_strata`, five strata of
 * per-arm n, sum and sum of squares, the control first, and the expected
 * `point_estimate_count_*` and `standard_error_count_*` of `test_post_strat_count_effect_moments`).
 * Those inputs are ours exactly: per-stratum sufficient statistics of a mean metric. gbstats'
 * CUPED tests (`stats_count_reg_strata`, `RegressionAdjustedStatistic`) add a pre-exposure
 * value per visitor, which a new visitor of a funnel does not have: those do not apply.
 */

const sample = (n: number, sum: number, sumSquares: number): ArmSample => ({ n, sum, sumSquares });

const GBSTATS_STRATA: StratumSample[] = [
  [
    sample(21, 330.0696210595999, 5377.811252605509),
    sample(42, 708.1220000911836, 12249.255519049513),
  ],
  [
    sample(65, 1391.96628040659, 30546.63404187155),
    sample(75, 1807.4703052657744, 45000.287664918586),
  ],
  [
    sample(102, 2916.824124651419, 86396.06886690554),
    sample(101, 3104.5399914554023, 98365.40553530994),
  ],
  [
    sample(151, 5172.587929941052, 182453.04528037464),
    sample(121, 4613.696610070716, 180520.64781229294),
  ],
  [
    sample(160, 6539.348445231273, 274981.98909352464),
    sample(162, 7431.953259880505, 349244.6690736718),
  ],
].map(([control, variant], i) => ({ key: `browser_${i}`, control: control!, variant: variant! }));

describe('post-stratified moments against gbstats', () => {
  const moments = stratifiedMoments(GBSTATS_STRATA)!;

  it('gives the absolute effect and its standard error of test_post_strat_count_effect_moments', () => {
    expect(moments.n).toBe(1000);
    expect(moments.variantMean - moments.controlMean).toBeCloseTo(3.548094377986586, 10);
    expect(Math.sqrt(moments.differenceVariance)).toBeCloseTo(0.37634374823059685, 10);
  });

  it('gives the relative effect, and its standard error on the log is gbstats’ on the ratio over the ratio', () => {
    const ratio = moments.variantMean / moments.controlMean;
    expect(ratio - 1).toBeCloseTo(0.10994584851937336, 10);
    // d ln(r) = dr / r: the delta method on the log of the ratio and on the ratio itself.
    expect(Math.sqrt(moments.logRatioVariance!) * ratio).toBeCloseTo(0.012225394656480164, 10);
  });
});

describe('one stratum is the plain comparison', () => {
  it('gives the plain intervals and p-value when every visitor is in one stratum', () => {
    const control = sample(1_000, 100, 100);
    const variant = sample(1_000, 125, 125);
    const plain = compareToControl(control, variant, 5_000)!;
    const one = compareLookMoments(stratifiedMoments([{ key: 'all', control, variant }])!, 5_000)!;
    expect(one.absoluteInterval.lower).toBeCloseTo(plain.absoluteInterval.lower, 12);
    expect(one.absoluteInterval.upper).toBeCloseTo(plain.absoluteInterval.upper, 12);
    expect(one.relativeInterval!.lower).toBeCloseTo(plain.relativeInterval!.lower, 12);
    expect(one.relativeInterval!.upper).toBeCloseTo(plain.relativeInterval!.upper, 12);
    expect(one.pValue).toBeCloseTo(plain.pValue, 12);
    // And adjustedComparison says there is nothing to adjust for.
    expect(adjustedComparison([{ key: 'all', control, variant }], 5_000)).toBeNull();
  });
});

describe('the strata kept', () => {
  const cell = (key: string, perArm: number): StratumSample => ({
    key,
    control: sample(perArm, perArm / 10, perArm / 10),
    variant: sample(perArm, perArm / 10, perArm / 10),
  });

  it('keeps the largest strata big enough to stand alone, at most MAX_STRATA with "other"', () => {
    const cells = Array.from({ length: 30 }, (_, i) => cell(`s${i}`, 1_000 + i * 10));
    const strata = collapseStrata(cells);
    expect(strata).toHaveLength(MAX_STRATA);
    expect(strata[0]!.key).toBe('s29');
    expect(strata.at(-1)!.key).toBe(OTHER_STRATUM);
    // Every visitor is in exactly one stratum.
    const visitors = (list: StratumSample[]) =>
      list.reduce((sum, s) => sum + s.control.n + s.variant.n, 0);
    expect(visitors(strata)).toBe(visitors(cells));
  });

  it('puts strata too small to stand alone into "other", and a too small "other" into the smallest kept', () => {
    const small = MIN_PER_ARM_IN_STRATUM - 1;
    const strata = collapseStrata([cell('big', 5_000), cell('mid', 2_000), cell('tiny', small)]);
    expect(strata.map((s) => s.key)).toEqual(['big', OTHER_STRATUM]);
    expect(strata[1]!.control.n).toBe(2_000 + small);
    const alone = collapseStrata([cell('a', 3_000), cell('b', 200), cell('c', 200)]);
    expect(alone.map((s) => s.key)).toEqual(['a', 'b', 'c']);
  });

  it('asks nothing of a stratum’s arms but the visitors it has', () => {
    expect(collapseStrata([cell('only', 10)]).map((s) => s.key)).toEqual([OTHER_STRATUM]);
    expect(
      stratifiedMoments([{ key: 'x', control: sample(1, 1, 1), variant: sample(5, 1, 1) }]),
    ).toBeNull();
  });
});

describe('a stratum that cannot be estimated alone', () => {
  /** `visitors` per arm, `converted` of them once each: a conversion rate's sufficient statistics. */
  const conversions = (visitors: number, converted: number) =>
    sample(visitors, converted, converted);
  const BIG: StratumSample = {
    key: 'big',
    control: conversions(5_000, 500),
    variant: conversions(5_000, 550),
  };
  const MID: StratumSample = {
    key: 'mid',
    control: conversions(2_000, 100),
    variant: conversions(2_000, 130),
  };
  // Six conversions in the control, none yet in the variant: the variant's variance there is 0.
  const NONE_YET: StratumSample = {
    key: 'none-yet',
    control: conversions(300, 6),
    variant: conversions(300, 0),
  };
  const merged: StratumSample = {
    key: 'big',
    control: conversions(5_300, 506),
    variant: conversions(5_300, 550),
  };

  it('joins the largest stratum, as gbstats’ combine_cells_for_analysis does', () => {
    expect(collapseStrata([MID, NONE_YET, BIG])).toEqual([merged, MID]);
    const expected = compareLookMoments(stratifiedMoments([merged, MID])!, 10_000)!;
    const adjusted = adjustedComparison([MID, NONE_YET, BIG], 10_000)!;
    expect(adjusted.strata).toBe(2);
    expect(adjusted.comparison.absoluteInterval.lower).toBeCloseTo(
      expected.absoluteInterval.lower,
      12,
    );
    expect(adjusted.comparison.absoluteInterval.upper).toBeCloseTo(
      expected.absoluteInterval.upper,
      12,
    );
    // Kept alone, its variance of 0 would have given another interval.
    const alone = compareLookMoments(stratifiedMoments([BIG, MID, NONE_YET])!, 10_000)!;
    expect(alone.absoluteInterval.lower).not.toBeCloseTo(expected.absoluteInterval.lower, 6);
  });

  it('leaves nothing to adjust for when the only other stratum is the one that joined', () => {
    expect(collapseStrata([BIG, NONE_YET])).toEqual([merged]);
    expect(adjustedComparison([BIG, NONE_YET], 10_000)).toBeNull();
  });
});

describe('a shard’s strata', () => {
  it('answers the largest one by one and every other visitor under "other", whatever levels visitors invent', () => {
    const row = (stratum: string, variant: string, exposed: number): StratumRow => ({
      stratum,
      variant,
      exposed,
      reached_lookup: 0,
      signed_up: 0,
      reached_checkout: 0,
      purchased: Math.floor(exposed / 10),
      upsold: 0,
    });
    // 150 strata, each in both arms; the last 50 the smallest.
    const rows = Array.from({ length: 150 }, (_, i) => [
      row(`s${i}`, 'a', 1_000 - i),
      row(`s${i}`, 'b', 1_000 - i),
    ]).flat();
    const revenue = [
      { stratum: 's0', variant: 'a', currency: 'USD', revenue_minor: 999, visitors: 3 },
      { stratum: 's149', variant: 'b', currency: 'USD', revenue_minor: 999, visitors: 2 },
    ];
    const { strata, strataRevenue } = boundedStrata(rows, revenue);
    const named = new Set(strata.map((r) => r.stratum));
    expect(named.size).toBe(MAX_STRATA_PER_SHARD + 1);
    expect(named.has('s99')).toBe(true);
    expect(named.has('s100')).toBe(false);
    expect(strata.filter((r) => r.stratum === OTHER_STRATUM)).toHaveLength(100);
    expect(strataRevenue.map((r) => r.stratum)).toEqual(['s0', OTHER_STRATUM]);
    const exposed = (list: StratumRow[]) => list.reduce((sum, r) => sum + r.exposed, 0);
    expect(exposed(strata)).toBe(exposed(rows));
  });
});
