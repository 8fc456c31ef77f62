import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ArmCounts,
  compareToControl,
  judgeVariant,
  type Look,
  runningComparisons,
} from '../../../worker/experiments/statistics';
import { arrivalsPerLook, binomial, mulberry32 } from './simulation';

/**
 * The p-value and interval across looks (statistics.ts runningComparisons): the running minimum
 * of the p-values and the running intersection of the intervals, one look per exposure day.
 */

const conversions = (n: number, converters: number): ArmCounts => ({
  n,
  sum: converters,
  sumSquares: converters,
  nonZero: converters,
});

/** Both arms after each of 20 looks: a conversion experiment drawn as binomial counts. */
function simulatedLooks(rates: [number, number], plannedPerArm: number, seed: number): Look[] {
  const random = mulberry32(seed);
  let control = conversions(0, 0);
  let variant = conversions(0, 0);
  return arrivalsPerLook(plannedPerArm).map((arrivals) => {
    const toVariant = binomial(arrivals, 0.5, random);
    const toControl = arrivals - toVariant;
    control = conversions(
      control.n + toControl,
      control.sum + binomial(toControl, rates[0], random),
    );
    variant = conversions(
      variant.n + toVariant,
      variant.sum + binomial(toVariant, rates[1], random),
    );
    return { control, variant };
  });
}

describe('the always-valid p-value across looks', () => {
  it('never rises from one look to the next, and its interval only narrows', () => {
    let rises = 0;
    for (let seed = 1; seed <= 300; seed++) {
      // A/A, and a true 10% lift, at the planned sample of 28 242 per arm.
      const rates: [number, number] = seed % 2 ? [0.1, 0.1] : [0.1, 0.11];
      const looks = simulatedLooks(rates, 28_242, seed);
      const running = runningComparisons(looks, 28_242);
      const alone = looks.map((look) => compareToControl(look.control, look.variant, 28_242));
      for (let k = 1; k < looks.length; k++) {
        const [before, now] = [running[k - 1], running[k]];
        if (!before || !now) continue;
        expect(now.pValue).toBeLessThanOrEqual(before.pValue);
        expect(now.absoluteInterval.lower).toBeGreaterThanOrEqual(before.absoluteInterval.lower);
        expect(now.absoluteInterval.upper).toBeLessThanOrEqual(before.absoluteInterval.upper);
        if (alone[k]!.pValue > alone[k - 1]!.pValue) rises += 1;
      }
    }
    // The one-look value the running minimum replaces rises often: the test can tell them apart.
    expect(rises).toBeGreaterThan(1000);
  });

  it('is the one look’s own value when there is one look', () => {
    const control = conversions(10_000, 1000);
    const variant = conversions(10_000, 1100);
    const alone = compareToControl(control, variant, 10_000);
    expect(runningComparisons([{ control, variant }], 10_000)).toEqual([alone]);
    expect(
      judgeVariant({ control, variant, plannedPerArm: 10_000, srmAlarm: false }).comparison,
    ).toEqual(alone);
  });

  it('keeps a first day’s evidence that a second day dilutes, and the verdict with it', () => {
    const firstDay = { control: conversions(1000, 100), variant: conversions(1000, 150) };
    const control = conversions(2000, 200);
    const variant = conversions(2000, 250);
    const first = compareToControl(firstDay.control, firstDay.variant, 1000)!;
    const alone = compareToControl(control, variant, 1000)!;
    // Read alone, the second look has lost the difference: p rose from below α to above it.
    expect(first.pValue).toBeLessThan(0.05);
    expect(alone.pValue).toBeGreaterThan(0.05);
    expect(alone.absoluteInterval.lower).toBeLessThan(0);

    const { comparison, verdict } = judgeVariant({
      control,
      variant,
      plannedPerArm: 1000,
      srmAlarm: false,
      earlierLooks: [firstDay],
    });
    expect(comparison?.pValue).toBe(first.pValue);
    expect(comparison?.absoluteLift).toBe(alone.absoluteLift);
    expect(comparison?.absoluteInterval).toEqual({
      lower: first.absoluteInterval.lower,
      upper: alone.absoluteInterval.upper,
    });
    expect(verdict).toBe('better');
  });

  it('reads afresh from a look whose interval leaves no common part with the earlier ones', () => {
    const earlier = { control: conversions(1000, 100), variant: conversions(1000, 200) };
    const control = conversions(11_000, 2100);
    const variant = conversions(11_000, 300);
    const alone = compareToControl(control, variant, 1000)!;
    expect(alone.absoluteInterval.upper).toBeLessThan(
      compareToControl(earlier.control, earlier.variant, 1000)!.absoluteInterval.lower,
    );
    const result = judgeVariant({
      control,
      variant,
      plannedPerArm: 1000,
      srmAlarm: false,
      earlierLooks: [earlier],
    });
    expect(result).toEqual({ comparison: alone, verdict: 'worse' });
  });

  it('is below α exactly when the verdict is better or worse, at every look', () => {
    const day = fc.record({
      visitors: fc.integer({ min: 50, max: 5000 }),
      controlRate: fc.double({ min: 0.05, max: 0.5, noNaN: true }),
      variantRate: fc.double({ min: 0.05, max: 0.5, noNaN: true }),
    });
    fc.assert(
      fc.property(fc.array(day, { minLength: 1, maxLength: 12 }), (days) => {
        let control = conversions(0, 0);
        let variant = conversions(0, 0);
        const looks: Look[] = [];
        for (const { visitors, controlRate, variantRate } of days) {
          control = conversions(
            control.n + visitors,
            control.sum + Math.round(visitors * controlRate),
          );
          variant = conversions(
            variant.n + visitors,
            variant.sum + Math.round(visitors * variantRate),
          );
          const { comparison, verdict } = judgeVariant({
            control,
            variant,
            plannedPerArm: 2000,
            srmAlarm: false,
            earlierLooks: looks,
          });
          looks.push({ control, variant });
          if (verdict === 'not_enough_data') continue;
          expect(comparison!.pValue < 0.05).toBe(verdict === 'better' || verdict === 'worse');
        }
      }),
      { seed: 14, numRuns: 300 },
    );
  });
});
