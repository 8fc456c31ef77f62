/** The split test's results (GET `/console/api/results`) as the console shows them. */

/** GET: the live phase's results; `?phase=N` an earlier one, `?format=csv` the same as CSV. */
export const CONSOLE_RESULTS_PATH = '/console/api/results';

/** The funnel steps counted per exposed visitor, in order, and revenue per visitor. */
export const RESULT_METRICS = ['lookup', 'signup', 'checkout', 'purchase', 'revenue'] as const;

export type ResultMetric = (typeof RESULT_METRICS)[number];

export type ResultVerdict =
  | 'better'
  | 'worse'
  | 'no_difference_yet'
  | 'not_enough_data'
  | 'withheld_srm';

export interface ResultInterval {
  lower: number;
  upper: number;
}

/** One metric of one variant. Rates are 0–1; revenue is minor units of `mainCurrency`. */
export interface MetricResult {
  metric: ResultMetric;
  primary: boolean;
  /** Visitors with a value above 0 (converters; buyers for revenue). */
  count: number;
  /** The rate (a step) or revenue per exposed visitor, capped (revenue). */
  mean: number;
  /** Against the control; null for the control itself and while it cannot be computed. */
  absoluteLift: number | null;
  absoluteInterval: ResultInterval | null;
  relativeLift: number | null;
  relativeInterval: ResultInterval | null;
  pValue: number | null;
  /** Null for the control. */
  verdict: ResultVerdict | null;
}

export interface VariantResults {
  variant: string;
  control: boolean;
  /** The share of new visitors the split draws for it in this phase (0–1). */
  share: number;
  exposed: number;
  /** Known bots' draws, not in `exposed`. */
  bots: number;
  /**
   * Draws left out because their address had spent its day's exposures
   * (worker/experiments/exposure/exposure-budget.ts), not in `exposed`.
   */
  overBudget: number;
  /**
   * Exposures their page's script never confirmed (worker/experiments/store/
   * confirmation-statements.ts), not in `exposed`.
   */
  unconfirmed: number;
  metrics: MetricResult[];
  /** Revenue in other currencies, minor units by currency, not converted and not compared. */
  otherRevenue: Record<string, number>;
  /**
   * All its revenue, every currency, in US cents at the worker's fixed reporting rates of
   * `ratesDate` (worker/experiments/results/reporting-currency.ts); for reading, never compared.
   * Currencies without a rate are `unconverted`, left out.
   */
  reportedRevenue?: { currency: string; minor: number; ratesDate: string; unconverted: string[] };
}

/** The primary metric's lift of one variant on one day: cumulative up to that day. */
export interface LiftPoint {
  day: string;
  variant: string;
  relativeLift: number | null;
  relativeInterval: ResultInterval | null;
}

export interface ResultsAnswer {
  phase: number;
  /** The phases there are results for, newest first. */
  phases: number[];
  /** The live config version and when this phase started (its first exposure), if any. */
  configVersion: string;
  startedAt: string | null;
  control: string;
  primaryMetric: ResultMetric;
  /** The per-arm sample the intervals are tuned for. */
  plannedPerArm: number;
  mainCurrency: string | null;
  /** Revenue above this (minor units) counts as this: the 99th percentile of all arms. */
  revenueCap: number | null;
  sampleRatio: {
    chiSquare: number | null;
    pValue: number;
    alarm: boolean;
  };
  variants: VariantResults[];
  liftOverDays: LiftPoint[];
}
