import { describe, expect, it } from 'vitest';
import type { VitalMetric } from '../../../shared/analytics/vitals';
import { seededRandom } from '../../../shared/seeded-random';
import { bucketOf } from '../../../worker/experiments/statistics/vitals-histogram';
import type { ExperimentExposure } from '../../../worker/experiments/store/every-experiment-statements';
import {
  drawPageVitals,
  resolveVitalsShifts,
  SIMULATED_VITALS,
  simulateVitals,
} from '../../../worker/simulation/simulated-vitals';

/**
 * The field vitals `npm run experiments -- simulate` writes (worker/simulation/simulated-vitals.ts):
 * over many draws, each metric has the median, spread and shares the docs state, a variant's
 * `--vitals` change moves its p75 by that much, and the sample is the worker's rate of visitors.
 * What the results make of them is test/worker/experiments/simulate-route.test.ts.
 */

const DRAWS = 20_000;
const SAME = { lcp: 1, inp: 1, cls: 1 };

function quantile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil(p * sorted.length) - 1]!;
}

function spreadOfLogs(values: readonly number[]): number {
  const logs = values.map(Math.log);
  const mean = logs.reduce((sum, value) => sum + value, 0) / logs.length;
  return Math.sqrt(logs.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (logs.length - 1));
}

function pages(platform: string, factors = SAME, seed = 1) {
  const random = seededRandom(seed);
  return Array.from({ length: DRAWS }, () => drawPageVitals(random, platform, factors));
}

const valuesOf = (drawn: ReturnType<typeof pages>, metric: VitalMetric) =>
  drawn.flatMap((page) => (page[metric] === undefined ? [] : [page[metric]]));

describe('a simulated page’s vitals', () => {
  it('draw LCP log-normal around its median with the stated spread, on every page', () => {
    const lcp = valuesOf(pages('android'), 'lcp');
    expect(lcp).toHaveLength(DRAWS);
    const { median, sigma } = SIMULATED_VITALS.lcp;
    expect(Math.abs(quantile(lcp, 0.5) / median - 1)).toBeLessThan(0.03);
    expect(Math.abs(spreadOfLogs(lcp) - sigma)).toBeLessThan(0.02);
    // p75 = median · e^(0.674·σ): 2,698 ms, "needs improvement".
    expect(Math.abs(quantile(lcp, 0.75) / 2698 - 1)).toBeLessThan(0.03);
  });

  it('have an INP on the share of pages someone used, log-normal around its median', () => {
    const inp = valuesOf(pages('ios'), 'inp');
    const { share, median, sigma } = SIMULATED_VITALS.inp;
    expect(Math.abs(inp.length / DRAWS - share)).toBeLessThan(0.015);
    expect(Math.abs(quantile(inp, 0.5) / median - 1)).toBeLessThan(0.04);
    expect(Math.abs(spreadOfLogs(inp.filter((value) => value > 0)) - sigma)).toBeLessThan(0.03);
  });

  it('have a CLS only from Chromium: 0 on most pages, a log-normal tail on the others', () => {
    expect(valuesOf(pages('ios'), 'cls')).toEqual([]);
    const cls = valuesOf(pages('desktop'), 'cls');
    expect(cls).toHaveLength(DRAWS);
    const { zeroShare, median } = SIMULATED_VITALS.cls;
    const zeros = cls.filter((value) => value === 0).length;
    expect(Math.abs(zeros / DRAWS - zeroShare)).toBeLessThan(0.015);
    const tail = cls.filter((value) => value > 0);
    expect(Math.abs(quantile(tail, 0.5) / median - 1)).toBeLessThan(0.06);
    // The 75th percentile lies in the tail: its 0.286 quantile, 0.023.
    expect(quantile(cls, 0.75)).toBeGreaterThan(0.019);
    expect(quantile(cls, 0.75)).toBeLessThan(0.027);
  });

  it('are values as a page sends them: whole ms, CLS to four decimals, within the maxima', () => {
    const drawn = pages('android');
    const unsent = drawn.filter(
      (page) =>
        !Number.isInteger(page.lcp) ||
        (page.inp !== undefined && !Number.isInteger(page.inp)) ||
        Math.round(page.cls! * 10_000) / 10_000 !== page.cls,
    );
    expect(unsent).toEqual([]);
    expect(Math.max(...valuesOf(drawn, 'lcp'))).toBeLessThanOrEqual(120_000);
  });

  it('move by a variant’s change: its p75 that much higher, its pages otherwise alike', () => {
    const base = pages('android');
    const slower = pages('android', { lcp: 1.1, inp: 0.8, cls: 1.5 });
    const ratio = (metric: VitalMetric) =>
      quantile(valuesOf(slower, metric), 0.75) / quantile(valuesOf(base, metric), 0.75);
    expect(ratio('lcp')).toBeCloseTo(1.1, 2);
    expect(ratio('inp')).toBeCloseTo(0.8, 2);
    expect(ratio('cls')).toBeCloseTo(1.5, 1);
    // The same draws, scaled: a page with no shift has none in the slower variant either.
    expect(slower.map((page) => page.inp === undefined)).toEqual(
      base.map((page) => page.inp === undefined),
    );
    expect(slower.filter((page) => page.cls === 0)).toHaveLength(
      base.filter((page) => page.cls === 0).length,
    );
  });
});

