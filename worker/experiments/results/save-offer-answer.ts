import type {
  SaveOfferResult,
  SaveOfferRevenue,
} from '../../../shared/console-api/experiment-results';
import type { ExperimentDesign } from '../design/experiment-design';
import { ALPHA, judgeVariant } from '../statistics/statistics';
import type {
  SaveOfferMoneyRow,
  SaveOfferReasonRow,
  SaveOfferRow,
} from '../store/save-offer-statements';
import type { MetricCounts } from './totals';

/** A save offer test's rows of one phase: per arm, its outcomes, reasons and net revenue. */
export interface SaveOfferRows {
  arms: readonly SaveOfferRow[];
  reasons: readonly SaveOfferReasonRow[];
  money: readonly SaveOfferMoneyRow[];
}

/**
 * A save offer test's arms as the results show them (docs/experiments.md, "Testing the save
 * offer"; docs/statistics.md, "What is counted"): the subscriptions shown the offer stand for
 * the exposed, and "kept" (shown and not cancelled) is the conversion, judged against the
 * control's with the always-valid interval and verdict rules of every conversion
 * (statistics.ts judgeVariant); net revenue since the offer, per shown subscription, is judged
 * the same way in each currency, α shared among the currencies. Verdicts are withheld when the
 * shown are off the shares (`srmAlarm`).
 */
export function saveOfferResult(
  design: ExperimentDesign,
  rows: SaveOfferRows,
  variant: string,
  srmAlarm: boolean,
): SaveOfferResult | null {
  if (!isSaveOfferTest(design)) return null;
  const row = rows.arms.find((of) => of.variant === variant);
  const own = keptCounts(rows.arms, variant);
  const counted = {
    shown: row?.shown ?? 0,
    choseKeep: row?.chose_keep ?? 0,
    tookAction: row?.took_action ?? 0,
    cancelled: row?.cancelled ?? 0,
    reasons: rows.reasons
      .filter((of) => of.variant === variant)
      .map((of) => ({ reason: of.reason, count: of.subscriptions }))
      .sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason)),
    netRevenue: netRevenueOf(design, rows, variant, srmAlarm),
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
    control: keptCounts(rows.arms, design.control),
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

/**
 * Net revenue in one currency per subscription shown the offer: one that paid in no other way
 * counts 0, so every arm is read over all it showed, and a discount that keeps more subscribers
 * at a lower price is weighed against one that loses them at the full price.
 */
function moneyCounts(rows: SaveOfferRows, variant: string, currency: string): MetricCounts {
  const money = rows.money.find((row) => row.variant === variant && row.currency === currency);
  return {
    n: shownOf(rows.arms, variant),
    sum: money?.net_minor ?? 0,
    sumSquares: money?.net_squares ?? 0,
    nonZero: money?.paying ?? 0,
  };
}

/** The currencies the test's subscriptions paid in, the most paying first. */
function currenciesOf(rows: SaveOfferRows): string[] {
  const paying = new Map<string, number>();
  for (const row of rows.money) {
    paying.set(row.currency, (paying.get(row.currency) ?? 0) + row.paying);
  }
  return [...paying].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([c]) => c);
}

/** An arm's net revenue since the offer in each currency, judged against the control's. */
function netRevenueOf(
  design: ExperimentDesign,
  rows: SaveOfferRows,
  variant: string,
  srmAlarm: boolean,
): SaveOfferRevenue[] {
  const currencies = currenciesOf(rows);
  const alpha = ALPHA / Math.max(1, currencies.length);
  return currencies.map((currency) => {
    const own = moneyCounts(rows, variant, currency);
    const read = {
      currency,
      amountMinor: own.sum,
      paying: own.nonZero,
      perShown: own.n > 0 ? own.sum / own.n : 0,
    };
    if (variant === design.control) {
      return { ...read, relativeLift: null, relativeInterval: null, verdict: null };
    }
    const { comparison, verdict } = judgeVariant({
      control: moneyCounts(rows, design.control, currency),
      variant: own,
      plannedPerArm: design.plannedPerArm,
      srmAlarm,
      alpha,
    });
    return {
      ...read,
      relativeLift: comparison?.relativeLift ?? null,
      relativeInterval: comparison?.relativeInterval ?? null,
      verdict,
    };
  });
}
