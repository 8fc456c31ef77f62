/**
 * What the marketers' console (`/console`) and the worker say to each other: the JSON of
 * `/console/api/*`. The worker's side is worker/console/, the browser's console/. Plain types
 * and constants only: the worker validates what it is sent, and the console trusts what the
 * worker it is served by answers.
 */

import type { ExperimentsDocument } from './config/experiments';
import type { FlowsDraft } from './config/flows';
import type { RoutingDocument } from './config/routing';
import type { SplitDocument } from './config/split';
import { EXPERIMENT_METRICS, type ExperimentMetric } from './experiments';

/** Where the console's JSON calls live. */
export const CONSOLE_API = {
  /** GET: what is live, who you are, what can be picked. */
  state: '/console/api/state',
  /** POST {base, document}: the checks and the diff of a publish, writing nothing. */
  check: '/console/api/check',
  /** POST {base, document, note}: publishes `document` as the next version. */
  publish: '/console/api/publish',
  /** POST {base, seq, note}: publishes an earlier version's document again, as a new version. */
  rollback: '/console/api/rollback',
  /** GET: every version, newest first, each with its diff against the one before. */
  versions: '/console/api/versions',
  /** POST RouteTestRequest: which route a visitor would get, and why (RouteTestAnswer). */
  routeTest: '/console/api/route-test',
  /** GET: the last 7 days' first visits and steps reached by route (RouteVisitsAnswer). */
  routeVisits: '/console/api/route-visits',
} as const;

/** GET `/console/preview/{variant}`: a marketer's preview of one variant (no assignment). */
export const CONSOLE_PREVIEW_PATH = '/console/preview';

/** The one document a marketer edits: the four KV keys the edge reads. */
export interface ConfigDocument {
  split: SplitDocument;
  /** As the console drafts it: the screen ids are checked when it is published. */
  flows: FlowsDraft;
  routing: RoutingDocument;
  experiments: ExperimentsDocument;
}

/** How a version came to be. */
export type VersionSource = 'console' | 'cli' | 'rollback' | 'seed';

/** One published version: immutable once written. */
export interface VersionSummary {
  /** 1, 2, 3…: the order of publishing; a publish names the one it started from. */
  seq: number;
  /** What the pages carry in `split.version` and `flows.version` (e.g. "v12"). */
  id: string;
  /** ISO 8601, the worker's clock. */
  at: string;
  /** Who published: the Access email in production, a fixed local author in development. */
  author: string;
  note: string;
  /** The version it was published on top of; null for the first. */
  base: number | null;
  /** The experiment phase from this version on (starts at 1). */
  phase: number;
  source: VersionSource;
  /** For a rollback: the version whose document it publishes again. */
  restores?: number;
}

/** One difference between two documents, at a path such as `split.variants.lp1.weight`. */
export interface Change {
  path: string;
  kind: 'added' | 'removed' | 'changed';
  before?: unknown;
  after?: unknown;
}

/** A refusal that names the field: `split.variants.lp1.weight`, `flows.flows.default`… */
export interface FieldError {
  path: string;
  message: string;
}

/** Why a publish starts a new phase of the experiment; null when it does not. */
export interface PhaseChange {
  from: number;
  to: number;
  /** One sentence for the marketer, e.g. 'the weights of lp1, lp2 change'. */
  reason: string;
}

/** A new phase of one experiment of the `experiments` section, as PhaseChange is the split's. */
export interface ExperimentPhaseChange extends PhaseChange {
  /** The experiment's id. */
  experiment: string;
}

/** A screen a flow may list, for the console's picker. */
export interface ScreenChoice {
  id: string;
  /** 'landing', 'searching', 'signup', 'checkout', 'paywall', 'upsell', 'end', 'other'. */
  kind: string;
}

export interface ConsoleState {
  author: string;
  /** What the edge reads now (KV, or the defaults in code where a key is absent). */
  live: ConfigDocument;
  /** The last published version; null before the first publish. */
  head: VersionSummary | null;
  /** Set when KV no longer holds the head's document (written around the console and the CLI). */
  drift: string | null;
  screens: ScreenChoice[];
  /** Each variant's preview link (CONSOLE_PREVIEW_PATH), by variant key. */
  previews: Record<string, string>;
}

/** POST check and publish. `base`: the head seq the edit started from (null: none yet). */
export interface PublishRequest {
  base: number | null;
  document: ConfigDocument;
  note?: string;
}

export interface RollbackRequest {
  base: number | null;
  /** The version whose document is published again. */
  seq: number;
  note?: string;
}

/** 200 from check: what the publish would change. */
export interface CheckAnswer {
  ok: true;
  diff: Change[];
  /** The split's new phase. */
  phase: PhaseChange | null;
  /** The experiments whose publish starts a new phase, each with why; absent, none. */
  experimentPhases?: ExperimentPhaseChange[];
  /**
   * What publishes but is likely a mistake, each at its path: a route an earlier one already
   * catches whole (worker/routing/warnings.ts), what the experiments' validator warns of
   * (`experiments.experiments.pw-us...`). Never a refusal.
   */
  warnings?: FieldError[];
}

