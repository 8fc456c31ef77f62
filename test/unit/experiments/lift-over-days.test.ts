import { describe, expect, it } from 'vitest';
import { dailyLooks } from '../../../worker/experiments/results/daily-looks';
import type { DayArm } from '../../../worker/experiments/results/experiment-days';
import { liftOverDays } from '../../../worker/experiments/results/lift-over-days';
import { compareToControl } from '../../../worker/experiments/statistics/statistics';

/** The primary metric's lift over days (worker/experiments/results/lift-over-days.ts). */

function day(date: string, variant: string, exposed: number, purchase: number): DayArm {
  return { day: date, variant, exposed, steps: { lookup: 0, signup: 0, checkout: 0, purchase } };
}

const conversions = (n: number, converters: number) => ({
  n,
  sum: converters,
  sumSquares: converters,
});

function looksOf(arms: DayArm[]) {
  return dailyLooks({
    arms,
    revenue: [],
    metric: 'purchase',
    mainCurrency: null,
    revenueCap: null,
  });
}

const OPTIONS = { control: 'default', variants: ['lp17', 'lp11'], plannedPerArm: 1000 };

describe('the lift over days', () => {
  it('is, on each day, the lift over everyone exposed up to then, its interval held to the earlier days’', () => {
    // The first day's visitors show a large lift, the second day's none.
    const arms = [
      day('2026-11-20', 'default', 1000, 100),
      day('2026-11-20', 'lp17', 1000, 150),
      day('2026-11-21', 'default', 1000, 100),
      day('2026-11-21', 'lp17', 1000, 100),
    ];
    const points = liftOverDays({ ...OPTIONS, variants: ['lp17'], looks: looksOf(arms) });
    const first = compareToControl(conversions(1000, 100), conversions(1000, 150), 1000)!;
    const second = compareToControl(conversions(2000, 200), conversions(2000, 250), 1000)!;
    expect(points.map(({ day, variant }) => [day, variant])).toEqual([
      ['2026-11-20', 'lp17'],
      ['2026-11-21', 'lp17'],
    ]);
    expect(points[0]).toMatchObject({
      relativeLift: first.relativeLift,
      relativeInterval: first.relativeInterval,
    });
    expect(points[1]?.relativeLift).toBeCloseTo(0.25, 12);
    // The second day's interval reaches lower than the first's, which reaches higher: the point
    // keeps the part both hold.
    expect(second.relativeInterval!.lower).toBeLessThan(first.relativeInterval!.lower);
    expect(first.relativeInterval!.upper).toBeGreaterThan(second.relativeInterval!.upper);
    expect(points[1]?.relativeInterval).toEqual({
      lower: first.relativeInterval!.lower,
      upper: second.relativeInterval!.upper,
    });
  });

  it('has a point per variant each day, null while a comparison cannot be made', () => {
    const arms = [
      day('2026-11-20', 'lp17', 40, 4),
      day('2026-11-21', 'default', 50, 5),
      day('2026-11-21', 'lp11', 1, 1),
    ];
    const points = liftOverDays({ ...OPTIONS, looks: looksOf(arms) });
    expect(points.map((p) => [p.day, p.variant, p.relativeLift === null])).toEqual([
      ['2026-11-20', 'lp17', true],
      ['2026-11-20', 'lp11', true],
      ['2026-11-21', 'lp17', false],
      ['2026-11-21', 'lp11', true],
    ]);
    expect(points[2]?.relativeLift).toBeCloseTo(0, 12);
  });

  it('is empty before anyone is exposed', () => {
    expect(liftOverDays({ ...OPTIONS, looks: [] })).toEqual([]);
  });
});
