/**
 * The two-sided normal mixture of Howard, Ramdas, McAuliffe and Sekhon (2021), in confseq's
 * parametrisation: the boundary the always-valid intervals of the experiments' results use
 * (worker/experiments/statistics/statistics.ts), and the planned sample (planned-sample.ts) the console
 * shows before an experiment starts. Pure, so both sides compute the same numbers.
 */

// A sum S of unit-variance increments after intrinsic time v, and the mixture's precision rho
// (in the same units as v). The values are tested against confseq's own unit tests
// (gostevehoward/confseq).

/** The mixture precision that makes the two-sided boundary tightest at time vOpt (confseq's `TwoSidedNormalMixture::best_rho`; GrowthBook's `sequential_rho`, for vOpt its tuning parameter, is 1/√ of this). */
export function mixtureRho(vOpt: number, alpha: number): number {
  const twiceLogInverse = 2 * Math.log(1 / alpha);
  return vOpt / (twiceLogInverse + Math.log(1 + twiceLogInverse));
}

/** The two-sided normal-mixture boundary: with probability 1 − α, |S| stays below it at every v at once. */
export function normalMixtureBound(v: number, alpha: number, rho: number): number {
  return Math.sqrt((v + rho) * (Math.log(1 + v / rho) + 2 * Math.log(1 / alpha)));
}

/** The log of the mixture supermartingale (the e-value) at sum s and time v. */
export function logNormalMixture(s: number, v: number, rho: number): number {
  return 0.5 * Math.log(rho / (v + rho)) + (s * s) / (2 * (v + rho));
}
