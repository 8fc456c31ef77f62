import { describe, expect, it } from 'vitest';
import { dailyLooks, sampleAt } from '../../../worker/experiments/results/daily-looks';
import type { DayArm, DayRevenueBucket } from '../../../worker/experiments/results/experiment-days';

/** A phase's looks, one per exposure day (worker/experiments/results/daily-looks.ts). */

function day(date: string, variant: string, exposed: number, purchase: number): DayArm {
  return { day: date, variant, exposed, steps: { lookup: 0, signup: 0, checkout: 0, purchase } };
}

const bucket = (date: string, variant: string, revenueMinor: number, visitors: number) => ({
  day: date,
  variant,
  currency: 'USD',
  revenueMinor,
  visitors,
});

const OPTIONS = {
  revenue: [] as DayRevenueBucket[],
  metric: 'purchase' as const,
  mainCurrency: null,
  revenueCap: null,
};

describe('the daily looks', () => {
  it('are, on each day in order, everyone exposed up to that day', () => {
    const looks = dailyLooks({
      ...OPTIONS,
      arms: [
        day('2026-11-21', 'default', 150, 20),
        day('2026-11-21', 'lp17', 150, 30),
        day('2026-11-20', 'default', 100, 10),
      ],
    });
    expect(looks.map((look) => look.day)).toEqual(['2026-11-20', '2026-11-21']);
    expect(sampleAt(looks[0]!, 'default')).toEqual({ n: 100, sum: 10, sumSquares: 10 });
    // Nobody was drawn for lp17 on the first day.
    expect(sampleAt(looks[0]!, 'lp17')).toEqual({ n: 0, sum: 0, sumSquares: 0 });
    expect(sampleAt(looks[1]!, 'default')).toEqual({ n: 250, sum: 30, sumSquares: 30 });
    expect(sampleAt(looks[1]!, 'lp17')).toEqual({ n: 150, sum: 30, sumSquares: 30 });
  });

  it('read revenue in the main currency, capped at the phase’s cap on every day', () => {
    const looks = dailyLooks({
      ...OPTIONS,
      arms: [day('2026-11-20', 'lp17', 100, 11), day('2026-11-21', 'lp17', 100, 10)],
      revenue: [
        bucket('2026-11-20', 'lp17', 699, 10),
        // A whale, counted as 13.98, the cap.
        bucket('2026-11-20', 'lp17', 500_000, 1),
        bucket('2026-11-21', 'lp17', 699, 10),
        { ...bucket('2026-11-21', 'lp17', 100_000, 50), currency: 'EUR' },
      ],
      metric: 'revenue',
      mainCurrency: 'USD',
      revenueCap: 1398,
    });
    expect(looks.map((look) => sampleAt(look, 'lp17'))).toEqual([
      { n: 100, sum: 699 * 10 + 1398, sumSquares: 699 ** 2 * 10 + 1398 ** 2 },
      { n: 200, sum: 699 * 20 + 1398, sumSquares: 699 ** 2 * 20 + 1398 ** 2 },
    ]);
  });

  it('are none before anyone is exposed', () => {
    expect(dailyLooks({ ...OPTIONS, arms: [] })).toEqual([]);
  });
});
