import { describe, expect, it } from 'vitest';
import { plannedVisitorsPerArm } from '../../../shared/statistics/planned-sample';
import {
  type ArmCounts,
  judgeVariant,
  type Look,
  type Verdict,
} from '../../../worker/experiments/statistics/statistics';
import { arrivalsPerLook, binomial, mulberry32, type Random } from './simulation';

/**
 * The planned sample the console offers (shared/statistics/planned-sample.ts) against the
 * results' own verdict (worker/experiments/statistics/statistics.ts judgeVariant): an experiment that runs
 * to the planned sample, looked at once a day for 20 days, must show *better* (or *worse* for a
 * fall) as often as the plan promises. The verdict needs the relative lift's interval to leave
 * out 0 as well as the difference's.
 */

const POWER = 0.8;
const LOOKS = 20;

/** Conversion rates and lifts marketers plan for, the docs' example (20% on 10%) among them. */
const PLANS = [
  { rate: 0.1, lift: 0.1 },
  { rate: 0.1, lift: 0.2 },
  { rate: 0.05, lift: 0.2 },
  { rate: 0.02, lift: 0.2 },
  { rate: 0.01, lift: 0.3 },
  { rate: 0.3, lift: 0.05 },
  // A large lift, where the statistics' curvature costs power.
  { rate: 0.05, lift: 1 },
  // A fall.
  { rate: 0.1, lift: -0.2 },
  // Large lifts that need few visitors: the verdict's minimum data decides (100 visitors, and
  // 25 converters, per arm).
  { rate: 0.4, lift: 1 },
  { rate: 0.01, lift: 2 },
];

/**
 * Experiments per plan: about 1.5 s of CPU for the two checks (the timeouts leave room for a
 * machine busy with other files). At 5,000 runs the power is estimated with a binomial standard
 * error of √(0.8 · 0.2 / 5,000) = 0.57 points; a plan passes unless its estimate lies more than
 * three of them below 80% (one-sided: a false alarm with probability 0.13% at exactly 80%).
 * Together the plans make the finer check, 40,000 runs, a standard error of 0.2 points.
 */
const RUNS = 5_000;
const SMALLER_RUNS = 2_000;
const TIMEOUT = 30_000;

/** Three binomial standard errors of a power of 80% estimated from `runs` experiments. */
const tolerance = (runs: number) => 3 * Math.sqrt((POWER * (1 - POWER)) / runs);
const mean = (values: readonly number[]) =>
  values.reduce((sum, value) => sum + value, 0) / values.length;

const emptyArm = (): ArmCounts => ({ n: 0, sum: 0, sumSquares: 0, nonZero: 0 });

function addConverters(arm: ArmCounts, visitors: number, rate: number, random: Random): void {
  const converters = binomial(visitors, rate, random);
  arm.n += visitors;
  arm.sum += converters;
  arm.sumSquares += converters;
  arm.nonZero += converters;
}

/**
 * The verdict the results show once the planned sample is in: its totals read with the days
 * before them, each day's visitors split at random and converting as binomial counts, the
 * intervals tuned to the plan.
 */
function verdictAtPlan(rate: number, lift: number, plannedPerArm: number, random: Random): Verdict {
  const control = emptyArm();
  const variant = emptyArm();
  const days: Look[] = [];
  for (const arrivals of arrivalsPerLook(plannedPerArm, LOOKS)) {
    const toVariant = binomial(arrivals, 0.5, random);
    addConverters(control, arrivals - toVariant, rate, random);
    addConverters(variant, toVariant, rate * (1 + lift), random);
    days.push({ control: { ...control }, variant: { ...variant } });
  }
  days.pop();
  return judgeVariant({ control, variant, plannedPerArm, srmAlarm: false, earlierLooks: days })
    .verdict;
}

/** The share of `runs` experiments whose verdict finds the lift, on its side of 0. */
function powerAt(
  plan: { rate: number; lift: number },
  plannedPerArm: number,
  runs: number,
  seed: number,
): number {
  const random = mulberry32(seed);
  const found = plan.lift > 0 ? 'better' : 'worse';
  let hits = 0;
  for (let run = 0; run < runs; run++) {
    if (verdictAtPlan(plan.rate, plan.lift, plannedPerArm, random) === found) hits += 1;
  }
  return hits / runs;
}

const percent = (share: number) => `${(share * 100).toFixed(1)}%`;
const named = ({ rate, lift }: { rate: number; lift: number }) =>
  `${percent(rate)} → ${percent(rate * (1 + lift))}`;
const plannedFor = ({ rate, lift }: { rate: number; lift: number }) =>
  plannedVisitorsPerArm({ baselineRate: rate, relativeLift: lift });

describe('the planned sample, against the results’ verdict in simulation', () => {
  it('gets a verdict 8 times in 10 at each plan, looked at 20 times', { timeout: TIMEOUT }, () => {
    const powers = PLANS.map((plan, i) => {
      const power = powerAt(plan, plannedFor(plan), RUNS, 20_261_126 + i);
      console.info(`${named(plan)}: ${plannedFor(plan)} per arm, verdict in ${percent(power)}`);
      return power;
    });
    for (const power of powers) expect(power).toBeGreaterThanOrEqual(POWER - tolerance(RUNS));
    expect(mean(powers)).toBeGreaterThanOrEqual(POWER - tolerance(RUNS * PLANS.length));
  });

  it('is no larger than it must be: with 10% fewer visitors every plan falls short', {
    timeout: TIMEOUT,
  }, () => {
    const powers = PLANS.map((plan, i) => {
      // The marketer plans the smaller sample, and the intervals are tuned to it.
      const smaller = Math.round(0.9 * plannedFor(plan));
      const power = powerAt(plan, smaller, SMALLER_RUNS, 20_261_226 + i);
      console.info(`${named(plan)}: ${smaller} per arm, verdict in ${percent(power)}`);
      return power;
    });
    // Each more than two standard errors (1.8 points) below 80%, and together, over 16,000
    // runs, more than three: the smallest sample that gets a verdict 8 times in 10 is within
    // 10% of the plan, and the check above can tell a plan short of its power from one that
    // has it.
    const twoErrors = (2 / 3) * tolerance(SMALLER_RUNS);
    for (const power of powers) expect(power).toBeLessThan(POWER - twoErrors);
    expect(mean(powers)).toBeLessThan(POWER - tolerance(SMALLER_RUNS * PLANS.length));
  });

  it('plans 6,706 per arm for the docs’ example, more when looked at once', () => {
    // The docs' example: 20% on a 10% rate (docs/statistics.md, the planned sample).
    expect(plannedFor({ rate: 0.1, lift: 0.2 })).toBe(6706);
    // Fewer looks than the 20 planned for take chances away: looked at once, it needs more.
    const once = plannedVisitorsPerArm({ baselineRate: 0.1, relativeLift: 0.2, looks: 1 });
    expect(once).toBeGreaterThan(6706);
  });
});
