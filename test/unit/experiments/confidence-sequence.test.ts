import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { plannedVisitorsPerArm } from '../../../shared/statistics/planned-sample';
import {
  type ArmCounts,
  compareToControl,
  judgeVariant,
  type Look,
} from '../../../worker/experiments/statistics/statistics';
import { arrivalsPerLook, binomial, mulberry32, type Random } from './simulation';

/** A conversion arm after more visitors: its sums grow by a binomial count of converters. */
function addConverters(arm: ArmCounts, visitors: number, rate: number, random: Random): void {
  const converters = binomial(visitors, rate, random);
  arm.n += visitors;
  arm.sum += converters;
  arm.sumSquares += converters;
  arm.nonZero += converters;
}

const emptyArm = (): ArmCounts => ({ n: 0, sum: 0, sumSquares: 0, nonZero: 0 });

interface Outcome {
  /** 'better' or 'worse' at some look (any look, as a marketer peeking daily would act). */
  declaredAtAnyLook: boolean;
  declaredAtFinalLook: boolean;
  /** A fixed-sample z-test at 1.96 called significant at some look: the peeking problem. */
  naiveAtAnyLook: boolean;
}

/** One conversion experiment looked at 20 times, drawn per look as binomial counts (exact). */
function conversionExperiment(
  controlRate: number,
  variantRate: number,
  plannedPerArm: number,
  random: Random,
): Outcome {
  const control = emptyArm();
  const variant = emptyArm();
  const outcome = { declaredAtAnyLook: false, declaredAtFinalLook: false, naiveAtAnyLook: false };
  const earlierLooks: Look[] = [];
  for (const arrivals of arrivalsPerLook(plannedPerArm)) {
    const toVariant = binomial(arrivals, 0.5, random);
    addConverters(control, arrivals - toVariant, controlRate, random);
    addConverters(variant, toVariant, variantRate, random);
    // Each look is read with the looks before it, as the results page reads the days.
    const { verdict, comparison } = judgeVariant({
      control,
      variant,
      plannedPerArm,
      srmAlarm: false,
      earlierLooks,
    });
    earlierLooks.push({ control: { ...control }, variant: { ...variant } });
    const declared = verdict === 'better' || verdict === 'worse';
    outcome.declaredAtAnyLook ||= declared;
    outcome.declaredAtFinalLook = declared;
    if (comparison) {
      const pc = comparison.controlMean;
      const pv = comparison.variantMean;
      const se = Math.sqrt((pc * (1 - pc)) / control.n + (pv * (1 - pv)) / variant.n);
      outcome.naiveAtAnyLook ||= Math.abs(comparison.absoluteLift / se) > 1.959963984540054;
    }
  }
  return outcome;
}

function shareOf(outcomes: Outcome[], key: keyof Outcome): number {
  return outcomes.filter((outcome) => outcome[key]).length / outcomes.length;
}

/** 10% → 11% purchase conversion, a true 10% relative lift. */
const BASELINE = 0.1;
const LIFT = 0.1;
const PLANNED = plannedVisitorsPerArm({ baselineRate: BASELINE, relativeLift: LIFT });

describe('the always-valid interval, against simulation', () => {
  it('plans about 25 700 visitors per arm to find 10% → 11% with 80% power', () => {
    // The fixed test's 1.96 becomes the sequence's 3.035 standard errors at its tuning time, the
    // relative interval on the log of the ratio (which the verdict needs too) is 0.1% wider in
    // standard errors than the difference's, and the 19 daily looks before the last add
    // chances: the simulation over several plans is planned-sample-power.test.ts.
    expect(PLANNED).toBe(25_696);
  });

  it('declares a difference in at most 5% of 2000 A/A experiments looked at 20 times', () => {
    const random = mulberry32(20_260_401);
    const outcomes = Array.from({ length: 2000 }, () =>
      conversionExperiment(BASELINE, BASELINE, PLANNED, random),
    );
    const falsePositives = shareOf(outcomes, 'declaredAtAnyLook');
    console.info(`A/A: a difference declared at any of 20 looks in ${falsePositives * 100}%`);
    expect(falsePositives).toBeLessThanOrEqual(0.05);
    // The same runs read with a fixed-sample test at every look go wrong far more often than
    // 5%: the simulation can see the problem the sequence solves.
    const naive = shareOf(outcomes, 'naiveAtAnyLook');
    console.info(`A/A, fixed-sample test at every look: ${naive * 100}%`);
    expect(naive).toBeGreaterThan(0.1);
  });

  // At exactly 80% power, 2000 runs estimate it with a binomial standard error of 0.89 points:
  // the check allows three of them below (a false alarm with probability 0.13%), as
  // planned-sample-power.test.ts does.
  it('finds a true 10% relative lift in about 80% of 2000 experiments', () => {
    const random = mulberry32(20_260_402);
    const outcomes = Array.from({ length: 2000 }, () =>
      conversionExperiment(BASELINE, BASELINE * (1 + LIFT), PLANNED, random),
    );
    const anyLook = shareOf(outcomes, 'declaredAtAnyLook');
    const finalLook = shareOf(outcomes, 'declaredAtFinalLook');
    console.info(`power: ${anyLook * 100}% at any look, ${finalLook * 100}% at the final look`);
    expect(anyLook).toBeGreaterThanOrEqual(0.8 - 3 * Math.sqrt((0.8 * 0.2) / 2000));
  });
});

