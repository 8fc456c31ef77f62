import type { VitalMetric, VitalRating } from '../analytics/vitals';
import type { DeclineClass } from '../decline-class';
import { EXPERIMENT_METRICS, type ExperimentMetric } from '../experiments';
import { type AnswerName, answerKeyOfName } from '../quiz/answers';
import type { RampStatusAnswer } from './ramp-status';
import type {
  LiftPoint,
  MetricResult,
  ResultInterval,
  ResultVerdict,
  VariantResults,
} from './results';

/**
 * The results of each experiment of the `experiments` section (GET
 * `/console/api/experiments/…`), built on the split's (results.ts).
 */

/**
 * GET `${CONSOLE_EXPERIMENTS_PATH}/{id}/results`: one experiment's results
 * (ExperimentResultsAnswer) in its live phase; `?phase=N` an earlier one, `?segment=country`
 * (a SegmentDimension) adds the segment view, `?format=csv` the same numbers as a CSV download.
 */
export const CONSOLE_EXPERIMENTS_PATH = '/console/api/experiments';

/** The metrics an experiment's results read, in funnel order: those of shared/experiments.ts. */
export const EXPERIMENT_RESULT_METRICS = EXPERIMENT_METRICS;

export type ExperimentResultMetric = ExperimentMetric;

export interface ExperimentMetricResult extends Omit<MetricResult, 'metric'> {
  metric: ExperimentResultMetric;
  /**
   * A variant's steps and first-payment revenue compared once more with each arm's mean adjusted
   * for its visitors' country, source, platform and language at exposure (AdjustedComparison);
   * null while it cannot be (too few visitors per stratum, or visitors counted before the
   * strata were); absent for the control and the metrics not adjusted.
   */
  adjusted?: AdjustedComparison | null;
}

/** The covariates the adjusted comparison stratifies by, as known at exposure. */
export const ADJUSTED_FOR = ['country', 'source', 'platform', 'language'] as const;

/**
 * A variant against the control with each arm's mean post-stratified on ADJUSTED_FOR
 * (docs/statistics.md, "Adjusted for what is known at exposure"): shown beside the plain
 * comparison, never instead of it; the verdict stays the plain one's. Its intervals are
 * always-valid at this look; they are not intersected over the days as the plain ones are.
 */
export interface AdjustedComparison {
  absoluteLift: number;
  absoluteInterval: ResultInterval;
  relativeLift: number | null;
  relativeInterval: ResultInterval | null;
  pValue: number;
  /** The strata the visitors were grouped into, "other" included (at most 20). */
  strata: number;
  /**
   * The adjusted absolute interval's width over the plain one's at the same look (today's
   * totals, not intersected): 0.9 is 10% narrower.
   */
  widthRatio: number;
}

export interface ExperimentVariantResults extends Omit<VariantResults, 'metrics'> {
  name: string;
  metrics: ExperimentMetricResult[];
  /** Visitors exposed long enough ago to count in `mature_revenue`. */
  matureExposed: number;
  /**
   * What must not get worse, each the share of exposed visitors it happened to, compared with the
   * control as a metric is (verdict `worse` is what the alerts watch): a payment declined, a
   * payment refunded or charged back. Null for the control's comparison fields. `declineClasses`
   * splits the declines by class (only classes with a decline in some arm, in DECLINE_CLASSES'
   * order, the same in every variant): a diagnosis, judged at α shared among the classes shown;
   * the alerts watch only the total (docs/statistics.md, "Declines by class").
   */
  guardrails: {
    declines: ExperimentGuardrail;
    refunds: ExperimentGuardrail;
    declineClasses: DeclineClassGuardrail[];
    /**
     * Exposed buyers who cancelled a subscription bought after exposure (the product API's
     * `cancellation`), each visitor once however many they cancelled; not alerted on.
     */
    cancellations: ExperimentGuardrail;
    /**
     * Retention: exposed buyers a subscription bought after exposure renewed for, a period paid
     * (the product API's signed `renewal`), each visitor once; unlike the others, `better` is a
     * rise and `worse` a fall. A share of the exposed, as revenue per visitor is: it moves with
     * the purchases too. Not alerted on.
     */
    renewed: ExperimentGuardrail;
    /**
     * Exposed visitors the worker answered a request of with a 5xx after exposure, each once
     * (docs/statistics.md, "Guarded ramps"): what a guarded ramp's `server_errors` watches.
     */
    serverErrors: ExperimentGuardrail;
    /**
     * Exposed visitors whose own browser reported an island or script that failed, or the
     * checkout's error state, each once: a guarded ramp's `client_errors` (forgeable: it holds,
     * never rolls back).
     */
    clientErrors: ExperimentGuardrail;
  };
  /** Failed renewals and what was recovered of them (docs/experiments.md, "After the first payment"). */
  recovery: RecoveryResult;
  /** A save offer test's subscriptions and how many kept (layer `subscriber`); null for any other. */
  saveOffer: SaveOfferResult | null;
  /**
   * A price test's mature net revenue judged in each currency paid in, most buyers first
   * (docs/statistics.md, "Price tests by currency"); empty for any other test.
   */
  byCurrency: CurrencyRevenueResult[];
  /**
   * The field Core Web Vitals of its sampled visitors (docs/statistics.md, "Field vitals"), in
   * the order LCP, INP, CLS: what must not get slower.
   */
  vitals: VitalGuardrail[];
}

