import type { LiftPoint } from '../../../shared/console-api/results';
import { runningComparisons } from '../statistics/statistics';
import { type DailyLook, sampleAt } from './daily-looks';

/**
 * The primary metric's relative lift of each variant against the control, with its always-valid
 * interval, at each of the phase's daily looks (daily-looks.ts): the chart of the results page.
 * Each point is the results' own computation over the looks up to that day (the interval the
 * running intersection of theirs), so the last point is the table's.
 */
export function liftOverDays(options: {
  /** The primary metric's looks. */
  looks: readonly DailyLook[];
  control: string;
  /** The variants compared with the control, in the order the points list them. */
  variants: readonly string[];
  plannedPerArm: number;
}): LiftPoint[] {
  const { looks, control, plannedPerArm } = options;
  const byVariant = options.variants.map((variant) =>
    runningComparisons(
      looks.map((look) => ({ control: sampleAt(look, control), variant: sampleAt(look, variant) })),
      plannedPerArm,
    ),
  );
  return looks.flatMap((look, index) =>
    options.variants.map((variant, v) => {
      const comparison = byVariant[v]?.[index] ?? null;
      return {
        day: look.day,
        variant,
        relativeLift: comparison?.relativeLift ?? null,
        relativeInterval: comparison?.relativeInterval ?? null,
      };
    }),
  );
}
