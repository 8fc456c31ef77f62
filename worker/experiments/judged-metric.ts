import type { MetricResult } from '../../shared/console-api/results';
import { type DailyLook, sampleAt } from './daily-looks';
import { judgeVariant } from './statistics';
import type { MetricCounts } from './totals';

/** What a variant's metric says against the control, as the results answer it. */
export type Judgement = Pick<
  MetricResult,
  'absoluteLift' | 'absoluteInterval' | 'relativeLift' | 'relativeInterval' | 'pValue' | 'verdict'
>;

/**
 * One variant against the control on one metric, at the phase's totals and over its daily looks
 * before them (daily-looks.ts), so the interval and the p-value hold across every look: the split's
 * results and each experiment's judge a metric the same way.
 */
export function judgedMetric(input: {
  control: { key: string; counts: MetricCounts };
  variant: { key: string; counts: MetricCounts };
  looks: readonly DailyLook[];
  plannedPerArm: number;
  srmAlarm: boolean;
}): Judgement {
  const { comparison, verdict } = judgeVariant({
    control: input.control.counts,
    variant: input.variant.counts,
    plannedPerArm: input.plannedPerArm,
    srmAlarm: input.srmAlarm,
    // The days add up to the totals, so the last day repeats the totals' look: harmless.
    earlierLooks: input.looks.map((look) => ({
      control: sampleAt(look, input.control.key),
      variant: sampleAt(look, input.variant.key),
    })),
  });
  return {
    absoluteLift: comparison?.absoluteLift ?? null,
    absoluteInterval: comparison?.absoluteInterval ?? null,
    relativeLift: comparison?.relativeLift ?? null,
    relativeInterval: comparison?.relativeInterval ?? null,
    pValue: comparison?.pValue ?? null,
    verdict,
  };
}
