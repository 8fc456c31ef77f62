import { describe, expect, it } from 'vitest';
import { plannedVisitorsPerArm } from '../../../shared/statistics/planned-sample';
import {
  type RevenueBucket,
  revenueQuantile,
  revenueStatistics,
} from '../../../worker/experiments/results/revenue';
import {
  type ArmSample,
  type Interval,
  type Look,
  runningComparisons,
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
 * The relative lift's interval (statistics.ts relativeEvidence, on the log of the ratio) against
 * the truth it promises to hold, as the results page shows it: the running intersection over
 * the daily looks. An interval that holds at every look at once must hold the true relative lift
 * at all of a run's looks in at least 95% of runs, for conversions and for revenue per visitor
 * (zero for most visitors, skewed among purchasers, capped at the 99th percentile as the results
 * cap it, revenue.ts), over a grid of rates from 2% to 20% and lifts from −10% to +20%.
 *
 * The allowance: a run misses with probability at most α = 5% if the promise holds, so the
 * misses of R runs are at most Binomial(R, α) in distribution, and the check allows the
 * smallest count k with P(X > k) ≤ 1/1000 there (binomialAllowance): a sound interval fails it
 * for one seed in 1000, and the seed is fixed. Pooled over the grid the runs are many enough
 * that the allowance is within a point of 5%: the "95% − 1%" the issue asks for.
 */

const ALPHA = 0.05;
const LOOKS = 20;
const RATES = [0.02, 0.05, 0.1, 0.2];
const LIFTS = [-0.1, 0, 0.1, 0.2];

/** An arm's cumulative visitors and purchasers by amount (one amount: a conversion). */
interface Tally {
  n: number;
  buyers: number[];
}

const emptyTally = (amounts: number): Tally => ({ n: 0, buyers: Array(amounts).fill(0) });

/** How a run reads its arms: as 0/1 conversions, or as capped revenue per visitor. */
type Metric = 'conversion' | 'revenue';

/** Both arms at one look, read as the results read the metric. */
function lookOf(metric: Metric, arms: readonly [Tally, Tally]): Look {
  if (metric === 'conversion') {
    const [control, variant] = arms.map(({ n, buyers }) => ({
      n,
      sum: buyers[0]!,
      sumSquares: buyers[0]!,
    })) as [ArmSample, ArmSample];
    return { control, variant };
  }
  const histograms = arms.map(({ buyers }) =>
    buyers.map((visitors, i): RevenueBucket => ({ revenueMinor: AMOUNTS[i]!, visitors })),
  );
  // Capped at the 99th percentile of all arms' purchasers together, as the results page does.
  const cap = revenueQuantile(histograms.flat(), 0.99) ?? undefined;
  const [control, variant] = arms.map(({ n }, i) => revenueStatistics(n, histograms[i]!, cap));
  return { control: control!, variant: variant! };
}

/**
 * One run: visitors split at random over `looks` looks up to the plan, each buying at the arm's
 * rate (the variant's times 1 + lift), a buyer's amount drawn from AMOUNT_SHARES. Both arms'
 * amounts share one distribution and one cap, so the true relative lift of capped revenue per
 * visitor is the lift of the purchase rate. The shown relative interval at each look.
 */
function relativeIntervals(
  metric: Metric,
  rate: number,
  lift: number,
  plannedPerArm: number,
  looks: number,
  random: Random,
): (Interval | null)[] {
  const shares = metric === 'conversion' ? [1] : AMOUNT_SHARES;
  const arms = [emptyTally(shares.length), emptyTally(shares.length)] as const;
  const rates = [rate, rate * (1 + lift)];
  const read: Look[] = [];
  for (const arrivals of arrivalsPerLook(plannedPerArm, looks)) {
    const toVariant = binomial(arrivals, 0.5, random);
    for (const [i, visitors] of [arrivals - toVariant, toVariant].entries()) {
      const arm = arms[i]!;
      arm.n += visitors;
      const bought = multinomial(binomial(visitors, rates[i]!, random), shares, random);
      for (const [j, count] of bought.entries()) arm.buyers[j]! += count;
    }
    read.push(lookOf(metric, arms));
  }
  return runningComparisons(read, plannedPerArm).map((shown) => shown?.relativeInterval ?? null);
}

const holds = (interval: Interval | null, truth: number) =>
  interval === null || (interval.lower <= truth && truth <= interval.upper);

/** Misses (runs whose shown interval left out the true lift at some look) per cell of the grid. */
function coverageGrid(metric: Metric, runsPerCell: number, seed: number) {
  const random = mulberry32(seed);
  return RATES.flatMap((rate) =>
    LIFTS.map((lift) => {
      const plannedPerArm = plannedVisitorsPerArm({ baselineRate: rate, relativeLift: 0.1 });
      let misses = 0;
      for (let run = 0; run < runsPerCell; run++) {
        const shown = relativeIntervals(metric, rate, lift, plannedPerArm, LOOKS, random);
        if (!shown.every((interval) => holds(interval, lift))) misses++;
      }
      return { rate, lift, misses };
    }),
  );
}

const percent = (share: number) => `${(share * 100).toFixed(1)}%`;

function report(metric: Metric, grid: ReturnType<typeof coverageGrid>, runsPerCell: number) {
  const cells = grid.map(
    ({ rate, lift, misses }) =>
      `${percent(rate)} ${lift >= 0 ? '+' : ''}${percent(lift)}: ${percent(1 - misses / runsPerCell)}`,
  );
  console.info(`${metric}, coverage at every look jointly: ${cells.join('; ')}`);
}

/**
 * Runs per cell: 16 cells × 300 runs × 20 looks, about 1.3 s of CPU for conversions and 1.8 s for
 * revenue (its cap sorts the histogram at every look).
 */
const RUNS_PER_CELL = 300;

describe('the relative interval holds the true relative lift at every look', () => {
  const pooledRuns = RUNS_PER_CELL * RATES.length * LIFTS.length;

  it('allows 288 misses of 4,800 pooled runs (6.0%), 28 of 300 in a cell', () => {
    expect(binomialAllowance(pooledRuns, ALPHA)).toBe(288);
    expect(binomialAllowance(RUNS_PER_CELL, ALPHA)).toBe(28);
  });

  for (const [metric, seed] of [
    ['conversion', 20_261_128],
    ['revenue', 20_261_129],
  ] as const) {
    it(`for ${metric}s, rates 2–20%, lifts −10% to +20%`, { timeout: 30_000 }, () => {
      const grid = coverageGrid(metric, RUNS_PER_CELL, seed);
      report(metric, grid, RUNS_PER_CELL);
      for (const { misses } of grid) {
        expect(misses).toBeLessThanOrEqual(binomialAllowance(RUNS_PER_CELL, ALPHA));
      }
      const pooledMisses = grid.reduce((sum, { misses }) => sum + misses, 0);
      expect(pooledMisses).toBeLessThanOrEqual(binomialAllowance(pooledRuns, ALPHA));
    });
  }
});

/**
 * Continuous peeking: an A/A test on revenue per visitor read 200 times up to 20,000 visitors
 * per arm (a look every 100 visitors), as revenue-per-visitor.test.ts draws it. The relative
 * interval symmetric about the ratio (gbstats' delta method) left out 0 at some look in 7-11% of
 * such runs: with few purchasers the ratio of two skewed means is skewed too, and an interval
 * symmetric about it misses on its short side. On the log of the ratio it stays under 5%.
 *
 * The runs are many enough that the bound would catch that defect again: 300 runs allowed 28
 * misses (9.3%), which a 7% interval passes. 2,000 runs allow the misses a sound interval (5%)
 * exceeds for one seed in 20 (the seed is fixed), and a 7% one stays within that for fewer
 * than one seed in 20. About 2.2 s alone, as the 300 runs of 1,000 looks took.
 */
describe('the relative interval on revenue, A/A under continuous peeking', () => {
  const runs = 2_000;
  const plannedPerArm = 20_000;
  const allowed = binomialAllowance(runs, ALPHA, 0.05);

  it('allows 116 of 2,000 runs (5.8%), which a 7% interval exceeds in 19 seeds of 20', () => {
    expect(allowed).toBe(116);
    // The 5th percentile of a 7% interval's misses: above the allowance, so it fails.
    expect(binomialAllowance(runs, 0.07, 0.95)).toBeGreaterThan(allowed);
  });

  it('leaves out 0 at some look in no more runs than that', { timeout: 30_000 }, () => {
    const random = mulberry32(20_261_130);
    let excluded = 0;
    for (let run = 0; run < runs; run++) {
      const shown = relativeIntervals('revenue', 0.03, 0, plannedPerArm, 200, random);
      if (!shown.every((interval) => holds(interval, 0))) excluded++;
    }
    console.info(
      `A/A revenue, 200 looks: relative interval left out 0 in ${percent(excluded / runs)}`,
    );
    expect(excluded).toBeLessThanOrEqual(allowed);
  });
});
