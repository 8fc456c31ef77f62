import { normalQuantile } from './distributions';
import { mixtureRho, normalMixtureBound } from './normal-mixture';

/** Two-sided, as every interval and verdict of the results (worker/experiments/statistics.ts). */
const ALPHA = 0.05;

/**
 * Visitors per arm for a conversion metric to find a true relative lift with the given power
 * at the planned sample: the usual two-proportion formula with the confidence sequence's
 * half-width at its tuning time (about 3.04 standard errors at α = 0.05) in place of the fixed
 * test's z(1 − α/2) = 1.96. This is the planned sample to tune the mixture with; it is about
 * 1.9 times what a test looked at only once would need, the price of looking every day.
 */
export function plannedVisitorsPerArm(options: {
  baselineRate: number;
  relativeLift: number;
  power?: number;
  alpha?: number;
}): number {
  const { baselineRate, relativeLift, power = 0.8, alpha = ALPHA } = options;
  const variantRate = baselineRate * (1 + relativeLift);
  const varianceSum = baselineRate * (1 - baselineRate) + variantRate * (1 - variantRate);
  // The multiple at the tuning time does not depend on the time (rho scales with it).
  const critical = normalMixtureBound(1, alpha, mixtureRho(1, alpha));
  const difference = variantRate - baselineRate;
  return Math.ceil(((critical + normalQuantile(power)) ** 2 * varianceSum) / difference ** 2);
}
