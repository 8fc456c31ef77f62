import { describe, expect, it } from 'vitest';
import type { DayArm, DayRevenueBucket } from '../../../worker/experiments/experiment-days';
import { liftOverDays } from '../../../worker/experiments/lift-over-days';
import { compareToControl } from '../../../worker/experiments/statistics';

/** The primary metric's lift over days (worker/experiments/lift-over-days.ts). */

function day(date: string, variant: string, exposed: number, purchase: number): DayArm {
  return { day: date, variant, exposed, steps: { lookup: 0, signup: 0, checkout: 0, purchase } };
}

const conversions = (n: number, converters: number) => ({
  n,
  sum: converters,
  sumSquares: converters,
});

const OPTIONS = {
  revenue: [] as DayRevenueBucket[],
  control: 'default',
  variants: ['lp17', 'lp11'],
  metric: 'purchase' as const,
  mainCurrency: null,
  revenueCap: null,
  plannedPerArm: 1000,
};

describe('the lift over days', () => {
  it('is, on each day, the comparison over everyone exposed up to that day', () => {
    const arms = [
      day('2026-11-21', 'default', 150, 20),
      day('2026-11-21', 'lp17', 150, 30),
      day('2026-11-20', 'default', 100, 10),
      day('2026-11-20', 'lp17', 100, 15),
    ];
    const points = liftOverDays({ ...OPTIONS, variants: ['lp17'], arms });
    const first = compareToControl(conversions(100, 10), conversions(100, 15), 1000);
    const second = compareToControl(conversions(250, 30), conversions(250, 45), 1000);
    expect(points).toEqual([
      {
        day: '2026-11-20',
        variant: 'lp17',
        relativeLift: first?.relativeLift,
        relativeInterval: first?.relativeInterval,
      },
      {
        day: '2026-11-21',
        variant: 'lp17',
        relativeLift: second?.relativeLift,
        relativeInterval: second?.relativeInterval,
      },
    ]);
    expect(points[1]?.relativeLift).toBeCloseTo(0.5, 12);
  });

  it('has a point per variant each day, null while a comparison cannot be made', () => {
    const arms = [
      day('2026-11-20', 'lp17', 40, 4),
      day('2026-11-21', 'default', 50, 5),
      day('2026-11-21', 'lp11', 1, 1),
    ];
    const points = liftOverDays({ ...OPTIONS, arms });
    expect(points.map((p) => [p.day, p.variant, p.relativeLift === null])).toEqual([
      ['2026-11-20', 'lp17', true],
      ['2026-11-20', 'lp11', true],
      ['2026-11-21', 'lp17', false],
      ['2026-11-21', 'lp11', true],
    ]);
    expect(points[2]?.relativeLift).toBeCloseTo(0, 12);
  });

  it('reads revenue in the main currency, capped at the phase’s cap on every day', () => {
    const bucket = (date: string, variant: string, revenueMinor: number, visitors: number) => ({
      day: date,
      variant,
      currency: 'USD',
      revenueMinor,
      visitors,
    });
    const arms = [
      day('2026-11-20', 'default', 100, 10),
      day('2026-11-20', 'lp17', 100, 11),
      day('2026-11-21', 'default', 100, 10),
      day('2026-11-21', 'lp17', 100, 10),
    ];
    const revenue = [
      bucket('2026-11-20', 'default', 699, 10),
      bucket('2026-11-20', 'lp17', 699, 10),
      // A whale, counted as 13.98, the cap.
      bucket('2026-11-20', 'lp17', 500_000, 1),
      bucket('2026-11-21', 'default', 1398, 10),
      bucket('2026-11-21', 'lp17', 699, 10),
      { ...bucket('2026-11-21', 'lp17', 100_000, 50), currency: 'EUR' },
    ];
    const points = liftOverDays({
      ...OPTIONS,
      variants: ['lp17'],
      arms,
      revenue,
      metric: 'revenue',
      mainCurrency: 'USD',
      revenueCap: 1398,
    });
    const revenueOf = (n: number, values: [number, number][]) => ({
      n,
      sum: values.reduce((sum, [value, count]) => sum + value * count, 0),
      sumSquares: values.reduce((sum, [value, count]) => sum + value * value * count, 0),
    });
    const first = compareToControl(
      revenueOf(100, [[699, 10]]),
      revenueOf(100, [
        [699, 10],
        [1398, 1],
      ]),
      1000,
    );
    const second = compareToControl(
      revenueOf(200, [
        [699, 10],
        [1398, 10],
      ]),
      revenueOf(200, [
        [699, 20],
        [1398, 1],
      ]),
      1000,
    );
    expect(points.map((p) => p.relativeLift)).toEqual([first?.relativeLift, second?.relativeLift]);
    expect(points.map((p) => p.relativeInterval)).toEqual([
      first?.relativeInterval,
      second?.relativeInterval,
    ]);
  });

  it('is empty before anyone is exposed', () => {
    expect(liftOverDays({ ...OPTIONS, arms: [] })).toEqual([]);
  });
});
