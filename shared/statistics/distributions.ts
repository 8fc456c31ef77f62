/**
 * The normal and chi-square distributions the experiments' statistics need: no library, a few
 * well-known algorithms, tested against published values (test/unit/experiments/
 * distributions.test.ts). Pure, for the worker's results and the console's planning alike.
 */

const LANCZOS_G = 7;
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
  -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
  1.5056327351493116e-7,
];

/** ln Γ(x) for x ≥ 0.5, by Lanczos' approximation (g = 7, 9 terms; about 15 digits). */
function logGamma(x: number): number {
  const shifted = x - 1;
  let series = LANCZOS[0]!;
  for (let i = 1; i < LANCZOS.length; i++) series += LANCZOS[i]! / (shifted + i);
  const t = shifted + LANCZOS_G + 0.5;
  return 0.5 * Math.log(2 * Math.PI) + (shifted + 0.5) * Math.log(t) - t + Math.log(series);
}

/**
 * Q(a, x) = Γ(a, x)/Γ(a), the regularized upper incomplete gamma function: the power series of
 * P below x = a + 1, the continued fraction of Q (modified Lentz) above it, as in Numerical
 * Recipes §6.2, so that small tails keep their relative precision.
 */
function regularizedUpperGamma(a: number, x: number): number {
  if (x <= 0) return 1;
  const logPrefix = a * Math.log(x) - x - logGamma(a);
  const epsilon = 1e-16;
  if (x < a + 1) {
    let term = 1 / a;
    let sum = term;
    for (let k = 1; k < 1000 && Math.abs(term) > Math.abs(sum) * epsilon; k++) {
      term *= x / (a + k);
      sum += term;
    }
    return 1 - sum * Math.exp(logPrefix);
  }
  const tiny = 1e-300;
  let b = x + 1 - a;
  let c = 1 / tiny;
  let d = 1 / b;
  let fraction = d;
  for (let i = 1; i < 1000; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    fraction *= delta;
    if (Math.abs(delta - 1) < epsilon) break;
  }
  return Math.exp(logPrefix) * fraction;
}

/** P(X ≥ x) for X chi-square with k degrees of freedom: Q(k/2, x/2). */
export function chiSquareUpperTail(x: number, degreesOfFreedom: number): number {
  return regularizedUpperGamma(degreesOfFreedom / 2, x / 2);
}

/** P(Z ≥ |x|) for a standard normal Z, through erfc(t) = Q(1/2, t²): precise far out. */
function normalTail(x: number): number {
  return 0.5 * regularizedUpperGamma(0.5, (x * x) / 2);
}

/** Φ(x). */
export function normalCdf(x: number): number {
  return x < 0 ? normalTail(x) : 1 - normalTail(x);
}

/** Φ⁻¹(p): Acklam's rational approximation (about 9 digits), then one Halley step on Φ. */
export function normalQuantile(p: number): number {
  if (p <= 0) return Number.NEGATIVE_INFINITY;
  if (p >= 1) return Number.POSITIVE_INFINITY;
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269];
  const a4 = -30.66479806614716;
  const a5 = 2.506628277459239;
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972];
  const b4 = -13.28068155288572;
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734];
  const c4 = 4.374664141464968;
  const c5 = 2.938163982698783;
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const tailRational = (q: number) =>
    ((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c4) * q + c5;
  const tailDenominator = (q: number) => (((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1;
  const low = 0.02425;
  let x: number;
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p));
    x = tailRational(q) / tailDenominator(q);
  } else if (p > 1 - low) {
    const q = Math.sqrt(-2 * Math.log(1 - p));
    x = -tailRational(q) / tailDenominator(q);
  } else {
    const q = p - 0.5;
    const r = q * q;
    x =
      ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a4) * r + a5) * q) /
      (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b4) * r + 1);
  }
  // Φ(x) − p, from the smaller tail so that p near 1 keeps its digits.
  const error = x < 0 ? normalTail(x) - p : 1 - p - normalTail(x);
  const u = error * Math.sqrt(2 * Math.PI) * Math.exp((x * x) / 2);
  return x - u / (1 + (x * u) / 2);
}
