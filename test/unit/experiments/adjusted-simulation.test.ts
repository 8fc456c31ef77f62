import { describe, expect, it } from 'vitest';
import { plannedVisitorsPerArm } from '../../../shared/statistics/planned-sample';
import { MIN_CONVERSIONS_PER_ARM } from '../../../shared/statistics/verdict-minimums';
import {
  adjustedComparison,
  type StratumSample,
} from '../../../worker/experiments/results/adjusted-statistics';
import {
  type ArmSample,
  type Comparison,
  compareToControl,
  type Interval,
} from '../../../worker/experiments/statistics/statistics';
import {
  AMOUNT_SHARES,
  AMOUNTS,
  arrivalsPerLook,
  binomial,
  binomialAllowance,
  mulberry32,
  multinomial,
  type Random,
} from './simulation';

/**
 * The comparison adjusted for what is known at exposure (adjusted-statistics.ts), in seeded
 * simulated experiments looked at 20 times up to the planned sample, beside the plain one
 * (statistics.ts compareToControl) at the same looks:
 *
 * - A/A, read at every look (continuous peeking): the adjusted intervals leave out 0 together,
 *   the verdict's rule, in no more runs than α allows, for conversions and for revenue per
 *   visitor, with strata that predict the outcome and with strata that do not.
 * - With a true lift, the adjusted intervals hold the true difference and relative lift at every
 *   look of a run in at least 95% of runs, as the allowance has it.
 * - With strata that predict the outcome (visitors' countries convert from 1.5% to 30%), the
 *   adjusted interval is narrower and the verdict at the planned sample comes more often; with
 *   strata that predict nothing it is no wider beyond noise.
 *
 * The allowance: a sound interval misses in a run with probability at most α, so the misses of R
 * runs are at most Binomial(R, α) in distribution, and the check allows the smallest count k
 * with P(X > k) ≤ 1/1000 there (binomialAllowance); the seeds are fixed.
 */

const ALPHA = 0.05;
const LOOKS = 20;
const RUNS = 600;
const TIMEOUT = 20_000;

/** A country mix: shares of the visitors and each one's rate as a multiple of the mean. */
const SHARES = [0.3, 0.2, 0.15, 0.1, 0.1, 0.08, 0.07];
const PREDICTIVE = [2.2, 1.4, 1, 0.6, 0.3, 0.15, 0.15];
const USELESS = SHARES.map(() => 1);

const MEAN_AMOUNT = AMOUNTS.reduce((sum, amount, i) => sum + amount * AMOUNT_SHARES[i]!, 0);

type Metric = 'conversion' | 'revenue';

interface Scenario {
  metric: Metric;
  /** The mean conversion rate over the country mix. */
  rate: number;
  /** Each stratum's rate as a multiple of the mean: PREDICTIVE or USELESS. */
  multiples: readonly number[];
  /** The variant's conversion rate in every stratum, relative to the control's. */
  lift: number;
  plannedPerArm: number;
}

/** Each stratum's control rate: the multiples scaled to the mean rate over the shares. */
function strataRates({ rate, multiples }: Scenario): number[] {
  const meanMultiple = SHARES.reduce((sum, share, i) => sum + share * multiples[i]!, 0);
  return multiples.map((multiple) => (rate * multiple) / meanMultiple);
}

const emptyArm = (): ArmSample => ({ n: 0, sum: 0, sumSquares: 0 });

/** Visitors added to an arm, each converting at `rate`; for revenue, spending as AMOUNTS. */
function addVisitors(
  arm: ArmSample,
  visitors: number,
  rate: number,
  metric: Metric,
  random: Random,
): number {
  const buyers = binomial(visitors, rate, random);
  arm.n += visitors;
  if (metric === 'conversion') {
    arm.sum += buyers;
    arm.sumSquares += buyers;
  } else {
    multinomial(buyers, AMOUNT_SHARES, random).forEach((count, i) => {
      arm.sum += count * AMOUNTS[i]!;
      arm.sumSquares += count * AMOUNTS[i]! ** 2;
    });
  }
  return buyers;
}

/** One look: the plain and the adjusted comparison, and whether a verdict's data is in. */
interface LookReading {
  plain: Comparison | null;
  adjusted: Comparison | null;
  enoughData: boolean;
}

