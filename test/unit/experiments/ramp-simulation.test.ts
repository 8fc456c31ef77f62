import { describe, expect, it } from 'vitest';
import type { RampDocument } from '../../../shared/config/ramp';
import {
  type ArmSignals,
  movedRamp,
  readRamp,
} from '../../../worker/experiments/ramps/ramp-engine';
import { binomial, binomialAllowance, mulberry32, type Random } from './simulation';

/**
 * Guarded ramps simulated (docs/statistics.md, "Guarded ramps"): the engine
 * (worker/experiments/ramps/ramp-engine.ts) looks at the arms' counts every 15 minutes, as the
 * cron does, and its moves are applied to the ramp, from its first step through its last.
 * Seeded: the same numbers on every run. An A/A ramp (no difference at all) is rolled back in at
 * most α of runs, and a variant that doubles the decline rate is rolled back within the number
 * of exposures docs/statistics.md states in at least 95% of runs.
 */

const HOUR_MS = 60 * 60 * 1000;
const LOOK_MS = 15 * 60 * 1000;
/** Matching visitors an hour: at 5% coverage, 100 exposed an hour in the two arms. */
const VISITORS_PER_HOUR = 1_000;
const START = Date.parse('2026-12-01T00:00Z');

const RAMP: RampDocument = {
  steps: [
    { coverage: 0.05, holdHours: 24, minPerArm: 500 },
    { coverage: 0.25, holdHours: 24, minPerArm: 2_000 },
    { coverage: 0.5, holdHours: 24, minPerArm: 0 },
  ],
  state: { step: 0, since: new Date(START).toISOString(), status: 'running' },
};

interface Rates {
  /** The share of exposed who convert on the primary metric (buy). */
  conversion: number;
  decline: number;
  /** The share of declines that are checkout errors (class processing_error). */
  error: number;
  refund: number;
  /** The share of exposed the worker answers a 5xx, and whose page reports an error. */
  serverError: number;
  clientError: number;
}

const CONTROL: Rates = {
  conversion: 0.05,
  decline: 0.03,
  error: 0.2,
  refund: 0.01,
  serverError: 0.005,
  clientError: 0.01,
};

/** Adds `n` exposed visitors of an arm with these rates to its counts. */
function expose(arm: ArmSignals, n: number, rates: Rates, random: Random): void {
  const declines = binomial(n, rates.decline, random);
  arm.exposed += n;
  const bought = binomial(n, rates.conversion, random);
  arm.conversions += bought;
  arm.purchases += bought;
  arm.declines += declines;
  arm.checkoutErrors += binomial(declines, rates.error, random);
  arm.refunds += binomial(n, rates.refund, random);
  arm.serverErrors += binomial(n, rates.serverError, random);
  arm.clientErrors += binomial(n, rates.clientError, random);
}

interface Run {
  rolledBack: boolean;
  /** Held by a guardrail (the sample ratio, by default): it waits for a person. */
  held: boolean;
  /** Both arms' exposed when rolled back, or at the end. */
  exposed: number;
  reachedStep: number;
}

/** One ramp over `days`: a look every 15 minutes, each move applied as the cron publishes it. */
function simulate(
  variantRates: Rates,
  days: number,
  random: Random,
  controlRates: Rates = CONTROL,
): Run {
  let ramp = RAMP;
  const control: ArmSignals = {
    exposed: 0,
    conversions: 0,
    purchases: 0,
    declines: 0,
    checkoutErrors: 0,
    serverErrors: 0,
    clientErrors: 0,
    refunds: 0,
  };
  const variant: ArmSignals = { ...control };
  let reachedStep = 0;
  for (let now = START + LOOK_MS; now <= START + days * 24 * HOUR_MS; now += LOOK_MS) {
    const coverage = ramp.steps[ramp.state.step]!.coverage;
    const arriving = (VISITORS_PER_HOUR * LOOK_MS) / HOUR_MS;
    const inTest = binomial(arriving, 2 * coverage, random);
    const toVariant = binomial(inTest, 0.5, random);
    expose(variant, toVariant, variantRates, random);
    expose(control, inTest - toVariant, controlRates, random);
    const { move } = readRamp(
      ramp,
      // The primary is the purchase: conversions are the purchases.
      { control, variant, primaryBuys: true, lcpWorse: false, inpWorse: false },
      { now, startedAt: START, plannedPerArm: 2_000 },
    );
    const exposed = control.exposed + variant.exposed;
    if (move.kind === 'rollback') return { rolledBack: true, held: false, exposed, reachedStep };
    if (move.kind === 'hold') return { rolledBack: false, held: true, exposed, reachedStep };
    ramp = movedRamp(ramp, move, now);
    reachedStep = ramp.state.step;
  }
  return {
    rolledBack: false,
    held: false,
    exposed: control.exposed + variant.exposed,
    reachedStep,
  };
}

describe('guarded ramps, simulated', () => {
  it('rolls back or holds an A/A ramp in at most α of runs, and ramps the rest to the end', () => {
    const random = mulberry32(62_001);
    const runs = Array.from({ length: 300 }, () => simulate(CONTROL, 3, random));
    const stopped = runs.filter((run) => run.rolledBack || run.held).length;
    // α = 0.05: more than the allowance would fail a sound engine for one seed in a thousand.
    expect(stopped).toBeLessThanOrEqual(binomialAllowance(runs.length, 0.05));
    const finished = runs.filter((run) => !run.rolledBack && !run.held);
    expect(finished.every((run) => run.reachedStep === RAMP.steps.length - 1)).toBe(true);
    console.info(
      `A/A: ${runs.filter((run) => run.rolledBack).length} rolled back, ${runs.filter((run) => run.held).length} held of ${runs.length}`,
    );
  });

  it('rolls back a variant that doubles the decline rate within the documented exposures', () => {
    const random = mulberry32(62_002);
    const doubled: Rates = { ...CONTROL, decline: 2 * CONTROL.decline };
    const runs = Array.from({ length: 300 }, () => simulate(doubled, 3, random));
    const within = runs.filter((run) => run.rolledBack && run.exposed <= DOCUMENTED_EXPOSURES);
    const sorted = runs
      .map((run) => (run.rolledBack ? run.exposed : Infinity))
      .sort((a, b) => a - b);
    console.info(
      `doubled declines: median ${sorted[150]}, 95th percentile ${sorted[284]} exposed at rollback`,
    );
    expect(within.length / runs.length).toBeGreaterThanOrEqual(0.95);
  });
});

