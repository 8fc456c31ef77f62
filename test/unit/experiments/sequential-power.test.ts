import { describe, expect, it } from 'vitest';
import { normalCdf } from '../../../shared/statistics/distributions';
import { mixtureRho, normalMixtureBound } from '../../../shared/statistics/normal-mixture';
import { crossingProbability } from '../../../shared/statistics/sequential-power';
import { mulberry32, type Random } from './simulation';

/** The crossing probability the planned sample is searched with, against what it models. */

const ALPHA = 0.05;
const RHO = mixtureRho(1, ALPHA);
/** The boundary's multiple at the planned sample: about 3.04 standard errors. */
const LAST = normalMixtureBound(1, ALPHA, RHO);

/** A standard normal draw (Box–Muller). */
const normal = (random: Random) =>
  Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());

/** The model drawn path by path: the share of paths whose statistic crosses at some look. */
function simulatedCrossing(
  options: { drift: number; bias: number; spread: number; looks: number },
  paths: number,
  random: Random,
): number {
  const { drift, bias, spread, looks } = options;
  let crossed = 0;
  for (let path = 0; path < paths; path++) {
    let motion = 0;
    for (let k = 1; k <= looks; k++) {
      const t = k / looks;
      motion += normal(random) * Math.sqrt(1 / looks);
      const statistic = drift * Math.sqrt(t) + (bias + spread * motion) / Math.sqrt(t);
      if (statistic > normalMixtureBound(t, ALPHA, RHO) / Math.sqrt(t)) {
        crossed += 1;
        break;
      }
    }
  }
  return crossed / paths;
}

describe('the probability that an always-valid interval leaves out 0 at some look', () => {
  it('is the normal tail beyond the boundary when there is one look', () => {
    for (const [drift, bias, spread] of [
      [3, 0, 1],
      [3.7, -0.05, 0.85],
      [4.5, 0, 0.8],
    ] as const) {
      const expected = normalCdf((drift + bias - LAST) / spread);
      expect(crossingProbability({ drift, bias, spread, looks: 1, alpha: ALPHA })).toBeCloseTo(
        expected,
        4,
      );
    }
  });

  it('matches the paths it models at 20 looks, within three standard errors of 20,000', () => {
    const random = mulberry32(20_261_127);
    for (const model of [
      { drift: 3.5, bias: 0, spread: 1, looks: 20 },
      { drift: 3.8, bias: -0.03, spread: 0.9, looks: 20 },
    ]) {
      const computed = crossingProbability({ ...model, alpha: ALPHA });
      const simulated = simulatedCrossing(model, 20_000, random);
      const error = Math.sqrt((computed * (1 - computed)) / 20_000);
      expect(Math.abs(computed - simulated)).toBeLessThan(3 * error);
    }
  });

  it('grows with the looks, and stays below α/2 without a difference', () => {
    const at = (looks: number, drift = 3.6) =>
      crossingProbability({ drift, bias: 0, spread: 1, looks, alpha: ALPHA });
    expect(at(1)).toBeLessThan(at(5));
    expect(at(5)).toBeLessThan(at(20));
    // No true difference: the interval above 0 at some of 20 looks, at most one time in 40.
    expect(at(20, 0)).toBeLessThan(ALPHA / 2);
    expect(at(20, 0)).toBeGreaterThan(0);
  });
});