/** One experiment looked at LOOKS times, each look's visitors drawn by country and arm. */
function runExperiment(scenario: Scenario, random: Random): LookReading[] {
  const rates = strataRates(scenario);
  const cells = SHARES.map(() => ({ control: emptyArm(), variant: emptyArm() }));
  const buyers = { control: 0, variant: 0 };
  return arrivalsPerLook(scenario.plannedPerArm, LOOKS).map((arrivals) => {
    const byStratum = multinomial(arrivals, SHARES, random);
    byStratum.forEach((visitors, s) => {
      const toVariant = binomial(visitors, 0.5, random);
      const cell = cells[s]!;
      const rate = rates[s]!;
      buyers.control += addVisitors(
        cell.control,
        visitors - toVariant,
        rate,
        scenario.metric,
        random,
      );
      buyers.variant += addVisitors(
        cell.variant,
        toVariant,
        rate * (1 + scenario.lift),
        scenario.metric,
        random,
      );
    });
    const strata: StratumSample[] = cells.map((cell, s) => ({
      key: `country ${s}`,
      control: { ...cell.control },
      variant: { ...cell.variant },
    }));
    const total = (arm: 'control' | 'variant') =>
      strata.reduce(
        (sum, s) => ({
          n: sum.n + s[arm].n,
          sum: sum.sum + s[arm].sum,
          sumSquares: sum.sumSquares + s[arm].sumSquares,
        }),
        emptyArm(),
      );
    const control = total('control');
    const variant = total('variant');
    return {
      plain: compareToControl(control, variant, scenario.plannedPerArm),
      adjusted: adjustedComparison(strata, scenario.plannedPerArm)?.comparison ?? null,
      enoughData:
        Math.min(control.n, variant.n) >= 100 &&
        Math.min(buyers.control, buyers.variant) >= MIN_CONVERSIONS_PER_ARM,
    };
  });
}

const excludes = (interval: Interval | null, value: number) =>
  interval !== null && (interval.lower > value || interval.upper < value);

/** The verdict's rule on one look's comparison: both intervals leave out 0 on one side. */
function side(comparison: Comparison | null): 'above' | 'below' | null {
  if (comparison?.relativeInterval == null) return null;
  const { absoluteInterval: a, relativeInterval: r } = comparison;
  if (a.lower > 0 && r.lower > 0) return 'above';
  if (a.upper < 0 && r.upper < 0) return 'below';
  return null;
}

interface Summary {
  /** Runs in which the intervals left out 0 together at some look with enough data. */
  declared: { plain: number; adjusted: number };
  /** Runs with *better* at some look with enough data. */
  better: { plain: number; adjusted: number };
  /** Runs in which some look's adjusted interval left out the true difference or relative lift. */
  adjustedMissed: number;
  /** The mean over runs of the adjusted absolute interval's width over the plain one's, last look. */
  widthRatio: number;
}

function simulate(scenario: Scenario, runs: number, seed: number): Summary {
  const random = mulberry32(seed);
  const rates = strataRates(scenario);
  const meanValue = scenario.metric === 'revenue' ? MEAN_AMOUNT : 1;
  const controlMean = SHARES.reduce((sum, share, s) => sum + share * rates[s]!, 0) * meanValue;
  const trueDifference = controlMean * scenario.lift;
  const summary: Summary = {
    declared: { plain: 0, adjusted: 0 },
    better: { plain: 0, adjusted: 0 },
    adjustedMissed: 0,
    widthRatio: 0,
  };
  for (let run = 0; run < runs; run++) {
    const looks = runExperiment(scenario, random);
    for (const kind of ['plain', 'adjusted'] as const) {
      const sides = looks.filter((look) => look.enoughData).map((look) => side(look[kind]));
      if (sides.some((s) => s !== null)) summary.declared[kind] += 1;
      if (sides.includes('above')) summary.better[kind] += 1;
    }
    const missed = looks.some(
      ({ adjusted }) =>
        adjusted !== null &&
        (excludes(adjusted.absoluteInterval, trueDifference) ||
          excludes(adjusted.relativeInterval, scenario.lift)),
    );
    if (missed) summary.adjustedMissed += 1;
    const last = looks.at(-1)!;
    const width = (interval: Interval) => interval.upper - interval.lower;
    summary.widthRatio +=
      width(last.adjusted!.absoluteInterval) / width(last.plain!.absoluteInterval) / runs;
  }
  return summary;
}

const allowance = binomialAllowance(RUNS, ALPHA);
const percent = (count: number, runs = RUNS) => `${((100 * count) / runs).toFixed(1)}%`;

