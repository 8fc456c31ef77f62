import { describe, expect, it } from 'vitest';
import {
  type ArmCounts,
  compareToControl,
  judgeVariant,
  type Look,
  runningComparisons,
} from '../../../worker/experiments/statistics/statistics';
import { arrivalsPerLook, binomial, mulberry32 } from './simulation';

/**
 * The p-value and intervals across looks (statistics.ts runningComparisons): a p-value that never
 * rises and the running intersection of the intervals, one look per exposure day.
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

/** The verdict on today's totals, read with one earlier look, tuned to 1000 visitors per arm. */
const judgeAfter = (earlier: Look, today: { control: ArmCounts; variant: ArmCounts }) =>
  judgeVariant({ ...today, plannedPerArm: 1000, srmAlarm: false, earlierLooks: [earlier] });

describe('the always-valid p-value across looks', () => {
  it('never rises from one look to the next, and its interval only narrows', () => {
    let rises = 0;
    for (let seed = 1; seed <= 300; seed++) {
      // A/A, and a true 10% lift, at about the planned sample (25 696 per arm).
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
    // 70% more buyers on the first day (both intervals above 0), 20% fewer on the second.
    const firstDay = { control: conversions(1000, 100), variant: conversions(1000, 170) };
    const control = conversions(2000, 200);
    const variant = conversions(2000, 250);
    const first = compareToControl(firstDay.control, firstDay.variant, 1000)!;
    const alone = compareToControl(control, variant, 1000)!;
    // Read alone, the second look has lost the difference: p rose from below α to above it.
    expect(first.pValue).toBeLessThan(0.05);
    expect(alone.pValue).toBeGreaterThan(0.05);
    expect(alone.absoluteInterval.lower).toBeLessThan(0);

    const { comparison, verdict } = judgeAfter(firstDay, { control, variant });
    expect(comparison?.pValue).toBe(first.pValue);
    expect(comparison?.absoluteLift).toBe(alone.absoluteLift);
    expect(comparison?.absoluteInterval).toEqual({
      lower: first.absoluteInterval.lower,
      upper: alone.absoluteInterval.upper,
    });
    expect(comparison?.relativeInterval).toEqual({
      lower: first.relativeInterval!.lower,
      upper: alone.relativeInterval!.upper,
    });
    expect(comparison!.relativeInterval!.lower).toBeGreaterThan(0);
    expect(verdict).toBe('better');
  });

  it('has no relative interval before the variant’s first buyer, and is not stuck at −100% after', () => {
    // Control buyers from the first day, the variant's first ones on the third, then more.
    const looks: Look[] = [
      { control: conversions(500, 10), variant: conversions(500, 0) },
      { control: conversions(1000, 20), variant: conversions(1000, 0) },
      { control: conversions(1500, 30), variant: conversions(1500, 25) },
      { control: conversions(2000, 40), variant: conversions(2000, 44) },
    ];
    const running = runningComparisons(looks, 1000);
    const alone = looks.map((look) => compareToControl(look.control, look.variant, 1000)!);
    expect(running.slice(0, 2).map((look) => look?.relativeLift)).toEqual([-1, -1]);
    expect(running.slice(0, 2).map((look) => look?.relativeInterval)).toEqual([null, null]);
    // The first interval is the third look's own, the next its intersection with the fourth's.
    expect(running[2]!.relativeInterval).toEqual(alone[2]!.relativeInterval);
    expect(running[3]!.relativeLift).toBeCloseTo(0.1, 12);
    expect(running[3]!.relativeInterval).toEqual({
      lower: Math.max(alone[2]!.relativeInterval!.lower, alone[3]!.relativeInterval!.lower),
      upper: Math.min(alone[2]!.relativeInterval!.upper, alone[3]!.relativeInterval!.upper),
    });
    expect(running[3]!.relativeInterval!.lower).toBeLessThan(0);
    expect(running[3]!.relativeInterval!.upper).toBeGreaterThan(0.1);
  });

  it('never sticks at −100% in A/A experiments at a 2% rate, looked at daily', () => {
    let withoutInterval = 0;
    let missed = 0;
    for (let seed = 1; seed <= 300; seed++) {
      // 100 visitors a day per arm for 30 days: about 2 buyers a day each, some days none.
      const random = mulberry32(seed);
      let control = conversions(0, 0);
      let variant = conversions(0, 0);
      const looks: Look[] = Array.from({ length: 30 }, () => {
        control = conversions(control.n + 100, control.sum + binomial(100, 0.02, random));
        variant = conversions(variant.n + 100, variant.sum + binomial(100, 0.02, random));
        return { control, variant };
      });
      const running = runningComparisons(looks, 10_000);
      for (const comparison of running) {
        if (comparison === null) continue;
        if (comparison.relativeInterval === null) withoutInterval += 1;
        else expect(comparison.relativeInterval.upper).toBeGreaterThan(-1);
      }
      // Both arms have buyers by the last look: its interval holds the true lift of 0.
      const last = running.at(-1)!.relativeInterval!;
      if (!(last.lower < 0 && last.upper > 0)) missed += 1;
    }
    // The case happened: looks where one arm had no buyer yet.
    expect(withoutInterval).toBeGreaterThan(10);
    // And the last intervals miss the truth no more often than α allows (5% of 300).
    expect(missed).toBeLessThanOrEqual(15);
  });

  it('keeps the relative intersection across a look that has no relative interval', () => {
    // Counts by exposure day are re-read, so a later look may lack what an earlier one had.
    const looks: Look[] = [
      { control: conversions(100, 10), variant: conversions(100, 11) },
      { control: conversions(200, 12), variant: conversions(200, 0) },
    ];
    const [first, second] = runningComparisons(looks, 1000);
    // Read on, not afresh: the absolute intervals have a common part.
    const [one, two] = looks.map((look) => compareToControl(look.control, look.variant, 1000)!);
    expect(second!.absoluteInterval).toEqual({
      lower: Math.max(one!.absoluteInterval.lower, two!.absoluteInterval.lower),
      upper: Math.min(one!.absoluteInterval.upper, two!.absoluteInterval.upper),
    });
    expect(second!.relativeLift).not.toBe(first!.relativeLift);
    expect(second!.relativeInterval).toEqual(first!.relativeInterval);
  });

  it('reads afresh from a look whose interval leaves no common part with the earlier ones', () => {
    const earlier = { control: conversions(1000, 100), variant: conversions(1000, 200) };
    const control = conversions(11_000, 2100);
    const variant = conversions(11_000, 300);
    const alone = compareToControl(control, variant, 1000)!;
    expect(alone.absoluteInterval.upper).toBeLessThan(
      compareToControl(earlier.control, earlier.variant, 1000)!.absoluteInterval.lower,
    );
    const result = judgeAfter(earlier, { control, variant });
    expect(result).toEqual({ comparison: alone, verdict: 'worse' });
  });

  it('reads afresh when the absolute interval has risen above 0 and the relative fallen below', () => {
    // Day one: the absolute interval rises above 0, the relative one still holds 0. Day two: a
    // fall, the relative interval below 0, the absolute one holding 0 and still meeting day
    // one's. Intersected, they would say better and worse at once; each p-value below α. On
    // the log of the ratio this takes revenue with one control buyer far above the rest, whose
    // spread widens the relative interval for a rise and narrows it for a fall.
    const buyers = (n: number, count: number, whale = 0): ArmCounts => ({
      n,
      sum: count * 1000 + whale,
      sumSquares: count * 1000 ** 2 + whale ** 2,
      nonZero: count + (whale > 0 ? 1 : 0),
    });
    const earlier = { control: buyers(200, 20, 20_000), variant: buyers(200, 113) };
    const control = buyers(400, 80, 20_000);
    const variant = buyers(400, 35);
    const first = compareToControl(earlier.control, earlier.variant, 1000)!;
    const alone = compareToControl(control, variant, 1000)!;
    expect(first.absoluteInterval.lower).toBeGreaterThan(0);
    expect(first.relativeInterval!.lower).toBeLessThan(0);
    expect(alone.relativeInterval!.upper).toBeLessThan(0);
    expect(alone.absoluteInterval.upper).toBeGreaterThan(first.absoluteInterval.lower);
    const result = judgeAfter(earlier, { control, variant });
    expect(result).toEqual({ comparison: alone, verdict: 'no_difference_yet' });
    expect(alone.pValue).toBeGreaterThan(0.05);
  });
});
