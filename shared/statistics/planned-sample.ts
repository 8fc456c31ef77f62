import { normalQuantile } from './distributions';
import { mixtureRho, normalMixtureBound } from './normal-mixture';
import { crossingProbability } from './sequential-power';

/** Two-sided, as every interval and verdict of the results (worker/experiments/statistics.ts). */
const ALPHA = 0.05;
/** The looks the power counts on: the results look once a day, and a test runs about three weeks. */
const LOOKS = 20;
/** The search stops when the sample is known to this share: a few visitors in 10,000. */
const PRECISION = 1e-4;

/**
 * An interval's statistic, its lift over its estimated standard error, per √visitor: for m
 * visitors per arm it is about √m·g(c, v), with g = (v − c)/√(v(1 − v) + c(1 − c)·w²), w = 1 for
 * the difference's interval and w = v/c for the relative lift's (its delta-method standard error
 * times c: statistics.ts compareLook). For a rise w = v/c > 1: the relative interval is the wider
 * in standard errors.
 */
function standardizedLift(control: number, variant: number, relative: boolean): number {
  const weight = relative ? variant / control : 1;
  return (
    (variant - control) / Math.sqrt(variant * (1 - variant) + control * (1 - control) * weight ** 2)
  );
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
 * The fewest visitors per arm (to PRECISION) at which the statistic crosses the boundary at one
 * of `looks` evenly spaced looks with the given power, by bisection: the power rises with the
 * sample.
 */
function visitorsFor(
  statistic: Statistic,
  options: { power: number; alpha: number; looks: number },
): number {
  const { perVisitor, spread, bias } = statistic;
  const { power, alpha, looks } = options;
  const powerAt = (visitors: number) =>
    crossingProbability({
      drift: Math.sqrt(visitors) * perVisitor,
      bias: bias / Math.sqrt(visitors),
      spread,
      looks,
      alpha,
    });
  // At the last look alone the statistic crosses with the power once √m·g + bias/√m reaches
  // c + spread·z(power), c the boundary's multiple at the planned sample (about 3.04 at
  // α = 0.05, where a test looked at once has 1.96): that sample is enough, as the earlier
  // looks only add chances. Solved for √m.
  const needed =
    normalMixtureBound(1, alpha, mixtureRho(1, alpha)) + spread * normalQuantile(power);
  const root = (needed + Math.sqrt(needed ** 2 - 4 * perVisitor * bias)) / (2 * perVisitor);
  let high = root ** 2;
  let low = high / 2;
  while (low > 1 && powerAt(low) >= power) [high, low] = [low, low / 2];
  while (high - low > PRECISION * high) {
    const middle = (low + high) / 2;
    if (powerAt(middle) >= power) high = middle;
    else low = middle;
  }
  return high;
}

/**
 * Visitors per arm for a conversion metric to get a verdict on a true relative lift with the
 * given power, the results looked at `looks` times evenly up to it, and the intervals tuned to
 * it, as the results tune them.
 *
 * A verdict needs both intervals, the difference's and the relative lift's, to leave out 0
 * (statistics.ts excludesZero), so the sample is the larger of what each needs. For a rise the
 * relative one decides (10% more visitors than the difference alone needs for 10% → 11%, 18%
 * for 10% → 12%); for a fall the difference does. Each interval leaves out 0 when its statistic
 * crosses the boundary's multiple at a look; the power is that crossing's probability over the
 * looks (sequential-power.ts). About twice what a test looked at only once would need: the
 * price of looking every day.
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
  const needed = [false, true].map((relative) =>
    visitorsFor(statisticOf(baselineRate, variantRate, relative), { power, alpha, looks }),
  );
  return Math.ceil(Math.max(...needed));
}
