import type {
  ExperimentResultMetric,
  SegmentDimension,
  SegmentLevelResults,
  SegmentResults,
} from '../../../shared/console-api/experiment-results';
import { ALPHA, judgeVariant } from '../statistics/statistics';
import { type SegmentRow, STEP_COLUMNS } from '../store/phase-rows';

/**
 * One segment's view of an experiment's results: each level of the dimension, as
 * captured at exposure, with every arm's steps and each variant's lift over the control. A level
 * is shown only when every arm has MIN_EXPOSED_PER_ARM exposed in it, and the intervals are
 * corrected for the levels shown (Bonferroni: α divided by their number), since looking at many
 * levels finds a "winner" in one of them by chance. Revenue is not segmented: the rows keep the
 * steps only, and a segment's revenue would need its own histograms.
 */

const MIN_EXPOSED_PER_ARM = 100;

export const SEGMENT_CAUTION =
  'segments find ideas and bugs; confirm a segment winner with a test aimed at it';

type SegmentedMetric = keyof typeof STEP_COLUMNS;

function isSegmented(metric: ExperimentResultMetric): metric is SegmentedMetric {
  return Object.hasOwn(STEP_COLUMNS, metric);
}

export function segmentResults(input: {
  dimension: SegmentDimension;
  rows: readonly SegmentRow[];
  /** The arms, the control first. */
  variants: readonly string[];
  control: string;
  metrics: readonly ExperimentResultMetric[];
  plannedPerArm: number;
  /** The phase's sample-ratio alarm: its verdicts are withheld, the segments' too. */
  srmAlarm?: boolean;
}): SegmentResults {
  const rows = input.rows.filter((row) => row.dimension === input.dimension);
  const levels = [...new Set(rows.map((row) => row.level))].sort();
  const cell = (level: string, variant: string) =>
    rows.find((row) => row.level === level && row.variant === variant);
  const shown = levels.filter((level) =>
    input.variants.every((variant) => (cell(level, variant)?.exposed ?? 0) >= MIN_EXPOSED_PER_ARM),
  );
  const metrics = input.metrics.filter(isSegmented);
  // The levels shown share the family-wise α every interval of the results uses.
  const alpha = ALPHA / Math.max(1, shown.length);

  // A step's converters are its non-zero values: what a verdict needs (statistics.ts ArmCounts).
  const sample = (row: SegmentRow | undefined, metric: SegmentedMetric) => {
    const converted = row?.[STEP_COLUMNS[metric]] ?? 0;
    return { n: row?.exposed ?? 0, sum: converted, sumSquares: converted, nonZero: converted };
  };

  return {
    dimension: input.dimension,
    caution: SEGMENT_CAUTION,
    hiddenLevels: levels.length - shown.length,
    levels: shown.map(
      (level): SegmentLevelResults => ({
        level,
        variants: input.variants.map((variant) => {
          const row = cell(level, variant);
          return {
            variant,
            exposed: row?.exposed ?? 0,
            metrics: metrics.map((metric) => {
              const own = sample(row, metric);
              // Judged as the whole results are, at the α shared among the levels shown.
              const judged =
                variant === input.control
                  ? null
                  : judgeVariant({
                      control: sample(cell(level, input.control), metric),
                      variant: own,
                      plannedPerArm: input.plannedPerArm,
                      srmAlarm: input.srmAlarm === true,
                      alpha,
                    });
              return {
                metric,
                mean: own.n > 0 ? own.sum / own.n : 0,
                relativeLift: judged?.comparison?.relativeLift ?? null,
                relativeInterval: judged?.comparison?.relativeInterval ?? null,
                verdict: judged?.verdict ?? null,
              };
            }),
          };
        }),
      }),
    ),
  };
}
