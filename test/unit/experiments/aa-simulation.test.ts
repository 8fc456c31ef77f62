import { beforeAll, describe, expect, it } from 'vitest';
import {
  inCoverage,
  inRange,
  layerBucket,
  pickVariant,
} from '../../../worker/experiments/assignment/assign';
import {
  type ArmCounts,
  checkSampleRatio,
  judgeVariant,
  type Look,
} from '../../../worker/experiments/statistics/statistics';
import { binomialAllowance, mulberry32, type Random } from './simulation';
import { seededVisitorIds } from './visitor-ids';

/**
 * Two experiments running at once in different layers, over the same visitors, each read as the
 * results read it (statistics.ts: the always-valid verdict at every daily look, over the looks
 * before it, withheld under a sample-ratio alarm). Every visitor is hashed into both by the edge's
 * own assignment (assign.ts), layers, ranges and coverage included, and converts at a rate that
 * depends on the arms they are in. Each run draws new visitors and new experiment seeds.
 *
 * - Both A/A: each experiment declares a difference, at any of its daily looks, in no more runs
 *   than α allows, and its measured difference averages 0 over the runs.
 * - A doubles conversion, B A/A: B still declares no more often and its difference still
 *   averages 0, so B's verdict does not see A's arm. A finds its effect in most runs: there is
 *   an effect that could leak.
 * - The same, but B drawn with A's hash: B takes A's effect for its own, and both checks fail.
 *   The simulation can see the leak that separate seeds prevent.
 *
 * The allowance: with a true false-positive rate of at most α, the count of runs declaring is at
 * most Binomial(runs, α) in distribution; the test allows the smallest count k with P(X > k) ≤
 * 1/1000 there (41 of 500, 8.2%, against 25 expected). A sound procedure fails it for at most one
 * seed in 1000, and the seed is fixed. The always-valid verdicts declare far below α (about 0.5%
 * of runs here), so the mean difference is the sharper test of a leak: the runs are
 * independent, and beyond 3.29 standard errors (two-sided 1/1000) its mean is not 0.
 */

/** The results' α (statistics.ts), two-sided. */
const ALPHA = 0.05;
const RUNS = 500;
const VISITORS_PER_RUN = 2_000;
/** Looks, one per exposure day, as the results take them. */
const DAYS = 10;
const BASE_RATE = 0.1;
/** A's variant converts this many times as often in the runs with an effect: a leak would show. */
const A_LIFT = 2;

type Arm = 'control' | 'b';
const ARMS: readonly Arm[] = ['control', 'b'];
const HALVES = [
  ['control', 1],
  ['b', 1],
] as const;

/** A: the flow layer, 80% of its buckets, 90% coverage. B: the paywall layer, the top 70%. */
const A = { layer: 'flow', range: [0, 0.8] as const, coverage: 0.9 };
const B = { layer: 'paywall', range: [0.3, 1] as const, coverage: 1 };
const PLANNED_A = Math.round((VISITORS_PER_RUN * 0.8 * 0.9) / 2);
const PLANNED_B = Math.round((VISITORS_PER_RUN * 0.7) / 2);

/** One experiment's exposures and conversions by day, read at the end of each day. */
class Reading {
  private readonly days = Array.from({ length: DAYS }, () => ({
    control: { n: 0, converted: 0 },
    b: { n: 0, converted: 0 },
  }));

  constructor(private readonly plannedPerArm: number) {}

  add(day: number, arm: Arm, converted: boolean): void {
    const cell = this.days[day]![arm];
    cell.n++;
    if (converted) cell.converted++;
  }

