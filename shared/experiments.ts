/**
 * The experiments a marketer runs at once (docs/experiments.md): what the `experiments` config
 * section holds (KV key `experiments`, declared by shared/config/experiments.ts), read by the
 * worker (worker/experiments/config/) and edited in the console. Plain types and constants only,
 * so the console's browser bundle takes them without zod.
 *
 * An experiment lives in a layer, a mutual-exclusion group: a visitor is in at most one experiment
 * per layer, and experiments of different layers overlap independently (each layer and each
 * experiment hashes the visitor id with its own seed). A variant is the control plus what it
 * changes: the flow, the screen at one slot, or the plans a paywall, checkout or upsell offers.
 */

/**
 * Where a screen stands in a funnel; a variant swaps the screen at a slot, in whatever flow the
 * visitor walks. `paywall` is every checkout and paywall screen.
 */
export const SLOTS = ['landing', 'searching', 'signup', 'paywall', 'upsell', 'end'] as const;
export type Slot = (typeof SLOTS)[number];

/**
 * The layers, in the order their changes apply: a later layer's change is made on top.
 * `subscriber` is the subscriber's page's own (a save offer test, docs/experiments.md, "Testing
 * the save offer"): the funnel draws none of its experiments, the page draws them by the
 * subscription (worker/subscriber-links/save-offer-arm.ts).
 */
export const LAYERS = ['flow', 'landing', 'signup', 'paywall', 'upsell', 'subscriber'] as const;
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

/**
 * The experiment today's split test became (worker/experiments/config/migrate-split.ts): the
 * `split` section, read as one experiment of the flow layer, until the console edits it as one.
 */
export const SPLIT_EXPERIMENT_ID = 'split';

/** Days the exposed keep their variant after the end, unless the experiment says. */
export const DEFAULT_DRAIN_DAYS = 7;