const EXPOSURES: readonly ExperimentExposure[] = Array.from({ length: DRAWS }, (_, index) => ({
  experiment: 'lp-ai',
  phase: 1,
  variant: index % 2 === 0 ? 'a' : 'b',
  visitorId: `visitor-${index}`,
  configVersion: 'v1+v1',
  at: 0,
  segments: {
    country: 'US',
    source: 'tiktok',
    platform: index % 3 === 0 ? 'ios' : 'android',
    in_app: 'none',
    language: 'en',
    route: 'default',
  },
}));

describe('the simulated visitors’ samples', () => {
  const factors = { a: SAME, b: { lcp: 1.2, inp: 1, cls: 1 } };
  const sample = (sampleRate: number, seed = 3) =>
    simulateVitals(EXPOSURES, { random: seededRandom(seed), sampleRate, factors });

  it('are the share of visitors the worker samples, each in the arm their exposure holds', () => {
    const tenth = sample(0.1);
    expect(Math.abs(tenth.length / DRAWS - 0.1)).toBeLessThan(0.006);
    expect(sample(1)).toHaveLength(DRAWS);
    expect(sample(0)).toEqual([]);
    const variantOf = new Map(EXPOSURES.map((e) => [e.visitorId, e.variant]));
    const misplaced = tenth.filter(
      ({ visitorId, arms, buckets }) =>
        arms.length !== 1 ||
        arms[0]!.experiment !== 'lp-ai' ||
        arms[0]!.variant !== variantOf.get(visitorId) ||
        !(buckets.lcp! > 0),
    );
    expect(misplaced).toEqual([]);
  });

  it('repeat with the seed, and a larger rate adds visitors without changing anyone’s values', () => {
    expect(sample(0.1)).toEqual(sample(0.1));
    expect(sample(0.1, 4)).not.toEqual(sample(0.1));
    const half = new Map(sample(0.5).map((s) => [s.visitorId, JSON.stringify(s.buckets)]));
    const tenth = sample(0.1);
    expect(tenth.filter((s) => half.get(s.visitorId) !== JSON.stringify(s.buckets))).toEqual([]);
  });

  it('carry each variant’s change into its histogram buckets', () => {
    const all = sample(1);
    const p75Bucket = (variant: string) =>
      quantile(
        all.filter((s) => s.arms[0]!.variant === variant).map((s) => s.buckets.lcp!),
        0.75,
      );
    // log(1.2) / log(1.02) ≈ 9 buckets of 2 % apart, give or take the draws' noise.
    expect(p75Bucket('b') - p75Bucket('a')).toBeGreaterThanOrEqual(7);
    expect(p75Bucket('b') - p75Bucket('a')).toBeLessThanOrEqual(11);
    expect(p75Bucket('a')).toBeCloseTo(bucketOf('lcp', 2698), -1);
  });
});

describe('--vitals, resolved against the experiment', () => {
  it('gives each variant its factors, 1 where nothing is changed', () => {
    expect(resolveVitalsShifts(['a', 'b'], { b: { lcp: 10, cls: -50 } })).toEqual({
      ok: true,
      value: { a: SAME, b: { lcp: 1.1, inp: 1, cls: 0.5 } },
    });
  });

  it('refuses a variant the experiment lacks', () => {
    expect(resolveVitalsShifts(['a', 'b'], { c: { lcp: 10 } })).toEqual({
      ok: false,
      error: '--vitals names variant "c", which the experiment does not have (it has a, b)',
    });
  });
});
