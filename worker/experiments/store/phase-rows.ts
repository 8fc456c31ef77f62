import type { SegmentDimension } from '../../../shared/console-api/experiment-results';
import type { DeclineRow } from './decline-statements';
import type { ErrorRow } from './error-statements';
import type { LifecycleRow, RecoveredRow } from './lifecycle-statements';
import type { SaveOfferMoneyRow, SaveOfferReasonRow, SaveOfferRow } from './save-offer-statements';
import type { DayVitalsRow, VitalsRow } from './vitals-statements';

/**
 * A phase's rows as each store keeps them (experiment_arms, experiment_revenue, experiment_days,
 * experiment_day_revenue): counts and histograms that add. Every shard holds its own visitors'
 * part, EVENTS_DB that of the visitors exposed before the shards; the phase's totals are their
 * sum, exactly, whatever the visitors are spread over (the 99th percentile is taken after adding,
 * from the added histogram).
 */

/** The visitors of an arm (on a day, or in all) exposed and reaching each step after it. */
export interface StepCounts {
  variant: string;
  exposed: number;
  reached_lookup: number;
  signed_up: number;
  reached_checkout: number;
  purchased: number;
}

export interface ArmRow extends StepCounts {
  purchases: number;
  unpriced_purchases: number;
  bots: number;
  /** Every experiment's tables count it (ExperimentArmRow); the split's own have none. */
  over_budget?: number;
  /** As over_budget: every experiment's tables count it, the split's own none. */
  unconfirmed?: number;
}

export interface RevenueRow {
  variant: string;
  currency: string;
  revenue_minor: number;
  visitors: number;
}

export interface DayRow extends StepCounts {
  day: string;
  first_exposed_at: number;
}

export interface DayRevenueRow extends RevenueRow {
  day: string;
}

export interface PhaseRows {
  arms: ArmRow[];
  revenue: RevenueRow[];
  days: DayRow[];
  dayRevenue: DayRevenueRow[];
}

/**
 * Rows with the same key added into one, in the order of the keys (as SQLite's ORDER BY
 * sorts text: by code unit), so the sum of the stores reads as one store would.
 */
function addRows<T>(
  rows: readonly T[],
  keyOf: (row: T) => readonly string[],
  add: (sum: T, row: T) => T,
): T[] {
  const sums = new Map<string, { key: readonly string[]; row: T }>();
  for (const row of rows) {
    const key = keyOf(row);
    const id = JSON.stringify(key);
    const known = sums.get(id);
    sums.set(id, { key, row: known ? add(known.row, row) : { ...row } });
  }
  const compare = (a: readonly string[], b: readonly string[]) => {
    for (let i = 0; i < a.length; i++) {
      if (a[i]! !== b[i]!) return a[i]! < b[i]! ? -1 : 1;
    }
    return 0;
  };
  return [...sums.values()].sort((a, b) => compare(a.key, b.key)).map(({ row }) => row);
}

/** A bucket's amount as a sort key: numbers, in order, as text of equal width. */
function amountKey(revenueMinor: number): string {
  return revenueMinor.toString().padStart(16, '0');
}

const addVisitors = <T extends RevenueRow>(sum: T, row: T): T => ({
  ...sum,
  visitors: sum.visitors + row.visitors,
});

/** Every phase any store saw exposures in, newest first. */
export function addPhases(parts: readonly (readonly number[])[]): number[] {
  return [...new Set(parts.flat())].sort((a, b) => b - a);
}

// ---------------------------------------------------------------------------------------------
// Every experiment of the `experiments` section (shared/experiments.ts), the split included

/**
 * An arm's counts in one experiment: ArmRow, plus the visitors who after exposure bought an
 * upsell, had a payment declined (subs_purchase_failed), and had a payment refunded or charged
 * back (the product API's lifecycle events): the last two are the guardrails the alerts watch.
 */
export interface ExperimentArmRow extends ArmRow {
  upsold: number;
  declined: number;
  refunded: number;
  /** Draws left out: their address had spent its exposure budget (apart from `exposed`). */
  over_budget: number;
  /**
   * Exposures left out: their page's script never confirmed them
   * (confirmation-statements.ts), apart from `exposed`.
   */
  unconfirmed: number;
}

export interface ExperimentDayRow extends DayRow {
  upsold: number;
}

/**
 * One level of one segment in an arm, as captured at exposure ('unknown' where the visitor's
 * value was absent): the exposed and each step reached after exposure.
 */
