import { mixtureRho, normalMixtureBound } from './normal-mixture';

/**
 * The power of the results' always-valid interval over evenly spaced looks, for the planned
 * sample (planned-sample.ts). Pure and quick enough to run on each keystroke of the console's
 * form.
 *
 * The model: at a look after a share t of the planned sample, the interval leaves out 0 when a
 * statistic Z_t (the lift over its estimated standard error) exceeds the boundary's multiple
 * c_t = bound(t)/√t, the mixture being tuned to the planned sample (t = 1). Z_t is taken as
 * drift·√t + bias/√t + spread·W(t)/√t, W a standard Brownian motion: a smooth function of the
 * arms' means, expanded to second order about the true ones (the delta method). The spread is
 * below 1 when the standard error is estimated from the same means (a larger lift brings a
 * larger standard error with it); the bias, the curvature's mean, fades as the sample grows.
 * The probability that the statistic crosses at some look is computed by recursive numerical
 * integration over the looks (Armitage, McPherson and Rowe, "Repeated significance tests on
 * accumulating data", J. R. Statist. Soc. A 132(2), 1969; Jennison and Turnbull, "Group
 * Sequential Methods with Applications to Clinical Trials", 2000, ch. 19).
 */

/** Grid steps per standard deviation of the increment between two looks (Simpson's rule). */
const STEPS_PER_SD = 4;
/** The density of W(t) is cut this many standard deviations below 0: the mass beyond is < 1e-11. */
const CUT_SDS = 7;
/** The Gaussian kernel between looks is cut this many standard deviations out. */
const KERNEL_SDS = 8;

function simpsonWeights(points: number, step: number): Float64Array {
  const weights = new Float64Array(points);
  for (let i = 0; i < points; i++) {
    const inner = i === 0 || i === points - 1 ? 1 : i % 2 === 1 ? 4 : 2;
    weights[i] = (inner * step) / 3;
  }
  return weights;
}

/**
 * The probability that drift·√t + bias/√t + spread·W(t)/√t exceeds the α-boundary's multiple
 * at one of `looks` evenly spaced looks t = 1/looks, …, 1.
 */
export function crossingProbability(options: {
  drift: number;
  bias: number;
  spread: number;
  looks: number;
  alpha: number;
}): number {
  const { drift, bias, spread, looks, alpha } = options;
  const rho = mixtureRho(1, alpha);
  const gap = 1 / looks;
  const step = Math.sqrt(gap) / STEPS_PER_SD;
  // Crossing at look k is W(t_k) > b_k, in the Brownian motion's own units (times √t).
  const boundary = (t: number) => (normalMixtureBound(t, alpha, rho) - drift * t - bias) / spread;

  let previous: { top: number; density: Float64Array; weights: Float64Array } | null = null;
  for (let k = 1; k <= looks; k++) {
    const t = k * gap;
    const top = Math.min(boundary(t), CUT_SDS * Math.sqrt(t));
    const bottom = -CUT_SDS * Math.sqrt(t);
    // Nothing left below the boundary: every path has crossed.
    if (top <= bottom) return 1;
    // Points from the boundary down, an even number of steps (Simpson), reaching below the cut.
    let intervals = Math.ceil((top - bottom) / step);
    intervals += intervals % 2;
    const points = intervals + 1;
    const density = new Float64Array(points);
    if (previous === null) {
      const sd = Math.sqrt(t);
      for (let j = 0; j < points; j++) {
        const y = (top - j * step) / sd;
        density[j] = Math.exp(-0.5 * y * y) / (sd * Math.sqrt(2 * Math.PI));
      }
    } else {
      // Both grids step down by the same amount from their tops, so the kernel between point i
      // of the last look and point j of this one depends on j − i alone.
      const shift = top - previous.top;
      const reach = Math.ceil((KERNEL_SDS * Math.sqrt(gap) + Math.abs(shift)) / step);
      const kernel = new Float64Array(2 * reach + 1);
      const norm = 1 / Math.sqrt(2 * Math.PI * gap);
      for (let d = -reach; d <= reach; d++) {
        const x = shift - d * step;
        kernel[d + reach] = norm * Math.exp((-0.5 * x * x) / gap);
      }
      const weighted = previous.density.map((value, i) => value * previous!.weights[i]!);
      for (let j = 0; j < points; j++) {
        const from = Math.max(0, j - reach);
        const to = Math.min(weighted.length - 1, j + reach);
        let sum = 0;
        for (let i = from; i <= to; i++) sum += weighted[i]! * kernel[j - i + reach]!;
        density[j] = sum;
      }
    }
    previous = { top, density, weights: simpsonWeights(points, step) };
  }
  const last = previous!;
  let stayed = 0;
  for (let j = 0; j < last.density.length; j++) stayed += last.density[j]! * last.weights[j]!;
  return Math.min(1, Math.max(0, 1 - stayed));
}
