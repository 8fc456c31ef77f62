import {
  type ExperimentResultMetric,
  type SegmentDimension,
  type SegmentLevelResults,
  type SegmentResults,
  UNANSWERED_LEVEL,
} from '../../../shared/console-api/experiment-results';
import { answerKeyOfName } from '../../../shared/quiz/answers';
import { ALPHA, judgeVariant } from '../statistics/statistics';
import { type SegmentRow, STEP_COLUMNS, type StepCounts } from '../store/phase-rows';

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

/** A quiz segment whose answers came after exposure: described per arm, never compared. */
export const AFTER_EXPOSURE_CAUTION =
  'these answers were given after exposure, in the arms that ask them: read each arm by its answers; an arm with more of one answer did not win in it';

type SegmentedMetric = keyof typeof STEP_COLUMNS;

function isSegmented(metric: ExperimentResultMetric): metric is SegmentedMetric {
  return Object.hasOwn(STEP_COLUMNS, metric);
}

/** An arm's totals, for a quiz segment's visitors who gave no answer (UNANSWERED_LEVEL). */
type ArmTotals = StepCounts & { upsold: number };

/**
 * A quiz segment's rows with its `unanswered` level: per arm, the exposed and steps its answers'
 * levels do not account for (a visitor who left before the question, an arm that never asks it,
 * an answer past its kept days).
 */
function withUnanswered(
  dimension: SegmentDimension,
  rows: readonly SegmentRow[],
  arms: readonly ArmTotals[],
): SegmentRow[] {
  const unanswered = arms.map((arm): SegmentRow => {
    const answered = rows.filter((row) => row.variant === arm.variant);
    const rest = (column: 'exposed' | (typeof STEP_COLUMNS)[SegmentedMetric]) =>
      Math.max(0, arm[column] - answered.reduce((sum, row) => sum + row[column], 0));
    return {
      variant: arm.variant,
      dimension,
      level: UNANSWERED_LEVEL,
      exposed: rest('exposed'),
      reached_lookup: rest('reached_lookup'),
      signed_up: rest('signed_up'),
      reached_checkout: rest('reached_checkout'),
      purchased: rest('purchased'),
      upsold: rest('upsold'),
      declined: 0,
      refunded: 0,
    };
  });
  return [...rows, ...unanswered.filter((row) => row.exposed > 0)];
}

export function segmentResults(input: {
  dimension: SegmentDimension;
  rows: readonly SegmentRow[];
  /** The arms' totals: a quiz segment's `unanswered` level is what its answers leave of them. */
  arms: readonly ArmTotals[];
  /** The arms, the control first. */
  variants: readonly string[];
  control: string;
  metrics: readonly ExperimentResultMetric[];
  plannedPerArm: number;
  /** The phase's sample-ratio alarm: its verdicts are withheld, the segments' too. */
  srmAlarm?: boolean;
}): SegmentResults {
  const own = input.rows.filter((row) => row.dimension === input.dimension);
  const quiz = answerKeyOfName(input.dimension) !== null;
  const rows = quiz ? withUnanswered(input.dimension, own, input.arms) : own;
  // Answers given after exposure are the arms' outcomes: no level compares the arms.
  const afterExposure = rows.some((row) => (row.answered_after ?? 0) > 0);
  const levels = [...new Set(rows.map((row) => row.level))].sort();
  const cell = (level: string, variant: string) =>
    rows.find((row) => row.level === level && row.variant === variant);
  const large = (level: string, variant: string) =>
    (cell(level, variant)?.exposed ?? 0) >= MIN_EXPOSED_PER_ARM;
  // Described, a level needs one arm large enough; compared, every arm.
  const shown = levels.filter((level) =>
    afterExposure
      ? input.variants.some((variant) => large(level, variant))
      : input.variants.every((variant) => large(level, variant)),
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
    caution: afterExposure ? AFTER_EXPOSURE_CAUTION : SEGMENT_CAUTION,
    ...(afterExposure ? { afterExposure: true as const } : {}),
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
              const mine = sample(row, metric);
              // Judged as the whole results are, at the α shared among the levels shown.
              const judged =
                variant === input.control || afterExposure
                  ? null
                  : judgeVariant({
                      control: sample(cell(level, input.control), metric),
                      variant: mine,
                      plannedPerArm: input.plannedPerArm,
                      srmAlarm: input.srmAlarm === true,
                      alpha,
                    });
              return {
                metric,
                mean: mine.n > 0 ? mine.sum / mine.n : 0,
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
