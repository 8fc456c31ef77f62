import { describe, expect, it } from 'vitest';
import {
  chiSquareUpperTail,
  normalCdf,
  normalQuantile,
} from '../../../shared/statistics/distributions';
import {
  logNormalMixture,
  mixtureRho,
  normalMixtureBound,
} from '../../../shared/statistics/normal-mixture';
import { binomial, mulberry32 } from './simulation';

/** |actual − expected| within `digits` significant digits of expected. */
function expectRelative(actual: number, expected: number, digits = 12) {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(Math.abs(expected) * 10 ** -digits);
}

describe('the normal distribution', () => {
  it('Φ matches published values, far tails included', () => {
    // Abramowitz & Stegun table 26.1; Φ(−8) from scipy.stats.norm.cdf.
    expectRelative(normalCdf(-1), 0.15865525393145707);
    expectRelative(normalCdf(3), 0.9986501019683699);
    expectRelative(normalCdf(-8), 6.22096057427174e-16);
    expectRelative(normalCdf(1.959963984540054), 0.975);
    expect(normalCdf(0)).toBe(0.5);
  });

  it('Φ⁻¹ gives the familiar critical values, and inverts Φ', () => {
    expectRelative(normalQuantile(0.975), 1.959963984540054);
    expectRelative(normalQuantile(0.8), 0.8416212335729143);
    expectRelative(normalQuantile(0.999), 3.090232306167813);
    expectRelative(normalQuantile(1e-10), -6.361340902404056);
    expect(normalQuantile(0.5)).toBe(0);
    for (const x of [-5, -2.5, -0.3, 0.7, 2, 4.5])
      expectRelative(normalQuantile(normalCdf(x)), x, 9);
  });
});

describe('the chi-square upper tail', () => {
  it('is α at the critical values of the NIST/SEMATECH table', () => {
    const critical: [number, number, number][] = [
      // [degrees of freedom, critical value, α]
      [1, 3.841458820694124, 0.05],
      [1, 10.827566170662733, 0.001],
      [2, 13.815510557964274, 0.001],
      [3, 7.814727903251178, 0.05],
      [5, 11.070497693516351, 0.05],
      [10, 18.307038053275146, 0.05],
      [100, 124.3421134, 0.05000000002527232],
    ];
    for (const [df, x, alpha] of critical) expectRelative(chiSquareUpperTail(x, df), alpha, 11);
  });

  it('keeps its precision deep in the tail and near 1 (scipy.stats.chi2.sf)', () => {
    expectRelative(chiSquareUpperTail(40, 1), 2.5396285894708634e-10);
    expectRelative(chiSquareUpperTail(40, 2), Math.exp(-20)); // two degrees: exactly e^(−x/2)
    expectRelative(chiSquareUpperTail(0.5, 3), 0.9188914116546758);
    expectRelative(chiSquareUpperTail(2, 4), 0.7357588823428847);
    expect(chiSquareUpperTail(0, 3)).toBe(1);
  });
});

describe('the two-sided normal mixture', () => {
  // confseq's own unit tests (gostevehoward/confseq test/uniform_boundaries_unittest.cpp,
  // "from a reference implementation in R"): v_opt = 100, α = 0.05.
  const rho = mixtureRho(100, 0.05);

  it('matches confseq, the reference implementation by the method’s author', () => {
    expect(rho).toBeCloseTo(12.60056, 5);
    expect(logNormalMixture(10, 100, rho)).toBeCloseTo(-0.6510052, 6);
    expect(normalMixtureBound(100, 0.05, rho)).toBeCloseTo(30.35209, 5);
  });

  it('puts the bound exactly where the e-value reaches 1/α', () => {
    for (const v of [1, 30, 100, 5000]) {
      expect(logNormalMixture(normalMixtureBound(v, 0.05, rho), v, rho)).toBeCloseTo(
        Math.log(20),
        10,
      );
    }
  });
});

describe('the simulations’ binomial draws', () => {
  it('follow Binomial(10, 0.3) (chi-square fit of 20 000 draws, 8 or more in one cell)', () => {
    const random = mulberry32(7);
    const observed = new Array<number>(9).fill(0);
    for (let i = 0; i < 20_000; i++) observed[Math.min(8, binomial(10, 0.3, random))]! += 1;
    const masses: number[] = [0.7 ** 10];
    for (let k = 0; k < 10; k++) masses.push(masses[k]! * ((10 - k) / (k + 1)) * (0.3 / 0.7));
    const expected = observed.map((_, k) =>
      k < 8 ? 20_000 * masses[k]! : 20_000 * (masses[8]! + masses[9]! + masses[10]!),
    );
    const chiSquare = observed.reduce(
      (sum, o, k) => sum + (o - expected[k]!) ** 2 / expected[k]!,
      0,
    );
    expect(chiSquareUpperTail(chiSquare, observed.length - 1)).toBeGreaterThan(0.01);
  });

  it('center on np with variance np(1 − p) for 100 000 trials', () => {
    const random = mulberry32(8);
    const draws = Array.from({ length: 4000 }, () => binomial(100_000, 0.02, random));
    const mean = draws.reduce((a, b) => a + b, 0) / draws.length;
    const variance = draws.reduce((a, b) => a + (b - mean) ** 2, 0) / (draws.length - 1);
    expect(Math.abs(mean - 2000)).toBeLessThan(4 * Math.sqrt(1960 / 4000));
    expect(variance / 1960).toBeGreaterThan(0.9);
    expect(variance / 1960).toBeLessThan(1.1);
  });
});
