import type { SaveOfferResult } from '../../../shared/console-api/experiment-results';
import type { ExperimentDesign } from '../design/experiment-design';
import { judgeVariant } from '../statistics/statistics';
import type { SaveOfferRow } from '../store/save-offer-statements';
import type { MetricCounts } from './totals';

/**
 * A save offer test's arms as the results show them (docs/experiments.md, "Testing the save
 * offer"; docs/statistics.md, "What is counted"): the subscriptions shown the offer stand for
 * the exposed, and "kept" (shown and not cancelled from the page) is the conversion, judged
 * against the control's with the always-valid interval and verdict rules of every conversion
 * (statistics.ts judgeVariant), withheld when the shown are off the shares (`srmAlarm`).
 */
export function saveOfferResult(
  design: ExperimentDesign,
  rows: readonly SaveOfferRow[],
  variant: string,
  srmAlarm: boolean,
): SaveOfferResult | null {
  if (!isSaveOfferTest(design)) return null;
  const row = rows.find((of) => of.variant === variant);
  const own = keptCounts(rows, variant);
  const counted = {
    shown: row?.shown ?? 0,
    choseKeep: row?.chose_keep ?? 0,
    cancelled: row?.cancelled ?? 0,
  };
  const kept = {
    count: own.sum,
    rate: own.n > 0 ? own.sum / own.n : 0,
    relativeLift: null,
    relativeInterval: null,
    verdict: null,
  };
  if (variant === design.control) return { ...counted, kept };
  const { comparison, verdict } = judgeVariant({
    control: keptCounts(rows, design.control),
    variant: own,
    plannedPerArm: design.plannedPerArm,
    srmAlarm,
  });
  return {
    ...counted,
    kept: {
      ...kept,
      relativeLift: comparison?.relativeLift ?? null,
      relativeInterval: comparison?.relativeInterval ?? null,
      verdict,
    },
  };
}

/** A test of layer `subscriber`: the save offer test, counted by subscription, not visitor. */
export function isSaveOfferTest(design: ExperimentDesign): boolean {
  return design.layer === 'subscriber';
}

/** An arm's subscriptions shown the offer (0 without a row): what its sample-ratio check counts. */
export function shownOf(rows: readonly SaveOfferRow[], variant: string): number {
  return rows.find((row) => row.variant === variant)?.shown ?? 0;
}

/** The kept as a conversion of the shown: each shown subscription 1 if kept, 0 if cancelled. */
function keptCounts(rows: readonly SaveOfferRow[], variant: string): MetricCounts {
  const shown = shownOf(rows, variant);
  const kept = shown - (rows.find((row) => row.variant === variant)?.cancelled ?? 0);
  return { n: shown, sum: kept, sumSquares: kept, nonZero: kept };
}
