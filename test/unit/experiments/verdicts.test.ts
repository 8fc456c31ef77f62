import { describe, expect, it } from 'vitest';
import { type ArmCounts, judgeVariant } from '../../../worker/experiments/statistics';

/** A conversion arm: `converters` of `n` visitors. */
const conversions = (n: number, converters: number): ArmCounts => ({
  n,
  sum: converters,
  sumSquares: converters,
  nonZero: converters,
});

const judge = (control: ArmCounts, variant: ArmCounts, srmAlarm = false) =>
  judgeVariant({ control, variant, plannedPerArm: 10_000, srmAlarm });

describe('a variant’s verdict', () => {
  it('is better or worse when the always-valid interval leaves out 0 on that side', () => {
    expect(judge(conversions(10_000, 1000), conversions(10_000, 1300)).verdict).toBe('better');
    expect(judge(conversions(10_000, 1300), conversions(10_000, 1000)).verdict).toBe('worse');
  });

  it('is no difference yet while the interval holds 0', () => {
    const result = judge(conversions(10_000, 1000), conversions(10_000, 1040));
    expect(result.comparison!.absoluteInterval.lower).toBeLessThan(0);
    expect(result.comparison!.absoluteInterval.upper).toBeGreaterThan(0);
    expect(result.verdict).toBe('no_difference_yet');
  });

  it('is not enough data below 100 visitors in an arm, however clear the numbers', () => {
    expect(judge(conversions(99, 60), conversions(10_000, 100)).verdict).toBe('not_enough_data');
    expect(judge(conversions(100, 60), conversions(10_000, 100)).verdict).toBe('worse');
  });

  it('is not enough data below 25 conversions in an arm', () => {
    const clear = judge(conversions(5000, 24), conversions(5000, 300));
    expect(clear.comparison!.absoluteInterval.lower).toBeGreaterThan(0);
    expect(clear.verdict).toBe('not_enough_data');
    expect(judge(conversions(5000, 25), conversions(5000, 300)).verdict).toBe('better');
  });

  it('counts purchasers, not revenue, toward the 25 for revenue per visitor', () => {
    const revenue = (n: number, purchasers: number, each: number): ArmCounts => ({
      n,
      sum: purchasers * each,
      sumSquares: purchasers * each * each,
      nonZero: purchasers,
    });
    expect(judge(revenue(5000, 24, 40), revenue(5000, 300, 40)).verdict).toBe('not_enough_data');
    expect(judge(revenue(5000, 25, 40), revenue(5000, 300, 40)).verdict).toBe('better');
  });

  it('is not enough data while nothing varies yet (no conversion in either arm)', () => {
    const result = judge(conversions(500, 0), conversions(500, 0));
    expect(result).toEqual({ comparison: null, verdict: 'not_enough_data' });
  });

  it('is withheld under a sample-ratio alarm, whatever the numbers say; they stay shown', () => {
    const result = judge(conversions(10_000, 1000), conversions(10_000, 1300), true);
    expect(result.verdict).toBe('withheld_srm');
    expect(result.comparison!.absoluteLift).toBeCloseTo(0.03, 12);
    expect(judge(conversions(10, 1), conversions(10, 2), true).verdict).toBe('withheld_srm');
  });
});