  /**
   * Whether the results would have shown 'better' or 'worse' at some look; the last look's
   * sample-ratio alarm and difference of conversion rates (b − control).
   */
  read(): { declared: 'better' | 'worse' | null; srmAlarm: boolean; lift: number | null } {
    const totals = { control: { n: 0, converted: 0 }, b: { n: 0, converted: 0 } };
    const earlierLooks: Look[] = [];
    let declared: 'better' | 'worse' | null = null;
    let srmAlarm = false;
    let lift: number | null = null;
    for (const day of this.days) {
      for (const arm of ARMS) {
        totals[arm].n += day[arm].n;
        totals[arm].converted += day[arm].converted;
      }
      const counts = (arm: Arm): ArmCounts => ({
        n: totals[arm].n,
        sum: totals[arm].converted,
        sumSquares: totals[arm].converted,
        nonZero: totals[arm].converted,
      });
      srmAlarm = checkSampleRatio(ARMS.map((arm) => ({ exposed: totals[arm].n, weight: 1 }))).alarm;
      const { verdict, comparison } = judgeVariant({
        control: counts('control'),
        variant: counts('b'),
        plannedPerArm: this.plannedPerArm,
        srmAlarm,
        earlierLooks,
      });
      if (declared === null && (verdict === 'better' || verdict === 'worse')) declared = verdict;
      lift = comparison?.absoluteLift ?? null;
      earlierLooks.push({ control: counts('control'), variant: counts('b') });
    }
    return { declared, srmAlarm, lift };
  }
}

interface Tally {
  declared: number;
  better: number;
  srmAlarms: number;
  /** Each run's final difference of conversion rates. */
  lifts: number[];
}

const tally = (): Tally => ({ declared: 0, better: 0, srmAlarms: 0, lifts: [] });

function record(into: Tally, reading: Reading): void {
  const { declared, srmAlarm, lift } = reading.read();
  if (declared !== null) into.declared++;
  if (declared === 'better') into.better++;
  if (srmAlarm) into.srmAlarms++;
  if (lift !== null) into.lifts.push(lift);
}

/** How many standard errors the runs' mean difference lies from 0. */
function meanLiftZ(lifts: readonly number[]): number {
  const mean = lifts.reduce((a, b) => a + b, 0) / lifts.length;
  const variance = lifts.reduce((a, b) => a + (b - mean) ** 2, 0) / (lifts.length - 1);
  return mean / Math.sqrt(variance / lifts.length);
}
const Z_ONE_IN_1000 = 3.29;

/** Every reading of every run. */
interface Outcomes {
  aaA: Tally;
  aaB: Tally;
  effectA: Tally;
  effectB: Tally;
  /** B drawn with A's seed, in the run with A's effect. */
  sharedHashB: Tally;
}

function simulate(random: Random): Outcomes {
  const outcomes: Outcomes = {
    aaA: tally(),
    aaB: tally(),
    effectA: tally(),
    effectB: tally(),
    sharedHashB: tally(),
  };
  const nextId = seededVisitorIds(random);
  for (let run = 0; run < RUNS; run++) {
    const seedA = `E-a${run}`;
    const seedB = `E-b${run}`;
    const aa = { a: new Reading(PLANNED_A), b: new Reading(PLANNED_B) };
    const effect = {
      a: new Reading(PLANNED_A),
      b: new Reading(PLANNED_B),
      sharedHashB: new Reading(PLANNED_B),
    };
    for (let i = 0; i < VISITORS_PER_RUN; i++) {
      const id = nextId();
      const day = Math.floor((i * DAYS) / VISITORS_PER_RUN);
      const inA = inRange(layerBucket(A.layer, id), A.range) && inCoverage(seedA, id, A.coverage);
      const inB = inRange(layerBucket(B.layer, id), B.range) && inCoverage(seedB, id, B.coverage);
      const armA = inA ? (pickVariant(seedA, id, HALVES) as Arm) : null;
      // One uniform per visitor: the same visitor converts in both runs unless A's effect lifts them.
      const u = random();
      const convertsAA = u < BASE_RATE;
      const convertsEffect = u < BASE_RATE * (armA === 'b' ? A_LIFT : 1);
      if (armA !== null) {
        aa.a.add(day, armA, convertsAA);
        effect.a.add(day, armA, convertsEffect);
      }
      if (inB) {
        const armB = pickVariant(seedB, id, HALVES) as Arm;
        aa.b.add(day, armB, convertsAA);
        effect.b.add(day, armB, convertsEffect);
        effect.sharedHashB.add(day, pickVariant(seedA, id, HALVES) as Arm, convertsEffect);
      }
    }
    record(outcomes.aaA, aa.a);
    record(outcomes.aaB, aa.b);
    record(outcomes.effectA, effect.a);
    record(outcomes.effectB, effect.b);
    record(outcomes.sharedHashB, effect.sharedHashB);
  }
  return outcomes;
}

