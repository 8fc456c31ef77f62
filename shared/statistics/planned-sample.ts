import { normalCdf, normalQuantile } from './distributions';
import { mixtureRho, normalMixtureBound } from './normal-mixture';
import { crossingProbability } from './sequential-power';
import { MIN_CONVERSIONS_PER_ARM, MIN_VISITORS_PER_ARM } from './verdict-minimums';

/** Two-sided, as every interval and verdict of the results (worker/experiments/statistics/statistics.ts). */
const ALPHA = 0.05;
/** The looks the power counts on: the results look once a day, and a test runs about three weeks. */
const LOOKS = 20;
/** The search stops when the sample is known to this share: a few visitors in 10,000. */
const PRECISION = 1e-4;

/**
 * An interval's statistic, its lift over its estimated standard error, per √visitor: for m
 * visitors per arm it is about √m·g(c, v), with g = (v − c)/√(v(1 − v) + c(1 − c)) for the
 * difference's interval and g = ln(v/c)/√((1 − v)/v + (1 − c)/c) for the relative lift's, built
 * on the log of the ratio of the rates (statistics.ts relativeEvidence). Near 0 the two agree;
 * for larger lifts they part a little, either way.
 */
function standardizedLift(control: number, variant: number, relative: boolean): number {
  if (relative) {
    return (
      Math.log(variant / control) / Math.sqrt((1 - variant) / variant + (1 - control) / control)
    );
  }
  return (variant - control) / Math.sqrt(variant * (1 - variant) + control * (1 - control));
}

/** The statistic at m visitors per arm: √m·perVisitor + bias/√m, give or take `spread`. */
interface Statistic {
  perVisitor: number;
  spread: number;
  bias: number;
}

/**
 * The delta method on the statistic itself, to second order: its slopes against the arms' rates
 * (each estimated with variance rate·(1 − rate)/m) give its spread, its curvature its bias. The
 * curvature matters for large lifts on small samples: at 5% → 10% it costs 1.7 points of power.
 */
function statisticOf(control: number, variant: number, relative: boolean): Statistic {
  const g = (c: number, v: number) => standardizedLift(c, v, relative);
  const h = 1e-4 * Math.min(control, 1 - control, variant, 1 - variant);
  const centre = g(control, variant);
  // For a fall the statistic is −z: crossing the lower boundary.
  const sign = Math.sign(centre);
  const along = (f: (step: number) => number, variance: number) => {
    const slope = (f(h) - f(-h)) / (2 * h);
    const curvature = (f(h) - 2 * centre + f(-h)) / h ** 2;
    return { spread: slope ** 2 * variance, bias: (sign * curvature * variance) / 2 };
  };
  const byControl = along((step) => g(control + step, variant), control * (1 - control));
  const byVariant = along((step) => g(control, variant + step), variant * (1 - variant));
  return {
    perVisitor: Math.abs(centre),
    spread: Math.sqrt(byControl.spread + byVariant.spread),
    bias: byControl.bias + byVariant.bias,
  };
}

/**
 * The smallest sample at which the statistic crosses at the last look alone with the power:
 * √m·perVisitor + bias/√m reaching c + spread·z(power), c the boundary's multiple at the planned
 * sample (about 3.04 at α = 0.05, where a test looked at once has 1.96). Solved for √m.
 */
function lastLookVisitors(statistic: Statistic, power: number, alpha: number): number {
  const { perVisitor, spread, bias } = statistic;
  const needed =
    normalMixtureBound(1, alpha, mixtureRho(1, alpha)) + spread * normalQuantile(power);
  const discriminant = Math.max(0, needed ** 2 - 4 * perVisitor * bias);
  return ((needed + Math.sqrt(discriminant)) / (2 * perVisitor)) ** 2;
}

/** P(X ≥ count) for X about normal with this mean and variance (continuity-corrected). */
function atLeast(count: number, mean: number, variance: number): number {
  return normalCdf((mean - count + 0.5) / Math.sqrt(variance));
}

/**
 * The chance that both arms have the data a verdict waits for (verdict-minimums.ts) once m
 * visitors per arm are expected: each arm's visitors are a binomial half of 2m, its converters
 * binomial in those.
 */
function enoughDataChance(visitors: number, control: number, variant: number): number {
  const arm = (rate: number) =>
    atLeast(
      MIN_CONVERSIONS_PER_ARM,
      visitors * rate,
      visitors * rate * (1 - rate) + (visitors * rate ** 2) / 2,
    );
  const tooFew = 1 - atLeast(MIN_VISITORS_PER_ARM, visitors, visitors / 2);
  return Math.max(0, 1 - 2 * tooFew) * arm(control) * arm(variant);
}

/**
 * Visitors per arm for a conversion metric to get a verdict on a true relative lift with the
 * given power, the results looked at `looks` times evenly up to it, and the intervals tuned to
 * it, as the results tune them.
 *
 * A verdict needs both intervals, the difference's and the relative lift's, to leave out 0
 * (statistics.ts excludesZero), and the data of verdict-minimums.ts. Each interval leaves out 0
 * when its statistic crosses the boundary's multiple at a look, with the probability
 * sequential-power.ts computes over the looks. The one with the smaller statistic decides; on
 * the log of the ratio the relative one is within a few percent of the difference's. About
 * twice what a test looked at only once would need: the price of looking every day.
 */
export function plannedVisitorsPerArm(options: {
  baselineRate: number;
  relativeLift: number;
  power?: number;
  alpha?: number;
  looks?: number;
}): number {
  const { baselineRate, relativeLift, power = 0.8, alpha = ALPHA, looks = LOOKS } = options;
  const variantRate = baselineRate * (1 + relativeLift);
  const statistics = [false, true].map((relative) =>
    statisticOf(baselineRate, variantRate, relative),
  );
  // Each interval alone leaves out 0 at some look with its crossing's probability; both do with
  // about the smaller of the two, as the two statistics move together. Then the verdict needs
  // enough data.
  const verdictPower = (visitors: number) =>
    enoughDataChance(visitors, baselineRate, variantRate) *
    Math.min(
      ...statistics.map(({ perVisitor, spread, bias }) =>
        crossingProbability({
          drift: Math.sqrt(visitors) * perVisitor,
          bias: bias / Math.sqrt(visitors),
          spread,
          looks,
          alpha,
        }),
      ),
    );
  // The last look alone is enough for the intervals (the earlier looks only add chances), and
  // a sample that falls short only on data doubles into one that has it.
  let high = Math.max(...statistics.map((statistic) => lastLookVisitors(statistic, power, alpha)));
  for (let i = 0; i < 60 && verdictPower(high) < power; i++) high *= 2;
  let low = high / 2;
  while (low > 1 && verdictPower(low) >= power) [high, low] = [low, low / 2];
  // Bisection: the power rises with the sample.
  while (high - low > PRECISION * high) {
    const middle = (low + high) / 2;
    if (verdictPower(middle) >= power) high = middle;
    else low = middle;
  }
  return Math.ceil(high);
}