/** 200 from publish and rollback. */
export interface PublishAnswer {
  ok: true;
  version: VersionSummary;
}

/** 400: the document is refused, nothing written. */
export interface InvalidAnswer {
  ok: false;
  error: 'invalid_config';
  errors: FieldError[];
}

/** 409: someone published since `base`; nothing written. */
export interface ConflictAnswer {
  ok: false;
  error: 'version_conflict';
  head: VersionSummary;
  /** What changed between the edit's base and the head. */
  changes: Change[];
}

export interface VersionsAnswer {
  versions: (VersionSummary & { diff: Change[] })[];
}

/**
 * Error codes of `/console/*` answers other than the two above (JSON `{ ok: false, error }`):
 * - console_not_configured (503): production without the Access settings;
 * - access_token_missing (401), access_token_invalid (403): Cloudflare Access;
 * - cross_origin (403): a write not from the console's own page;
 * - bad_request (400): a body that is not the call's JSON;
 * - unknown_version (404), unknown_variant (404), unknown_experiment (404);
 * - unknown_route (404): a route preview link that is not signed, or is over an hour old;
 * - config_store_failed (503): D1 or KV failed; nothing published.
 */
export type ConsoleErrorCode =
  | 'console_not_configured'
  | 'access_token_missing'
  | 'access_token_invalid'
  | 'cross_origin'
  | 'bad_request'
  | 'unknown_version'
  | 'unknown_variant'
  | 'unknown_experiment'
  | 'unknown_route'
  | 'config_store_failed';

// ---------------------------------------------------------------------------------------------
// Experiment results (GET /console/api/results)

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
  metrics: MetricResult[];
  /** Revenue in other currencies, minor units by currency, not converted and not compared. */
  otherRevenue: Record<string, number>;
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

/** The console's "test a visitor": an ad link and what the edge would know of the visitor. */
export interface RouteTestRequest {
  /** The link as a marketer pastes it (https://…/?utm_source=tiktok&ttclid=…). */
  link: string;
  /** ISO country; null: unknown. */
  country: string | null;
  platform: string;
  /** The ad app whose browser opens the link, or 'none'. */
  app: string;
  /** Page language; absent: 'en'. */
  language?: string;
  /**
   * The ad network whose click id the visitor's link carries, or 'none', over the link's own
   * click ids; absent: as the link says.
   */
  clickId?: string;
  returning?: boolean;
  /** The routing to test: the draft being edited; absent, what is live. */
  routing?: RoutingDocument;
  /** ISO instant to test at; absent, now. */
  at?: string;
}

export interface RouteTestAnswer {
  route: string;
  flow: string;
  plans: string[] | null;
  /** The upsell's and the guide's plans it offers; null: the screens' own. */
  upsellPlans: string[] | null;
  guidePlans: string[] | null;
  /** Each route before it, with why it did not take the visitor. */
  passed: { id: string; why: string }[];
  /** What the visitor's first touch reads from the link (source, UTM values, entry). */
  source: string;
  /** Opens the route's funnel as a preview, which assigns and counts nothing. */
  preview: string;
}

/**
 * The funnel steps counted by route and day, from the visitors' own events and the verified
 * purchases: started a lookup (the search), signed up, reached the paywall or checkout, bought
 * a main plan (and so reached the upsell).
 */
export const ROUTE_STEPS = ['lookup', 'signup', 'paywall', 'upsell'] as const;
export type RouteStep = (typeof ROUTE_STEPS)[number];

/**
 * First visits each route took over the last `days` UTC days, today included, exact counts; and
 * how often its visitors reached each step over the same days (`steps`), an estimate: events
 * counted, so a visitor who reached a step twice (a reload, another day) counts twice.
 */
export interface RouteVisitsAnswer {
  days: number;
  /** By route id; a route with none is absent. */
  visits: Record<string, number>;
  total: number;
  /** By route id; a route with no step counted is absent, a step not reached is 0. */
  steps: Record<string, Record<RouteStep, number>>;
}

// ---------------------------------------------------------------------------------------------
// Results of each experiment of the `experiments` section (GET /console/api/experiments/…)

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
}

export interface ExperimentVariantResults extends Omit<VariantResults, 'metrics'> {
  name: string;
  metrics: ExperimentMetricResult[];
  /** Visitors exposed long enough ago to count in `mature_revenue`. */
  matureExposed: number;
  /**
   * What must not get worse, each the share of exposed visitors it happened to, compared with the
   * control as a metric is (verdict `worse` is what the alerts watch): a payment declined, a
   * payment refunded or charged back. Null for the control's comparison fields.
   */
  guardrails: { declines: ExperimentGuardrail; refunds: ExperimentGuardrail };
}

export interface ExperimentGuardrail {
  count: number;
  rate: number;
  relativeLift: number | null;
  relativeInterval: ResultInterval | null;
  verdict: ResultVerdict | null;
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
export type SegmentDimension = (typeof SEGMENT_DIMENSIONS)[number];

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
}