const percent = (count: number) => `${((count / RUNS) * 100).toFixed(1)}%`;

describe(`two overlapping experiments in different layers, ${RUNS} simulated runs`, () => {
  let outcomes: Outcomes;
  const allowed = binomialAllowance(RUNS, ALPHA);

  // About 1.7 s of CPU (a million visitors hashed, 12 500 readings); the timeout leaves room
  // for a machine busy with other files.
  beforeAll(() => {
    outcomes = simulate(mulberry32(20_260_502));
    const { aaA, aaB, effectA, effectB, sharedHashB } = outcomes;
    console.info(
      `A/A + A/A: A declared in ${percent(aaA.declared)}, B in ${percent(aaB.declared)}; ` +
        `A ×${A_LIFT} + A/A: A better in ${percent(effectA.better)}, B declared in ` +
        `${percent(effectB.declared)}; B on A's hash: ${percent(sharedHashB.declared)} ` +
        `(allowed ${allowed} of ${RUNS}). Mean difference, z: A/A ${meanLiftZ(aaA.lifts).toFixed(2)}, ` +
        `${meanLiftZ(aaB.lifts).toFixed(2)}; A ${meanLiftZ(effectA.lifts).toFixed(1)}, ` +
        `B ${meanLiftZ(effectB.lifts).toFixed(2)}, B on A's hash ${meanLiftZ(sharedHashB.lifts).toFixed(1)}`,
    );
  }, 30_000);

  it('allows 41 false positives of 500 at α = 0.05, against 25 expected', () => {
    expect(allowed).toBe(41);
  });

  it('both A/A: each declares a difference in no more runs than α allows', () => {
    expect(outcomes.aaA.declared).toBeLessThanOrEqual(allowed);
    expect(outcomes.aaB.declared).toBeLessThanOrEqual(allowed);
  });

  it('both A/A: the hashed split raises the sample-ratio alarm no more than its 0.1%', () => {
    const allowedAlarms = binomialAllowance(RUNS, 0.001);
    expect(outcomes.aaA.srmAlarms).toBeLessThanOrEqual(allowedAlarms);
    expect(outcomes.aaB.srmAlarms).toBeLessThanOrEqual(allowedAlarms);
  });

  it('both A/A: each one’s measured difference averages 0 over the runs', () => {
    expect(Math.abs(meanLiftZ(outcomes.aaA.lifts))).toBeLessThan(Z_ONE_IN_1000);
    expect(Math.abs(meanLiftZ(outcomes.aaB.lifts))).toBeLessThan(Z_ONE_IN_1000);
  });

  it('A with a real effect, B A/A: A finds it, and B declares no more often than α allows', () => {
    expect(outcomes.effectA.better).toBeGreaterThan(RUNS / 2);
    expect(outcomes.effectB.declared).toBeLessThanOrEqual(allowed);
  });

  it('A with a real effect, B A/A: B’s measured difference still averages 0', () => {
    expect(meanLiftZ(outcomes.effectA.lifts)).toBeGreaterThan(Z_ONE_IN_1000);
    expect(Math.abs(meanLiftZ(outcomes.effectB.lifts))).toBeLessThan(Z_ONE_IN_1000);
  });

  it('B drawn with A’s hash would take A’s effect for its own: the tests can see a leak', () => {
    expect(outcomes.sharedHashB.declared).toBeGreaterThan(allowed);
    expect(meanLiftZ(outcomes.sharedHashB.lifts)).toBeGreaterThan(Z_ONE_IN_1000);
  });
});