describe('the interval and its p-value', () => {
  /**
   * gbstats' relative interval is its delta method's standard error of (mean_v − mean_c)/mean_c
   * times the boundary's multiple; its tests publish the interval and that standard error, so
   * their ratio is gbstats' multiple. Ours is the same multiple: of the difference's standard
   * error for the absolute interval, and of the log-ratio's for the relative one, which is
   * exp(ln(mean_v/mean_c) ± multiple·se) − 1, deliberately not gbstats' symmetric interval
   * (docs/statistics.md, "The relative lift"): gbstats' reaches below −100% at small samples.
   */
  function heldToGbstats(
    control: { n: number; sum: number; sumSquares: number },
    variant: { n: number; sum: number; sumSquares: number },
    plannedPerArm: number,
    gbstats: { expected: number; ci: [number, number]; stddev: number },
  ) {
    const result = compareToControl(control, variant, plannedPerArm)!;
    const multiple = (gbstats.ci[1] - gbstats.ci[0]) / 2 / gbstats.stddev;
    const meanOf = (arm: typeof control) => arm.sum / arm.n;
    const varianceOf = (arm: typeof control) =>
      (arm.sumSquares - arm.sum ** 2 / arm.n) / (arm.n - 1);
    const [c, v] = [meanOf(control), meanOf(variant)];
    const absoluteSe = Math.sqrt(varianceOf(control) / control.n + varianceOf(variant) / variant.n);
    const logSe = Math.sqrt(
      varianceOf(control) / (control.n * c ** 2) + varianceOf(variant) / (variant.n * v ** 2),
    );
    expect(result.relativeLift).toBeCloseTo(gbstats.expected, 5);
    const { absoluteInterval, relativeInterval } = result;
    expect((absoluteInterval.upper - absoluteInterval.lower) / 2 / absoluteSe).toBeCloseTo(
      multiple,
      3,
    );
    expect(Math.log1p(relativeInterval!.lower)).toBeCloseTo(Math.log(v / c) - multiple * logSe, 3);
    expect(Math.log1p(relativeInterval!.upper)).toBeCloseTo(Math.log(v / c) + multiple * logSe, 3);
    return result;
  }

  it('match GrowthBook’s gbstats (SequentialTwoSidedTTest, its test values): the same multiple', () => {
    // packages/stats/tests/frequentist/test_tests.py, test_sequential_test_runs: tuning 1000
    // visitors in both arms together, that is 500 per arm.
    const control = { n: 3000, sum: 1396.87, sumSquares: 52377.9767 };
    const variant = { n: 3461, sum: 2422.7, sumSquares: 134698.29 };
    const gbstats = {
      expected: 0.50336,
      ci: [-0.55844, 1.56516] as [number, number],
      stddev: 0.33341,
    };
    const result = heldToGbstats(control, variant, 500, gbstats);
    expect(result.pValue).toBe(1);
    // Within reach where gbstats' is not: above −100%, and the estimate inside.
    expect(result.relativeInterval!.lower).toBeGreaterThan(-1);
    expect(result.relativeInterval!.lower).toBeGreaterThan(gbstats.ci[0]);
    // test_sequential_test_runs_prop, the default tuning 5000 (2500 per arm). GrowthBook takes
    // p(1 − p) as a proportion's variance, we take the unbiased n/(n − 1) times that for every
    // metric. gbstats publishes five decimals, so the multiple agrees to the third.
    const proportion = {
      expected: 0.50386,
      ci: [0.40098, 0.60675] as [number, number],
      stddev: 0.03386,
    };
    heldToGbstats(
      { n: 3000, sum: 1396, sumSquares: 1396 },
      { n: 3461, sum: 2422, sumSquares: 2422 },
      2500,
      proportion,
    );
  });

  it('widens as the planned sample moves away from the sample at hand', () => {
    const control = { n: 3000, sum: 1396.87, sumSquares: 52377.9767 };
    const variant = { n: 3461, sum: 2422.7, sumSquares: 134698.29 };
    const width = (plannedPerArm: number) => {
      const { absoluteInterval } = compareToControl(control, variant, plannedPerArm)!;
      return absoluteInterval.upper - absoluteInterval.lower;
    };
    const tuned = width(6461 / 2);
    expect(width(5)).toBeGreaterThan(tuned);
    expect(width(50_000)).toBeGreaterThan(tuned);
  });

  it('is below α exactly when both intervals leave out 0 on one side', () => {
    const arm = fc.record({
      n: fc.integer({ min: 2, max: 200_000 }),
      share: fc.double({ min: 0.001, max: 0.999, noNaN: true }),
    });
    fc.assert(
      fc.property(arm, arm, fc.integer({ min: 10, max: 1_000_000 }), (c, v, planned) => {
        const sample = ({ n, share }: { n: number; share: number }) => {
          const sum = Math.round(n * share);
          return { n, sum, sumSquares: sum };
        };
        const result = compareToControl(sample(c), sample(v), planned);
        if (result === null) return;
        const { absoluteInterval: absolute, relativeInterval: relative } = result;
        const above = absolute.lower > 0 && relative !== null && relative.lower > 0;
        const below = absolute.upper < 0 && relative !== null && relative.upper < 0;
        expect(result.pValue < 0.05).toBe(above || below);
      }),
      { seed: 14, numRuns: 500 },
    );
  });

  it('keeps the relative interval within reach: above −100%, the lift inside', () => {
    // gbstats' symmetric interval showed "−6.3% (−1,157.4% to +1,144.9%)" on few visitors.
    const arm = fc.record({
      n: fc.integer({ min: 2, max: 5000 }),
      buyers: fc.integer({ min: 1, max: 60 }),
      amount: fc.integer({ min: 1, max: 50_000 }),
      whale: fc.integer({ min: 0, max: 500_000 }),
    });
    fc.assert(
      fc.property(arm, arm, fc.integer({ min: 10, max: 100_000 }), (c, v, planned) => {
        const sample = ({
          n,
          buyers,
          amount,
          whale,
        }: {
          n: number;
          buyers: number;
          amount: number;
          whale: number;
        }) => {
          const count = Math.min(buyers, n - 1);
          return { n, sum: count * amount + whale, sumSquares: count * amount ** 2 + whale ** 2 };
        };
        const result = compareToControl(sample(c), sample(v), planned);
        if (result?.relativeInterval == null) return;
        const { lower, upper } = result.relativeInterval;
        // Above −1 in exact arithmetic; exp(·) − 1 of a far negative log rounds to −1 itself.
        expect(lower).toBeGreaterThanOrEqual(-1);
        expect(lower).toBeLessThanOrEqual(result.relativeLift! * (1 + 1e-12) + 1e-12);
        expect(upper).toBeGreaterThanOrEqual(result.relativeLift! * (1 - 1e-12) - 1e-12);
      }),
      { seed: 62, numRuns: 1000 },
    );
  });

  it('is not computed without variance, and has no relative lift on a zero control', () => {
    const none = { n: 500, sum: 0, sumSquares: 0 };
    expect(compareToControl(none, none, 1000)).toBeNull();
    expect(compareToControl({ n: 1, sum: 1, sumSquares: 1 }, none, 1000)).toBeNull();
    const result = compareToControl(none, { n: 500, sum: 30, sumSquares: 30 }, 1000)!;
    expect(result.absoluteLift).toBeCloseTo(0.06, 12);
    expect(result.relativeLift).toBeNull();
    expect(result.relativeInterval).toBeNull();
  });

  it('has no relative interval while an arm has no variance, as gbstats refuses it', () => {
    // The control has buyers, the variant none yet: the delta method's standard error is 0.
    const control = { n: 500, sum: 10, sumSquares: 10 };
    const result = compareToControl(control, { n: 500, sum: 0, sumSquares: 0 }, 1000)!;
    expect(result.relativeLift).toBe(-1);
    expect(result.relativeInterval).toBeNull();
    expect(result.absoluteInterval.lower).toBeLessThan(result.absoluteInterval.upper);
    expect(result.pValue).toBe(1);
    // Every visitor of the variant bought: no variance either.
    const all = compareToControl(control, { n: 500, sum: 500, sumSquares: 500 }, 1000)!;
    expect(all.relativeInterval).toBeNull();
    // One buyer is enough for an interval, and it is no point at −100%.
    const one = compareToControl(control, { n: 500, sum: 1, sumSquares: 1 }, 1000)!;
    expect(one.relativeInterval!.upper - one.relativeInterval!.lower).toBeGreaterThan(0.5);
  });
});