export interface SegmentRow extends StepCounts {
  dimension: SegmentDimension;
  level: string;
  upsold: number;
  /** The guardrails, as in ExperimentArmRow. */
  declined: number;
  refunded: number;
  /** A quiz segment's (answer-statements.ts): of `exposed`, those who answered after exposure. */
  answered_after?: number;
}

/**
 * The visitors of one stratum (country, source, platform, language at exposure) in one arm: the
 * exposed and each step reached after exposure (strata-statements.ts).
 */
export interface StratumRow extends StepCounts {
  /** JSON of [country, source, platform, language], or 'other' (strata-statements.ts). */
  stratum: string;
  upsold: number;
}

/** How many of one stratum's visitors of one arm paid exactly `revenue_minor` first. */
export interface StratumRevenueRow extends RevenueRow {
  stratum: string;
}

/** The count of each step metric in the rows that count steps (segments, strata). */
export const STEP_COLUMNS = {
  lookup: 'reached_lookup',
  signup: 'signed_up',
  checkout: 'reached_checkout',
  purchase: 'purchased',
  upsell: 'upsold',
} as const satisfies Record<string, keyof SegmentRow & keyof StratumRow>;

/**
 * One experiment's rows in one phase, every store's added (a shard holds its visitors' part):
 * the split's kept tables have the same shape, so its rows from before and after the experiments
 * add into one.
 * - `arms`, `days`: exposed and steps, in total and by UTC exposure day;
 * - `revenue`, `dayRevenue`: first-payment revenue per visitor, as histograms;
 * - `netRevenue`, `dayNetRevenue`: revenue per visitor net of everything the product API reported
 *   since (renewals add, refunds and chargebacks take away), as histograms; a visitor whose net
 *   is 0 after a refund is in none of their buckets. By exposure day, so the mature view is the
 *   days old enough, added;
 * - `segments`: exposed and steps by segment level.
 */
export interface ExperimentPhaseRows {
  arms: ExperimentArmRow[];
  revenue: RevenueRow[];
  days: ExperimentDayRow[];
  dayRevenue: DayRevenueRow[];
  netRevenue: RevenueRow[];
  dayNetRevenue: DayRevenueRow[];
  segments: SegmentRow[];
  /** The field vitals' histograms (vitals-statements.ts), and the same by exposure day. */
  vitals: VitalsRow[];
  dayVitals: DayVitalsRow[];
  /** The declined visitors by decline class (decline-statements.ts). */
  declines: DeclineRow[];
  /** The visitors who met an error, by kind (error-statements.ts). */
  errors: ErrorRow[];
  /** Failed renewals, recoveries and cancellations, and recovered revenue (lifecycle-statements.ts). */
  lifecycle: LifecycleRow[];
  recovered: RecoveredRow[];
  /** A save offer test's subscriptions shown the offer, and what they did (save-offer-statements.ts). */
  saveOffers: SaveOfferRow[];
  /** Its reasons for leaving, and its subscriptions' net revenue since, per arm. */
  saveOfferReasons: SaveOfferReasonRow[];
  saveOfferMoney: SaveOfferMoneyRow[];
  /**
   * Exposed, steps and first payments by stratum (country, source, platform, language), for the
   * adjusted comparison (strata-statements.ts).
   */
  strata: StratumRow[];
  strataRevenue: StratumRevenueRow[];
}

/** Each count field of a row added; the key fields taken from the first. */
function addCounts<T extends object>(keys: readonly (keyof T)[]) {
  return (sum: T, row: T): T => {
    const added = { ...sum };
    for (const field of Object.keys(row) as (keyof T)[]) {
      if (keys.includes(field)) continue;
      if (field === 'first_exposed_at') {
        (added[field] as number) = Math.min(sum[field] as number, row[field] as number);
      } else {
        (added[field] as number) = (sum[field] as number) + (row[field] as number);
      }
    }
    return added;
  };
}

/** A save offer test's rows of each store, added: outcomes, reasons and money per arm. */
function addSaveOfferRows(
  parts: readonly ExperimentPhaseRows[],
): Pick<ExperimentPhaseRows, 'saveOffers' | 'saveOfferReasons' | 'saveOfferMoney'> {
  return {
    saveOffers: addRows(
      parts.flatMap((part) => part.saveOffers),
      (row) => [row.variant],
      addCounts<SaveOfferRow>(['variant']),
    ),
    saveOfferReasons: addRows(
      parts.flatMap((part) => part.saveOfferReasons),
      (row) => [row.variant, row.reason],
      addCounts<SaveOfferReasonRow>(['variant', 'reason']),
    ),
    saveOfferMoney: addRows(
      parts.flatMap((part) => part.saveOfferMoney),
      (row) => [row.variant, row.currency],
      addCounts<SaveOfferMoneyRow>(['variant', 'currency']),
    ),
  };
}

