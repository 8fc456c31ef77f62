import { describe, expect, it } from 'vitest';
import { revenueQuantile, revenueStatistics } from '../../../worker/experiments/results/revenue';
import { minorAmountOf } from '../../../worker/experiments/store/experiment-purchase';

/** Revenue per exposed visitor from its histogram, its cap, and amounts in minor units. */

describe('revenueQuantile (nearest rank)', () => {
  it('is null without a buyer', () => {
    expect(revenueQuantile([], 0.99)).toBeNull();
    expect(revenueQuantile([{ revenueMinor: 699, visitors: 0 }], 0.99)).toBeNull();
  });

  it('is the only amount when there is one', () => {
    expect(revenueQuantile([{ revenueMinor: 3999, visitors: 1 }], 0.99)).toBe(3999);
  });

  it('is the smallest amount that at least 99% of buyers do not exceed, in any bucket order', () => {
    const whales = { revenueMinor: 50_000, visitors: 1 };
    expect(revenueQuantile([whales, { revenueMinor: 699, visitors: 99 }], 0.99)).toBe(699);
    expect(revenueQuantile([whales, { revenueMinor: 699, visitors: 98 }], 0.99)).toBe(50_000);
  });

  it('agrees with sorting the amounts one by one', () => {
    const amounts = [699, 699, 999, 1398, 3999, 3999, 3999, 5999, 8999, 20_000];
    const buckets = [...new Set(amounts)].map((revenueMinor) => ({
      revenueMinor,
      visitors: amounts.filter((amount) => amount === revenueMinor).length,
    }));
    for (const quantile of [0.1, 0.25, 0.5, 0.9, 0.99, 1]) {
      const rank = Math.ceil(quantile * amounts.length);
      expect(revenueQuantile(buckets, quantile), String(quantile)).toBe(amounts[rank - 1]);
    }
  });
});

describe('revenueStatistics', () => {
  const buckets = [
    { revenueMinor: 699, visitors: 3 },
    { revenueMinor: 50_000, visitors: 1 },
  ];

  it('counts every exposed visitor, those who spent nothing as zeros', () => {
    expect(revenueStatistics(10, buckets)).toEqual({
      n: 10,
      sum: 3 * 699 + 50_000,
      sumSquares: 3 * 699 ** 2 + 50_000 ** 2,
    });
  });

  it('caps each visitor’s amount', () => {
    expect(revenueStatistics(10, buckets, 1000)).toEqual({
      n: 10,
      sum: 3 * 699 + 1000,
      sumSquares: 3 * 699 ** 2 + 1000 ** 2,
    });
  });

  it('is all zeros without a buyer', () => {
    expect(revenueStatistics(5, [])).toEqual({ n: 5, sum: 0, sumSquares: 0 });
  });
});

describe('minorAmountOf', () => {
  it.each<[number, string, number]>([
    [6.99, 'USD', 699],
    [39.99, 'EUR', 3999],
    [0.29, 'USD', 29],
    [59.99, 'GBP', 5999],
    [1500, 'JPY', 1500],
    [1.234, 'KWD', 1234],
  ])('%d %s is %d minor units', (amount, currency, minor) => {
    expect(minorAmountOf(amount, currency)).toEqual({ amountMinor: minor, currency });
  });

  it('is unknown without an amount, a currency, or with a malformed code', () => {
    expect(minorAmountOf(null, 'USD')).toBeNull();
    expect(minorAmountOf(6.99, null)).toBeNull();
    expect(minorAmountOf(6.99, 'US')).toBeNull();
  });
});