/**
 * Mature net revenue in one currency per mature exposed visitor, minor units of `currency` (a
 * visitor who paid in another currency counts 0, so every arm has the same mix and the relative
 * lift is the lift among this currency's buyers), `count` the visitors who paid in it. Its
 * interval is widened for the number of currencies judged (Bonferroni), so every verdict of the
 * table holds at once; the verdict waits for the mature sample as `mature_revenue`'s does.
 */
export interface CurrencyRevenueResult extends ExperimentMetricResult {
  currency: string;
}

/**
 * One arm's 75th percentile of a field vital (LCP and INP in ms, CLS a score) over `samples`
 * visitors (each their first page after exposure), and for a variant its difference from the
 * control's with an always-valid interval; verdict `worse` is what the alerts watch (LCP, INP).
 */
export interface VitalGuardrail {
  metric: VitalMetric;
  samples: number;
  p75: number | null;
  rating: VitalRating | null;
  difference: number | null;
  interval: ResultInterval | null;
  verdict: ResultVerdict | null;
}

export interface ExperimentGuardrail {
  count: number;
  rate: number;
  relativeLift: number | null;
  relativeInterval: ResultInterval | null;
  verdict: ResultVerdict | null;
}

/**
 * An arm's failed renewals (the product API's `renewal_failed`) and recoveries: exposed buyers
 * with a renewal that failed, and with a failed renewal paid afterwards (each visitor once), and
 * what those renewals paid, per currency, most first. Counts, not judged.
 */
export interface RecoveryResult {
  renewalFailed: number;
  recovered: number;
  revenue: { currency: string; amountMinor: number; renewals: number }[];
}

/**
 * One arm of a save offer test (docs/experiments.md, "Testing the save offer"): the
 * subscriptions shown its offer at a cancel's confirm, those who tapped *Keep my subscription*,
 * and those who cancelled after. `kept` is shown and not cancelled, compared with the control's
 * as a conversion is (`count` the kept, `rate` the keep rate, an always-valid interval and
 * verdict, null for the control's), the shown standing for the exposed.
 */
export interface SaveOfferResult {
  shown: number;
  choseKeep: number;
  /** Of the shown, those who took the arm's action (a discount, a pause, a switch), once each. */
  tookAction: number;
  cancelled: number;
  kept: ExperimentGuardrail;
  /** The reasons for leaving the cancelled picked (content `saveOffer.reasons` keys), most first. */
  reasons: { reason: string; count: number }[];
  /**
   * Net revenue after the offer was shown (renewals less refunds and chargebacks), per
   * currency, most first: `amountMinor` in all, `perShown` per subscription shown the offer (one
   * that paid in another currency counts 0), judged against the control's in the same currency
   * with α shared among the currencies, as a price test's are; null lift and verdict for the control.
   */
  netRevenue: SaveOfferRevenue[];
}

