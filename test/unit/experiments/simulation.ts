/**
 * Seeded draws for simulated experiments: a uniform source and exact binomial and multinomial
 * counts, so a simulation draws each look's sufficient statistics instead of every visitor and
 * gives the same numbers on every run.
 */

export type Random = () => number;

/** mulberry32, the same seeded generator `npm run experiments -- simulate` draws with. */
export { seededRandom as mulberry32 } from '../../../shared/seeded-random';

/**
 * What a purchaser spends, in minor units: mostly one plan, some a plan and an upsell, a few a
 * bundle far above the rest (as revenue-per-visitor.test.ts draws it); AMOUNT_SHARES of the
 * purchasers spend each.
 */
export const AMOUNTS = [1999, 3999, 5998, 11_997, 49_999];
export const AMOUNT_SHARES = [0.6, 0.25, 0.1, 0.035, 0.015];

const EXACT_LOG_FACTORIALS = 256;
const logFactorials = [0];
for (let k = 1; k < EXACT_LOG_FACTORIALS; k++)
  logFactorials.push(logFactorials[k - 1]! + Math.log(k));

/** ln k!: summed below 256, Stirling's series above (error far below 1e-15 there). */
function logFactorial(k: number): number {
  if (k < EXACT_LOG_FACTORIALS) return logFactorials[k]!;
  const k2 = k * k;
  return (
    k * Math.log(k) -
    k +
    0.5 * Math.log(2 * Math.PI * k) +
    1 / (12 * k) -
    1 / (360 * k * k2) +
    1 / (1260 * k * k2 * k2)
  );
}

/**
 * An exact Binomial(n, p) draw by inversion, walking outward from the mode (the outcomes taken
 * in the order m, m+1, m−1, m+2, …): about √(np(1−p)) steps, so a look of 100 000 visitors
 * costs a few hundred multiplications rather than 100 000 draws.
 */
export function binomial(n: number, p: number, random: Random): number {
  if (p <= 0 || n === 0) return 0;
  if (p >= 1) return n;
  const q = 1 - p;
  const odds = p / q;
  const mode = Math.min(n, Math.floor((n + 1) * p));
  const modeMass = Math.exp(
    logFactorial(n) -
      logFactorial(mode) -
      logFactorial(n - mode) +
      mode * Math.log(p) +
      (n - mode) * Math.log(q),
  );
  let u = random() - modeMass;
  let above = mode;
  let aboveMass = modeMass;
  let below = mode;
  let belowMass = modeMass;
  while (u > 0 && (above < n || below > 0)) {
    if (above < n) {
      aboveMass *= ((n - above) / (above + 1)) * odds;
      above += 1;
      u -= aboveMass;
      if (u <= 0) return above;
    }
    if (below > 0) {
      belowMass *= below / (n - below + 1) / odds;
      below -= 1;
      u -= belowMass;
      if (u <= 0) return below;
    }
  }
  return mode; // Only through rounding: the masses summed to just under 1.
}

/** Visitors arriving between looks: 20 equal batches until both arms together reach the plan. */
export function arrivalsPerLook(plannedPerArm: number, looks = 20): number[] {
  const reached = (look: number) => Math.round((2 * plannedPerArm * look) / looks);
  return Array.from({ length: looks }, (_, i) => reached(i + 1) - reached(i));
}

/** Counts of `trials` spread over outcomes with these probabilities (summing to 1), drawn as one binomial per outcome of what is left. */
export function multinomial(
  trials: number,
  probabilities: readonly number[],
  random: Random,
): number[] {
  let left = trials;
  let probabilityLeft = 1;
  return probabilities.map((probability, i) => {
    const last = i === probabilities.length - 1;
    const count = last ? left : binomial(left, Math.min(1, probability / probabilityLeft), random);
    left -= count;
    probabilityLeft -= probability;
    return count;
  });
}

/**
 * The smallest k with P(X > k) ≤ tail for X ~ Binomial(n, p): how many of n runs may show an
 * event of true rate at most p before a sound procedure fails the check for one seed in 1/tail.
 */
export function binomialAllowance(n: number, p: number, tail = 0.001): number {
  let mass = (1 - p) ** n;
  let below = mass;
  let k = 0;
  while (1 - below > tail) {
    mass *= ((n - k) / (k + 1)) * (p / (1 - p));
    k++;
    below += mass;
  }
  return k;
}