describe('the adjusted comparison in simulated experiments', () => {
  for (const metric of ['conversion', 'revenue'] as const) {
    for (const [strata, multiples] of [
      ['predictive', PREDICTIVE],
      ['useless', USELESS],
    ] as const) {
      it(`A/A on ${metric}, ${strata} strata: declares in at most α of runs at any look`, {
        timeout: TIMEOUT,
      }, () => {
        const scenario = { metric, rate: 0.05, multiples, lift: 0, plannedPerArm: 5_000 };
        const seed =
          2_026_112_800 + (metric === 'revenue' ? 10 : 0) + (strata === 'useless' ? 1 : 0);
        const { declared, adjustedMissed } = simulate(scenario, RUNS, seed);
        console.info(
          `A/A ${metric}, ${strata}: adjusted declares in ${percent(declared.adjusted)}, plain in ${percent(declared.plain)}, adjusted misses 0 in ${percent(adjustedMissed)}`,
        );
        expect(declared.adjusted).toBeLessThanOrEqual(allowance);
        expect(adjustedMissed).toBeLessThanOrEqual(allowance);
      });
    }
  }

  for (const metric of ['conversion', 'revenue'] as const) {
    it(`holds the true lift of ${metric} at every look in 95% of runs`, {
      timeout: TIMEOUT,
    }, () => {
      const scenario = {
        metric,
        rate: 0.05,
        multiples: PREDICTIVE,
        lift: 0.15,
        plannedPerArm: 5_000,
      };
      const { adjustedMissed } = simulate(
        scenario,
        RUNS,
        2_026_112_820 + (metric === 'revenue' ? 1 : 0),
      );
      console.info(
        `+15% ${metric}: the adjusted intervals miss the truth in ${percent(adjustedMissed)}`,
      );
      expect(adjustedMissed).toBeLessThanOrEqual(allowance);
    });
  }

  /**
   * How much a stratum explains of a 0/1 outcome is the variance of the strata's rates over
   * p(1 − p): at a 5% purchase rate, countries converting from 0.6% to 9% explain 2% of it, at
   * a 30% step rate from 3.7% to 55% about a fifth. `gain`: the least share of runs the
   * adjusted verdict must find the lift in beyond the plain one (paired runs, the same
   * visitors); at 5% it may be a little lower by noise, at 30% it must be clearly higher.
   */
  for (const { rate, lift, narrower, gain } of [
    { rate: 0.05, lift: 0.15, narrower: 0, gain: -0.02 },
    { rate: 0.3, lift: 0.05, narrower: 0.05, gain: 0.05 },
  ]) {
    it(`is narrower with predictive strata at a ${rate * 100}% rate, and finds its lift as often or more`, {
      timeout: TIMEOUT,
    }, () => {
      const plannedPerArm = plannedVisitorsPerArm({ baselineRate: rate, relativeLift: lift });
      const scenario = {
        metric: 'conversion' as const,
        rate,
        multiples: PREDICTIVE,
        lift,
        plannedPerArm,
      };
      const { better, widthRatio } = simulate(scenario, RUNS, 2_026_112_830 + rate * 100);
      console.info(
        `${rate * 100}% → +${lift * 100}%, ${plannedPerArm} per arm: width ×${widthRatio.toFixed(3)}, better in ${percent(better.adjusted)} adjusted against ${percent(better.plain)} plain`,
      );
      expect(widthRatio).toBeLessThan(1 - narrower);
      expect(better.adjusted - better.plain).toBeGreaterThanOrEqual(gain * RUNS);
    });
  }

  it('is narrower for revenue per visitor with predictive strata', { timeout: TIMEOUT }, () => {
    const scenario = {
      metric: 'revenue' as const,
      rate: 0.05,
      multiples: PREDICTIVE,
      lift: 0.15,
      plannedPerArm: 5_000,
    };
    const { widthRatio } = simulate(scenario, RUNS, 2_026_112_850);
    console.info(`revenue per visitor at a 5% rate: width ×${widthRatio.toFixed(3)}`);
    expect(widthRatio).toBeLessThan(1);
  });

  it('is no wider beyond noise with strata that predict nothing', { timeout: TIMEOUT }, () => {
    const scenario = {
      metric: 'conversion' as const,
      rate: 0.05,
      multiples: USELESS,
      lift: 0.15,
      plannedPerArm: 5_000,
    };
    const { widthRatio, better } = simulate(scenario, RUNS, 2_026_112_840);
    console.info(
      `useless strata: width ×${widthRatio.toFixed(4)}, better in ${percent(better.adjusted)} adjusted against ${percent(better.plain)} plain`,
    );
    expect(widthRatio).toBeLessThan(1.005);
    expect(widthRatio).toBeGreaterThan(0.99);
  });
});
