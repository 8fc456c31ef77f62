import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ArmCounts,
  judgeVariant,
  type Look,
  runningComparisons,
} from '../../../worker/experiments/statistics/statistics';

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

  it('is no difference yet while the relative interval the table shows holds 0', () => {
    // 25% against 46% of 100: the absolute interval is above 0, the relative one, on the log of
    // the ratio, is not (for so large a lift on so few visitors it is the wider one).
    const result = judgeVariant({
      control: conversions(100, 25),
      variant: conversions(100, 46),
      plannedPerArm: 100,
      srmAlarm: false,
    });
    const { absoluteInterval, relativeInterval, relativeLift, pValue } = result.comparison!;
    expect(absoluteInterval.lower).toBeGreaterThan(0);
    expect(relativeInterval!.lower).toBeLessThan(0);
    expect(relativeInterval!.lower).toBeGreaterThan(-1);
    expect(relativeInterval!.upper).toBeGreaterThan(relativeLift!);
    expect(result.verdict).toBe('no_difference_yet');
    expect(pValue).toBeGreaterThan(0.05);
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

  it('withholds the relative lift below the minimums, where a ratio of a few conversions means nothing', () => {
    const control = conversions(60, 1);
    const variant = conversions(60, 4);
    // What the interval on so few would say: a lift of up to thousands of percent.
    const raw = runningComparisons([{ control, variant }], 10_000).at(-1)!;
    expect(raw.relativeInterval!.upper).toBeGreaterThan(10);
    const few = judge(control, variant);
    expect(few.verdict).toBe('not_enough_data');
    expect(few.comparison!.relativeLift).toBeNull();
    expect(few.comparison!.relativeInterval).toBeNull();
    // The difference of the rates stays, as does the p-value: only the ratio waits.
    expect(few.comparison!.absoluteInterval).toEqual(raw.absoluteInterval);
    expect(few.comparison!.pValue).toBe(raw.pValue);
    // At the minimums it is shown.
    expect(judge(conversions(100, 25), conversions(100, 30)).comparison!.relativeLift).toBeCloseTo(
      0.2,
      12,
    );
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

  it('never contradicts the intervals it is shown beside, and p < α exactly when it declares', () => {
    // Any run of days, each with its own rates (a rise, then a fall, and so on), any tuning.
    const day = fc.record({
      visitors: fc.integer({ min: 20, max: 5000 }),
      controlRate: fc.double({ min: 0.01, max: 0.6, noNaN: true }),
      variantRate: fc.double({ min: 0.01, max: 0.6, noNaN: true }),
    });
    const checkVerdict = (
      days: { visitors: number; controlRate: number; variantRate: number }[],
      plannedPerArm: number,
    ) => {
      let control = conversions(0, 0);
      let variant = conversions(0, 0);
      const looks: Look[] = [];
      for (const { visitors, controlRate, variantRate } of days) {
        control = conversions(
          control.n + visitors,
          control.nonZero + Math.round(visitors * controlRate),
        );
        variant = conversions(
          variant.n + visitors,
          variant.nonZero + Math.round(visitors * variantRate),
        );
        const { comparison, verdict } = judgeVariant({
          control,
          variant,
          plannedPerArm,
          srmAlarm: false,
          earlierLooks: looks,
        });
        looks.push({ control, variant });
        if (verdict === 'not_enough_data') continue;
        const { absoluteInterval, relativeInterval, pValue } = comparison!;
        if (verdict === 'better') {
          expect(absoluteInterval.lower).toBeGreaterThan(0);
          expect(relativeInterval!.lower).toBeGreaterThan(0);
        }
        if (verdict === 'worse') {
          expect(absoluteInterval.upper).toBeLessThan(0);
          expect(relativeInterval!.upper).toBeLessThan(0);
        }
        expect(pValue < 0.05).toBe(verdict === 'better' || verdict === 'worse');
      }
    };
    fc.assert(
      fc.property(
        fc.array(day, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 100, max: 100_000 }),
        checkVerdict,
      ),
      { seed: 14, numRuns: 1000 },
    );
  });
});