/** docs/statistics.md, "Guarded ramps": 3% declines doubled are rolled back by this many exposed. */
const DOCUMENTED_EXPOSURES = 6_000;

/**
 * docs/statistics.md, "Guarded ramps", the time to rollback per base rate: what breaks, the
 * control's rates and the variant's, and the exposed (both arms) by which it is rolled back in at
 * least 95% of runs. A Pay button that never works: no purchase, so no decline either.
 */
const TIME_TO_ROLLBACK = [
  ['declines doubled from 1%', { decline: 0.01 }, { decline: 0.02 }, 16_000],
  ['declines doubled from 3%', { decline: 0.03 }, { decline: 0.06 }, 5_000],
  ['declines doubled from 5%', { decline: 0.05 }, { decline: 0.1 }, 3_000],
  ['no purchase, from 2% buying', { conversion: 0.02 }, { conversion: 0, decline: 0 }, 2_500],
  ['no purchase, from 5% buying', { conversion: 0.05 }, { conversion: 0, decline: 0 }, 1_000],
  ['no purchase, from 10% buying', { conversion: 0.1 }, { conversion: 0, decline: 0 }, 550],
  ['purchases halved, from 5% buying', { conversion: 0.05 }, { conversion: 0.025 }, 6_500],
  ['server errors doubled from 0.5%', { serverError: 0.005 }, { serverError: 0.01 }, 33_000],
  ['server errors from 0.5% to 5%', { serverError: 0.005 }, { serverError: 0.05 }, 3_000],
  ['server errors from 0.1% to 5%', { serverError: 0.001 }, { serverError: 0.05 }, 3_000],
] as const satisfies readonly (readonly [string, Partial<Rates>, Partial<Rates>, number])[];

describe('the time to roll back, per base rate', () => {
  it.each(TIME_TO_ROLLBACK)('%s', (what, control, variant, documented) => {
    const random = mulberry32(62_010);
    const controlRates = { ...CONTROL, ...control };
    const variantRates = { ...controlRates, ...variant };
    const runs = Array.from({ length: 300 }, () => simulate(variantRates, 3, random, controlRates));
    const sorted = runs
      .map((run) => (run.rolledBack ? run.exposed : Infinity))
      .sort((a, b) => a - b);
    console.info(`${what}: median ${sorted[150]}, 95th percentile ${sorted[284]} exposed`);
    expect(sorted[284]).toBeLessThanOrEqual(documented);
  });
});

/**
 * Why the control is an equal band and not "everyone else" (research: guarded-experiments.md
 * §B.3 (a), §B.4 item 6): with a baseline that changes by day (a sale day with more declines),
 * a variant with no effect at all, ramped 5 %, 25 %, 50 % a day each, and its arms pooled over
 * the days. An equal-size control meets the same days in the same proportion, so the pooled
 * difference is unbiased; "everyone else" as the control has most of its visitors on the first
 * day, the variant most of its on the last, and the difference measures the days.
 */
describe('the equal-size control', () => {
  it('stays unbiased over a changing baseline where "everyone else" does not', () => {
    const random = mulberry32(62_003);
    const days = [
      { coverage: 0.05, rate: 0.02 },
      { coverage: 0.25, rate: 0.03 },
      { coverage: 0.5, rate: 0.05 },
    ];
    const perDay = 20_000;
    const errors = { equal: 0, everyoneElse: 0 };
    const runs = 1_000;
    for (let run = 0; run < runs; run++) {
      const arms = {
        equal: { variant: [0, 0], control: [0, 0] },
        everyoneElse: { variant: [0, 0], control: [0, 0] },
      };
      for (const { coverage, rate } of days) {
        const variant = binomial(perDay, coverage, random);
        const control = binomial(perDay - variant, coverage / (1 - coverage), random);
        const add = (arm: number[], n: number) => {
          arm[0]! += n;
          arm[1]! += binomial(n, rate, random);
        };
        add(arms.equal.variant, variant);
        add(arms.equal.control, control);
        add(arms.everyoneElse.variant, variant);
        add(arms.everyoneElse.control, perDay - variant);
      }
      const rate = (arm: number[]) => arm[1]! / arm[0]!;
      for (const design of ['equal', 'everyoneElse'] as const)
        errors[design] += rate(arms[design].variant) - rate(arms[design].control);
    }
    const meanEqual = errors.equal / runs;
    const meanEveryoneElse = errors.everyoneElse / runs;
    console.info(
      `mean error of the decline rate's difference: equal control ${meanEqual.toFixed(5)}, everyone else ${meanEveryoneElse.toFixed(5)}`,
    );
    // The true difference is 0. Each run's standard error is about 0.002; over 1,000 runs the
    // mean's is about 0.00006.
    expect(Math.abs(meanEqual)).toBeLessThan(0.0003);
    expect(meanEveryoneElse).toBeGreaterThan(0.005);
  });
});
