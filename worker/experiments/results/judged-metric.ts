import type { MetricResult } from '../../../shared/console-api/results';
import { judgeVariant } from '../statistics/statistics';
import { type DailyLook, sampleAt } from './daily-looks';
import type { MetricCounts } from './totals';

/** What a variant's metric says against the control, as the results answer it. */
export type Judgement = Pick<
  MetricResult,
  'absoluteLift' | 'absoluteInterval' | 'relativeLift' | 'relativeInterval' | 'pValue' | 'verdict'
>;

/**
 * A metric's own reading with nothing judged: the control's as it stays, a variant's before
 * judgedMetric adds its lift against the control.
 */
export function unjudgedMetric<M extends string>(
  metric: M,
  primary: boolean,
  counts: MetricCounts,
): Omit<MetricResult, 'metric'> & { metric: M } {
  return {
    metric,
    primary,
    count: counts.nonZero,
    mean: counts.n > 0 ? counts.sum / counts.n : 0,
    absoluteLift: null,
    absoluteInterval: null,
    relativeLift: null,
    relativeInterval: null,
    pValue: null,
    verdict: null,
  };
}

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
  /** The false-alarm rate this comparison may spend: less where it is one of a family. */
  alpha?: number;
}): Judgement {
  const { comparison, verdict } = judgeVariant({
    control: input.control.counts,
    variant: input.variant.counts,
    plannedPerArm: input.plannedPerArm,
    srmAlarm: input.srmAlarm,
    ...(input.alpha === undefined ? {} : { alpha: input.alpha }),
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
