/**
 * The data benchmark's arithmetic, apart from its I/O: what one visitor costs a store (measured
 * per journey kind), scaled to a month's visitors with a peak hour, against each store's hard
 * limits. Pure, so its tests (test/unit/bench/data-extrapolation.test.ts) can check every rule.
 */

export const SECONDS_PER_MONTH = 30 * 24 * 3600;
const DAYS_PER_MONTH = 30;

/** The traffic the figures are read at. */
export interface Traffic {
  visitorsPerMonth: number;
  /** How many times the average rate the peak hour runs at. */
  peakFactor: number;
}

/** The visitor mix: the share of visitors who pay; the rest look a number up and leave. */
export interface Mix {
  payingShare: number;
}

/** A figure per visitor of each kind, and of the mix. */
export interface PerVisitor {
  lookup: number;
  paying: number;
}

export function mixed(value: PerVisitor, mix: Mix): number {
  return (1 - mix.payingShare) * value.lookup + mix.payingShare * value.paying;
}

export function visitorsPerSecond(traffic: Traffic): { average: number; peak: number } {
  const average = traffic.visitorsPerMonth / SECONDS_PER_MONTH;
  return { average, peak: average * traffic.peakFactor };
}

/**
 * How a limit is reached:
 * - `rate`: a per-visitor count becomes a rate, held against a limit per second at the peak;
 * - `fixed-rate`: a rate that does not grow with traffic (one visitor's own burst on their own
 *   object), held as it is;
 * - `storage`: bytes per visitor kept for `retentionDays` (null: kept for good, read at the
 *   horizon), held against a size;
 * - `size`: one thing's size (the largest message), held as it is.
 */
export type Demand =
  | { kind: 'rate'; perVisitor: PerVisitor; share: number }
  | { kind: 'fixed-rate'; perSecond: number }
  | { kind: 'storage'; parts: StoragePart[] }
  | { kind: 'size'; bytes: number };

export interface StoragePart {
  label: string;
  bytesPerVisitor: PerVisitor;
  /** Days a row is kept; null when nothing ever deletes it. */
  retentionDays: number | null;
  /** Bytes that do not grow with visitors (a schema, an empty object). */
  fixedBytes?: number;
  /** The share of the part one object holds (1 for a database, 1/N for N shards). */
  share?: number;
}

export interface LimitLine {
  store: string;
  what: string;
  limit: number;
  unit: string;
  demand: Demand;
  /** Said beside the figures: an assumption the line depends on. */
  note?: string;
}

export interface Reading {
  /** The demand at the average rate (rates), or the size (storage, size). */
  average: number;
  /** The demand in the peak hour, per second (rates); the same as average otherwise. */
  peak: number;
  /** limit / peak; Infinity when nothing is demanded. */
  headroom: number;
}

/** Days of rows a table keeps at the horizon: its retention, or the whole horizon. */
export function keptDays(retentionDays: number | null, horizonDays: number): number {
  return retentionDays === null ? horizonDays : Math.min(retentionDays, horizonDays);
}

export function read(line: LimitLine, traffic: Traffic, mix: Mix, horizonDays: number): Reading {
  const rates = visitorsPerSecond(traffic);
  const demand = line.demand;
  let average: number;
  let peak: number;
  switch (demand.kind) {
    case 'rate': {
      const perVisitor = mixed(demand.perVisitor, mix) * demand.share;
      average = perVisitor * rates.average;
      peak = perVisitor * rates.peak;
      break;
    }
    case 'fixed-rate':
      average = demand.perSecond;
      peak = demand.perSecond;
      break;
    case 'storage': {
      const dailyVisitors = traffic.visitorsPerMonth / DAYS_PER_MONTH;
      average = demand.parts.reduce(
        (sum, part) =>
          sum +
          (part.fixedBytes ?? 0) +
          mixed(part.bytesPerVisitor, mix) *
            dailyVisitors *
            keptDays(part.retentionDays, horizonDays) *
            (part.share ?? 1),
        0,
      );
      peak = average;
      break;
    }
    case 'size':
      average = demand.bytes;
      peak = demand.bytes;
      break;
  }
  return { average, peak, headroom: peak > 0 ? line.limit / peak : Number.POSITIVE_INFINITY };
}

/** The goals: this much headroom on every hard limit at each traffic. */
export interface HeadroomGoal {
  visitorsPerMonth: number;
  headroom: number;
}

export const HEADROOM_GOALS: readonly HeadroomGoal[] = [
  { visitorsPerMonth: 10_000_000, headroom: 5 },
  { visitorsPerMonth: 100_000_000, headroom: 1.5 },
];

export interface Verdict {
  line: LimitLine;
  readings: { goal: HeadroomGoal; reading: Reading; met: boolean }[];
}

export function judge(
  lines: readonly LimitLine[],
  options: { peakFactor: number; mix: Mix; horizonDays: number; goals?: readonly HeadroomGoal[] },
): Verdict[] {
  const goals = options.goals ?? HEADROOM_GOALS;
  return lines.map((line) => ({
    line,
    readings: goals.map((goal) => {
      const reading = read(
        line,
        { visitorsPerMonth: goal.visitorsPerMonth, peakFactor: options.peakFactor },
        options.mix,
        options.horizonDays,
      );
      return { goal, reading, met: reading.headroom >= goal.headroom };
    }),
  }));
}

/** Months until a growing storage line reaches its limit at this traffic; null if it never does. */
export function monthsToFull(line: LimitLine, traffic: Traffic, mix: Mix): number | null {
  if (line.demand.kind !== 'storage') return null;
  const dailyVisitors = traffic.visitorsPerMonth / DAYS_PER_MONTH;
  let fixed = 0;
  let growingPerDay = 0;
  for (const part of line.demand.parts) {
    fixed += part.fixedBytes ?? 0;
    const perDay = mixed(part.bytesPerVisitor, mix) * dailyVisitors * (part.share ?? 1);
    // A table with a retention window stops growing once the window is full.
    if (part.retentionDays === null) growingPerDay += perDay;
    else fixed += perDay * part.retentionDays;
  }
  if (fixed >= line.limit) return 0;
  if (growingPerDay <= 0) return null;
  return (line.limit - fixed) / growingPerDay / DAYS_PER_MONTH;
}