/** The stores' rows of one experiment's phase, added (each shard's part, the split's old tables). */
export function addExperimentPhaseRows(parts: readonly ExperimentPhaseRows[]): ExperimentPhaseRows {
  const histogram = (rows: RevenueRow[]) =>
    addRows(rows, (row) => [row.variant, row.currency, amountKey(row.revenue_minor)], addVisitors);
  const dayHistogram = (rows: DayRevenueRow[]) =>
    addRows(
      rows,
      (row) => [row.day, row.variant, row.currency, amountKey(row.revenue_minor)],
      addVisitors,
    );
  return {
    arms: addRows(
      parts.flatMap((part) => part.arms),
      (row) => [row.variant],
      addCounts<ExperimentArmRow>(['variant']),
    ),
    revenue: histogram(parts.flatMap((part) => part.revenue)),
    days: addRows(
      parts.flatMap((part) => part.days),
      (row) => [row.day, row.variant],
      addCounts<ExperimentDayRow>(['day', 'variant']),
    ),
    dayRevenue: dayHistogram(parts.flatMap((part) => part.dayRevenue)),
    netRevenue: histogram(parts.flatMap((part) => part.netRevenue)),
    dayNetRevenue: dayHistogram(parts.flatMap((part) => part.dayNetRevenue)),
    segments: addRows(
      parts.flatMap((part) => part.segments),
      (row) => [row.dimension, row.level, row.variant],
      addCounts<SegmentRow>(['variant', 'dimension', 'level']),
    ),
    vitals: addRows(
      parts.flatMap((part) => part.vitals),
      (row) => [row.variant, row.metric, amountKey(row.bucket)],
      (sum, row) => ({ ...sum, visitors: sum.visitors + row.visitors }),
    ),
    dayVitals: addRows(
      parts.flatMap((part) => part.dayVitals),
      (row) => [row.day, row.variant, row.metric, amountKey(row.bucket)],
      (sum, row) => ({ ...sum, visitors: sum.visitors + row.visitors }),
    ),
    declines: addRows(
      parts.flatMap((part) => part.declines),
      (row) => [row.variant, row.decline_class],
      (sum, row) => ({ ...sum, visitors: sum.visitors + row.visitors }),
    ),
    errors: addRows(
      parts.flatMap((part) => part.errors),
      (row) => [row.variant, row.kind],
      (sum, row) => ({ ...sum, visitors: sum.visitors + row.visitors }),
    ),
    lifecycle: addRows(
      parts.flatMap((part) => part.lifecycle),
      (row) => [row.variant, row.outcome],
      (sum, row) => ({ ...sum, visitors: sum.visitors + row.visitors }),
    ),
    recovered: addRows(
      parts.flatMap((part) => part.recovered),
      (row) => [row.variant, row.currency],
      addCounts<RecoveredRow>(['variant', 'currency']),
    ),
    ...addSaveOfferRows(parts),
    strata: addRows(
      parts.flatMap((part) => part.strata),
      (row) => [row.stratum, row.variant],
      addCounts<StratumRow>(['stratum', 'variant']),
    ),
    strataRevenue: addRows(
      parts.flatMap((part) => part.strataRevenue),
      (row) => [row.stratum, row.variant, row.currency, amountKey(row.revenue_minor)],
      addVisitors,
    ),
  };
}

/**
 * The split's own tables (its visitors exposed before every experiment was counted) as an
 * experiment's rows: they kept no upsell, decline or refund flag, no exposure budget or
 * confirmation, and no segment or stratum
 * counts (0 and none). Their net revenue is their first payments: nothing after the first payment was ever
 * counted for them, and leaving them out would count them as 0 against the exposed.
 */
export function splitRowsAsExperimentRows(rows: PhaseRows): ExperimentPhaseRows {
  return {
    arms: rows.arms.map((row) => ({
      ...row,
      upsold: 0,
      declined: 0,
      refunded: 0,
      over_budget: 0,
      unconfirmed: 0,
    })),
    revenue: rows.revenue,
    days: rows.days.map((row) => ({ ...row, upsold: 0 })),
    dayRevenue: rows.dayRevenue,
    netRevenue: rows.revenue,
    dayNetRevenue: rows.dayRevenue,
    segments: [],
    vitals: [],
    dayVitals: [],
    declines: [],
    errors: [],
    lifecycle: [],
    recovered: [],
    saveOffers: [],
    saveOfferReasons: [],
    saveOfferMoney: [],
    strata: [],
    strataRevenue: [],
  };
}