/** One currency of a save offer arm's net revenue, in its minor units. */
export interface SaveOfferRevenue {
  currency: string;
  amountMinor: number;
  /** Subscriptions shown the offer that paid in this currency since. */
  paying: number;
  perShown: number;
  relativeLift: number | null;
  relativeInterval: ResultInterval | null;
  verdict: ResultVerdict | null;
}

/** The exposed visitors with a decline of one class, against the control's same class. */
export interface DeclineClassGuardrail extends ExperimentGuardrail {
  declineClass: DeclineClass;
}

/** The segments an exposure is captured with, in the console's order. */
export const SEGMENT_DIMENSIONS = [
  'country',
  'source',
  'platform',
  'in_app',
  'language',
  'route',
] as const;

/**
 * A quiz question's choices as a segment, by its key (`answer:who`, shared/quiz/answers.ts
 * answerName): the choice each exposed visitor gave
 * (worker/experiments/store/answer-statements.ts), and `unanswered`.
 */
export type AnswerDimension = AnswerName;

export type SegmentDimension = (typeof SEGMENT_DIMENSIONS)[number] | AnswerDimension;

/** The level of a quiz segment's exposed visitors with no answer to its question. */
export const UNANSWERED_LEVEL = 'unanswered';

/** A segment as a query names it: a dimension of SEGMENT_DIMENSIONS, or an answer's name. */
export function isSegmentDimension(value: string): value is SegmentDimension {
  return (
    (SEGMENT_DIMENSIONS as readonly string[]).includes(value) || answerKeyOfName(value) !== null
  );
}

/** One level of a segment, for each variant: only levels with ≥ 100 exposed in every arm. */
export interface SegmentLevelResults {
  level: string;
  variants: {
    variant: string;
    exposed: number;
    metrics: {
      metric: ExperimentResultMetric;
      mean: number;
      relativeLift: number | null;
      /** Corrected for the number of levels shown (Bonferroni over levels). */
      relativeInterval: ResultInterval | null;
      /** The level's verdict on that interval; null for the control. */
      verdict: ResultVerdict | null;
    }[];
  }[];
}

export interface SegmentResults {
  dimension: SegmentDimension;
  /** "segments find ideas and bugs; confirm a segment winner with a test aimed at it". */
  caution: string;
  levels: SegmentLevelResults[];
  /** Levels left out for having fewer than 100 exposed in some arm. */
  hiddenLevels: number;
  /**
   * A quiz segment whose answers came after exposure, in the arms that ask them: each arm's
   * steps by answer, no lift between arms (what an arm asked is its outcome, not a segment).
   */
  afterExposure?: true;
}

export interface ExperimentResultsAnswer {
  experiment: string;
  name: string;
  status: string;
  layer: string;
  phase: number;
  /** The phases there are results for, newest first. */
  phases: number[];
  configVersion: string;
  startedAt: string | null;
  control: string;
  primaryMetric: ExperimentResultMetric;
  plannedPerArm: number;
  mainCurrency: string | null;
  revenueCap: number | null;
  /**
   * Where visitors are counted: the first screen where the variants differ, per route; the
   * metrics shown are the steps at and after it (a paywall test: checkout, purchase, revenue,
   * upsell, net and mature revenue).
   */
  triggers: { route: string; screen: string | null }[];
  metricsShown: ExperimentResultMetric[];
  /** The variants' plans differ in price: judged on mature net revenue. */
  priceTest: boolean;
  /** Days after exposure a visitor's revenue counts as mature: longest intro + 3. */
  matureAfterDays: number;
  /**
   * For a price test: no verdict until every arm's mature sample reaches `plannedPerArm`; the
   * console says so. False elsewhere.
   */
  awaitingMatureSample: boolean;
  /**
   * Exposed against the most it could have reached: first visits on its routes since it started,
   * times its range and coverage (an upper bound: audience conditions and the trigger's depth
   * take fewer). Null before any first visit on its routes.
   */
  reach: { exposed: number; expectedAtMost: number | null };
  sampleRatio: { chiSquare: number | null; pValue: number; alarm: boolean };
  variants: ExperimentVariantResults[];
  liftOverDays: LiftPoint[];
  segment?: SegmentResults;
  /** A guarded ramp's step, next gate and guardrails (ramp-status.ts); absent without a ramp. */
  ramp?: RampStatusAnswer;
}
