/**
 * The experiments a marketer runs at once (docs/experiments.md): what the `experiments` config
 * section holds (KV key `experiments`), read by the worker (worker/experiments/config/) and edited
 * in the console. Plain types and constants only: the worker validates what it reads.
 *
 * An experiment lives in a layer, a mutual-exclusion group: a visitor is in at most one experiment
 * per layer, and experiments of different layers overlap independently (each layer and each
 * experiment hashes the visitor id with its own seed). A variant is the control plus what it
 * changes: the flow, the screen at one slot, or the plans a paywall, checkout or upsell offers.
 */

import type { Condition } from './routing';

/**
 * Where a screen stands in a funnel; a variant swaps the screen at a slot, in whatever flow the
 * visitor walks. `paywall` is every checkout and paywall screen.
 */
export const SLOTS = ['landing', 'searching', 'signup', 'paywall', 'upsell', 'end'] as const;
export type Slot = (typeof SLOTS)[number];

/** The layers, in the order their changes apply: a later layer's change is made on top. */
export const LAYERS = ['flow', 'landing', 'signup', 'paywall', 'upsell'] as const;
export type Layer = (typeof LAYERS)[number];

export const EXPERIMENT_STATUSES = [
  'draft',
  'running',
  'paused',
  'stopped',
  'shipped',
  'archived',
] as const;
export type ExperimentStatus = (typeof EXPERIMENT_STATUSES)[number];

/** What a variant changes, on top of the visitor's route; the control changes nothing. */
export interface VariantChange {
  /** Another named flow: a whole-funnel test. */
  flow?: string;
  /** A screen swapped in at a slot, e.g. `{ "landing": "one_pager_ai" }`. */
  screens?: Partial<Record<Slot, string>>;
  /**
   * The catalogue's main plan families the paywall and checkout offer, the first preselected.
   * The charge is by plan id, so the page and the charge always agree; plans whose prices
   * differ make a price test.
   */
  plans?: string[];
  /** The upsell's plan families, from the catalogue's upsell tiers: an upsell price test. */
  upsellPlans?: string[];
  /** The guide screen's plan family, one of the catalogue's guides. */
  guidePlans?: string[];
}

export interface ExperimentVariantDocument {
  /** What the marketer calls it. */
  name?: string;
  /** A share of the total; 0 pauses the variant (no new visitor gets it). */
  weight: number;
  change: VariantChange;
}

/** Who may enter: every part given must match (a route named, the saved audience, the groups). */
export interface ExperimentAudience {
  /** The routes whose visitors it takes (shared/routing.ts); absent: every route. */
  routes?: string[];
  /** A saved audience of the routing section. */
  audience?: string;
  /** Conditions of its own: any group, each group all of its conditions. */
  groups?: Condition[][];
}

/** The metrics a result can be read on (worker/experiments/results/split-answer.ts). */
export const EXPERIMENT_METRICS = [
  'lookup',
  'signup',
  'checkout',
  'purchase',
  'revenue',
  'upsell',
  'net_revenue',
  'mature_revenue',
] as const;
export type ExperimentMetric = (typeof EXPERIMENT_METRICS)[number];

/** The metrics that are money per visitor (minor units of the main currency), not a rate. */
export function isMoneyMetric(metric: string): boolean {
  return metric === 'revenue' || metric === 'net_revenue' || metric === 'mature_revenue';
}

export const DECISION_RESULTS = ['won', 'lost', 'inconclusive'] as const;
export type DecisionResult = (typeof DECISION_RESULTS)[number];

/**
 * How an ended experiment ships: nothing (the control stays), a variant for the experiment's
 * audience (the experiment keeps applying it, exposing no one), or a variant baked into the
 * routes it targets (the routes change; the experiment applies nothing more).
 */
export const DECISION_ACTIONS = ['keep_control', 'roll_out', 'route_default'] as const;
export type DecisionAction = (typeof DECISION_ACTIONS)[number];

/** What the decision was made on, as the results showed it then. */
export interface DecisionEvidence {
  phase: number;
  metric: ExperimentMetric;
  /** The chosen variant's relative lift on the metric, and its interval; null for the control. */
  relativeLift: number | null;
  interval: [number, number] | null;
  verdict: string | null;
  srmAlarm: boolean;
}

export interface ExperimentDecision {
  result: DecisionResult;
  action: DecisionAction;
  /** The variant rolled out or made the route's default; absent for keep_control. */
  variant?: string;
  /** Required when the variant did not win or the SRM alarm was on. */
  reason?: string;
  /** ISO instant and who. */
  at: string;
  by: string;
  evidence: DecisionEvidence;
}

export interface ExperimentDocument {
  name: string;
  hypothesis?: string;
  status: ExperimentStatus;
  layer: Layer;
  /** The share of the layer's buckets it may use, [from, to) in 0–1; absent: all of them. */
  range?: [number, number];
  audience: ExperimentAudience;
  /** The share of the matching visitors in its range who enter, 0–1. */
  coverage: number;
  /** Hashed with the visitor id to pick the variant; fixed for the experiment's life. */
  seed: string;
  /** Stamped by each publish (worker/config/phase.ts): the phase its weights belong to. */
  phase?: number;
  control: string;
  variants: Record<string, ExperimentVariantDocument>;
  metrics?: {
    primary?: ExperimentMetric;
    /** The visitors per variant expected at decision time. */
    plannedPerArm?: number;
  };
  /** ISO instants: when it started running, and when it was stopped or shipped. */
  startedAt?: string;
  endedAt?: string;
  /** Days the visitors already exposed keep their variant once it ends; 7 unless said. */
  drainDays?: number;
  notes?: string;
  decision?: ExperimentDecision;
}

/** The `experiments` config section. */
export interface ExperimentsDocument {
  version: string;
  /** Each layer's seed; absent, the layer's name. */
  layers?: Partial<Record<Layer, { seed: string }>>;
  experiments: Record<string, ExperimentDocument>;
  /** A Slack-compatible webhook the alerts go to. */
  alerts?: { webhook?: string };
}

/**
 * The experiment today's split test became (worker/experiments/config/migrate-split.ts): the
 * `split` section, read as one experiment of the flow layer, until the console edits it as one.
 */
export const SPLIT_EXPERIMENT_ID = 'split';

/** Days the exposed keep their variant after the end, unless the experiment says. */
export const DEFAULT_DRAIN_DAYS = 7;
