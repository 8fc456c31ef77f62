import type { ComposedScreens } from '../../../shared/composed-screens';
import type { ContentDocument } from '../../../shared/config/content';
import type {
  ExperimentDocument,
  ExperimentsDocument,
  VariantChange,
} from '../../../shared/config/experiments';
import type { FlowsDocument } from '../../../shared/config/flows';
import type { RoutingDocument } from '../../../shared/config/routing';
import type { SplitDocument } from '../../../shared/config/split';
import {
  DEFAULT_DRAIN_DAYS,
  type ExperimentStatus,
  LAYERS,
  type Layer,
  SPLIT_EXPERIMENT_ID,
} from '../../../shared/experiments';
import { answerKeyOfName } from '../../../shared/quiz/answers';
import { languagesWithoutText } from '../../content/languages';
import { applyChange, type FunnelShape } from '../../funnel/flow';
import { compileAudience, type VisitorFacts } from '../../routing/router';
import { inRange, type Placement } from '../assignment/assign';
import { type CompiledRamp, compileRamp, compileRollOut, rampArm } from '../ramps/ramp-arm';
import { experimentFromSplit } from './migrate-split';
import { triggerFor } from './triggers';

/**
 * Which experiments a visitor is in and what they see (docs/experiments.md), worked out on
 * every page request from the config cached per isolate and the visitor's cookies: no I/O, a few
 * hashes per layer. Layer by layer, in LAYERS order:
 *
 * 1. an experiment of the layer the visitor is pinned to (exposed before, `gf_x`) keeps them on
 *    their variant while it runs or is paused, and for its drain days once it ended;
 * 2. else the first running experiment of the layer, in document order, whose routes and audience
 *    take the visitor, whose range holds the visitor's bucket of the layer, and whose coverage
 *    takes them, assigns a variant by the hash of the visitor id and its seed. Nothing is stored:
 *    the same visitor gets the same variant on every page until they are exposed at the trigger,
 *    where they are pinned (worker/middleware/exposure.ts);
 * 3. else a shipped experiment rolled out to its audience applies the winning variant, exposing
 *    no one; one rolled out on a ramp draws its bands instead, exposing them (ramp-arm.ts).
 *
 * An experiment takes a visitor only in a language its variants have text in: one showing a
 * content variant that changes an English text without giving it in German is neither shown to
 * German visitors nor counts them (worker/content/languages.ts, docs/marketers.md).
 *
 * A price test (an experiment whose variants set plans, currencies or offer terms) follows the
 * account, not the browser: in a layer that holds one, a signed-in visitor is drawn and pinned by
 * their account id (its pins in a cookie signed for the account), and the browser's own pins of
 * price tests count for nothing. So an account keeps its price on every device and through any
 * change of `userUuid`; other experiments of the layer keep a browser's pins from before.
 *
 * The draws are the hashes of worker/experiments/assignment/assign.ts in production; tests may fix them.
 */

interface CompiledExperiment {
  id: string;
  layer: Layer;
  status: ExperimentStatus;
  phase: number;
  seed: string;
  from: number;
  to: number;
  coverage: number;
  control: string;
  routes: ReadonlySet<string> | null;
  matches: (facts: VisitorFacts) => boolean;
  weights: readonly (readonly [key: string, weight: number])[];
  changes: ReadonlyMap<string, VariantChange>;
  /** Epoch ms until which the visitors pinned keep their variant once it ended. */
  drainUntil: number;
  /** The variant it applies to its audience once shipped with `roll_out`, else null. */
  rolledOut: string | null;
  /** A roll-out on a ramp (ramp-arm.ts compileRollOut): its bands draw who is in; else null. */
  rollOutRamp: CompiledRamp | null;
  /**
   * False for a split of one variant, which tests nothing: it holds no part of the layer (or no
   * new flow test could start on its routes) and applies its flow to whoever no test takes.
   */
  holdsLayer: boolean;
  /** Whether a variant sets what a visitor pays: a price test, which follows the account. */
  setsPrices: boolean;
  /** A guarded ramp's bands, which draw its arms instead of coverage and weights; else null. */
  ramp: CompiledRamp | null;
}

export interface CompiledExperiments {
  byLayer: ReadonlyMap<Layer, readonly CompiledExperiment[]>;
  byId: ReadonlyMap<string, CompiledExperiment>;
  layerSeeds: Readonly<Record<Layer, string>>;
  /** The layers holding a price test, where a signed-in visitor is placed by their account. */
  accountLayers: ReadonlySet<Layer>;
  /**
   * Whether an audience in effect reads a quiz answer (`answer:who`): only then does a request
   * read the visit's kept answers (worker/request/visit-facts.ts decodeArms).
   */
  readsAnswers: boolean;
}

/** Whether an experiment's own audience has a condition on a quiz answer. */
function readsAnswers(experiment: ExperimentDocument): boolean {
  return (experiment.audience.groups ?? []).some((group) =>
    group.some((condition) => answerKeyOfName(condition.attribute) !== null),
  );
}

/** What a variant may change that sets a price: plans, currencies and the offer's terms. */
const PRICE_CHANGES = [
  'plans',
  'upsellPlans',
  'guidePlans',
  'currencies',
  'anchors',
  'countdown',
] as const satisfies readonly (keyof VariantChange)[];

function setsPrices(experiment: ExperimentDocument): boolean {
  return Object.values(experiment.variants).some(({ change }) =>
    PRICE_CHANGES.some((field) => change[field] !== undefined),
  );
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Whether the visitor's page language is one the experiment shows its variants in: not one
 * whose text a content variant it shows lacks (`untaken`). A request without a language (the
 * API) is not held to it.
 */
function takesLanguage(untaken: ReadonlySet<string>, facts: VisitorFacts): boolean {
  const language = facts.get('language');
  return typeof language !== 'string' || !untaken.has(language);
}

/** The languages none of whose visitors the experiment takes (takesLanguage). */
function untakenLanguages(experiment: ExperimentDocument, content: ContentDocument): Set<string> {
  const untaken = new Set<string>();
  for (const { change } of Object.values(experiment.variants)) {
    if (!change.content) continue;
    for (const language of languagesWithoutText(content, change.content)) untaken.add(language);
  }
  return untaken;
}

function compileExperiment(
  id: string,
  experiment: ExperimentDocument,
  routing: RoutingDocument,
  content: ContentDocument,
): CompiledExperiment {
  const { audience } = experiment;
  const saved =
    audience.audience === undefined
      ? null
      : compileAudience(routing.audiences[audience.audience]?.groups ?? []);
  const own = audience.groups === undefined ? null : compileAudience(audience.groups);
  const ended = experiment.endedAt === undefined ? Number.NaN : Date.parse(experiment.endedAt);
  const drainDays = experiment.drainDays ?? DEFAULT_DRAIN_DAYS;
  const rollOut = compileRollOut(experiment);
  const untaken = untakenLanguages(experiment, content);
  return {
    id,
    layer: experiment.layer,
    status: experiment.status,
    phase: experiment.phase ?? 1,
    seed: experiment.seed,
    from: experiment.range?.[0] ?? 0,
    to: experiment.range?.[1] ?? 1,
    coverage: experiment.coverage,
    control: experiment.control,
    routes: audience.routes === undefined ? null : new Set(audience.routes),
    matches: (facts) =>
      takesLanguage(untaken, facts) &&
      (saved === null || saved(facts)) &&
      (own === null || own(facts)),
    weights: Object.entries(experiment.variants).map(([key, v]) => [key, v.weight] as const),
    changes: new Map(Object.entries(experiment.variants).map(([key, v]) => [key, v.change])),
    // An end with no time recorded drains at once rather than never.
    drainUntil: Number.isNaN(ended) ? 0 : ended + drainDays * DAY_MS,
    rolledOut: rollOut.rolledOut,
    rollOutRamp: rollOut.ramp,
    holdsLayer: Object.keys(experiment.variants).length > 1,
    setsPrices: setsPrices(experiment),
    ramp: compileRamp(experiment),
  };
}

/**
 * The experiments in effect: the `experiments` section's, and today's split as the flow layer's
 * experiment `split` (migrate-split.ts), with the content their variants show (for the languages
 * they take). Compiled once per set of documents, as the routes are.
 */
export function compileExperiments(
  experiments: ExperimentsDocument,
  split: SplitDocument,
  routing: RoutingDocument,
  content: ContentDocument,
): CompiledExperiments {
  const byLayer = new Map<Layer, CompiledExperiment[]>(LAYERS.map((layer) => [layer, []]));
  const byId = new Map<string, CompiledExperiment>();
  const accountLayers = new Set<Layer>();
  let answers = false;
  const all: [string, ExperimentDocument][] = [
    [SPLIT_EXPERIMENT_ID, experimentFromSplit(split)],
    ...Object.entries(experiments.experiments).filter(([id]) => id !== SPLIT_EXPERIMENT_ID),
  ];
  for (const [id, experiment] of all) {
    if (experiment.status === 'draft' || experiment.status === 'archived') continue;
    const compiled = compileExperiment(id, experiment, routing, content);
    byLayer.get(compiled.layer)?.push(compiled);
    byId.set(id, compiled);
    if (compiled.setsPrices) accountLayers.add(compiled.layer);
    answers ||= readsAnswers(experiment);
  }
  const layerSeeds = Object.fromEntries(
    LAYERS.map((layer) => [layer, experiments.layers?.[layer]?.seed ?? layer]),
  ) as Record<Layer, string>;
  return { byLayer, byId, layerSeeds, accountLayers, readsAnswers: answers };
}

const cache = new WeakMap<
  object,
  { split: object; routing: object; content: object; compiled: CompiledExperiments }
>();

/** compileExperiments, once per set of documents (the loader keeps unchanged ones as they are). */
export function compiledExperiments(
  experiments: ExperimentsDocument,
  split: SplitDocument,
  routing: RoutingDocument,
  content: ContentDocument,
): CompiledExperiments {
  const known = cache.get(experiments);
  if (known && known.split === split && known.routing === routing && known.content === content)
    return known.compiled;
  const compiled = compileExperiments(experiments, split, routing, content);
  cache.set(experiments, { split, routing, content, compiled });
  return compiled;
}

/** A visitor's place in one experiment. */
export interface ExperimentAssignment {
  experiment: string;
  layer: Layer;
  variant: string;
  phase: number;
  /**
   * `pinned`: exposed before, kept on their variant; `assigned`: by the hash, to be exposed at
   * the trigger; `applied`: a shipped variant, never exposed.
   */
  state: 'pinned' | 'assigned' | 'applied';
  /** Drawn or pinned by the visitor's account (a layer with a price test): pinned to it. */
  byAccount?: true;
}

/** A signed-in visitor's account, by which the layers with a price test place them. */
export interface VisitorAccount {
  id: string;
  /** Experiment id → variant, pinned to the account (`gf_ax`). */
  pins: ReadonlyMap<string, string>;
}

export interface VisitorContext {
  /**
   * The id the running experiments hash; null: a visitor drawn by none (a preview, the console's
   * "what does this visitor get"), whom each running experiment that takes them shows its control.
   */
  visitorId: string | null;
  route: string;
  facts: VisitorFacts;
  /** Experiment id → variant, from `gf_x` (and `gf_variant` for the split). */
  pins: ReadonlyMap<string, string>;
  /** Signed in with an account the worker knows (worker/middleware/signed-in-user.ts). */
  account?: VisitorAccount | null;
  now: number;
}

/** The variant a running experiment's hash gives the visitor, if the experiment takes them. */
function assigned(
  compiled: CompiledExperiment,
  bucket: number,
  visitor: VisitorContext,
  unit: string,
  placement: Placement,
): string | null {
  if (compiled.status !== 'running') return null;
  if (!inRange(bucket, [compiled.from, compiled.to])) return null;
  if (!takes(compiled, visitor)) return null;
  if (compiled.ramp !== null) return rampArm(compiled.ramp, compiled.seed, unit);
  if (!placement.covered(compiled.seed, unit, compiled.coverage)) return null;
  // SPEC.md §4's placement of a number in the weights' cumulative ranges, the number from the
  // hash of the visitor's (or account's) id instead of a draw.
  return placement.variant(compiled.seed, unit, compiled.weights);
}

function pinnedVariant(compiled: CompiledExperiment, variant: string, now: number): boolean {
  if (!compiled.changes.has(variant)) return false;
  // A rolled-back ramp's variant reaches no one, those exposed to it before included; so does a
  // rolled-back roll-out's.
  const rolledBack = compiled.ramp?.rolledBack || compiled.rollOutRamp?.rolledBack;
  if (rolledBack && variant !== compiled.control) return false;
  if (compiled.status === 'running' || compiled.status === 'paused') return true;
  return now < compiled.drainUntil;
}

/** The visitor's experiments, at most one per layer, in LAYERS order. */
export function assignExperiments(
  compiled: CompiledExperiments,
  visitor: VisitorContext,
  placement: Placement,
): ExperimentAssignment[] {
  const assignments: ExperimentAssignment[] = [];
  for (const layer of LAYERS) {
    // The subscriber's page draws its own layer by the subscription (save-offer-arm.ts).
    if (layer === 'subscriber') continue;
    const experiments = compiled.byLayer.get(layer) ?? [];
    if (experiments.length === 0) continue;
    const account = compiled.accountLayers.has(layer) ? (visitor.account ?? null) : null;
    const found = assignLayer(experiments, compiled.layerSeeds[layer], visitor, account, placement);
    if (found) assignments.push(found);
  }
  return assignments;
}

/**
 * The pin that keeps the visitor in one of the layer's experiments, if any: with an account (a
 * layer with a price test), the account's, else the browser's of an experiment that sets no
 * price; without, the browser's.
 */
function pinOf(
  compiled: CompiledExperiment,
  visitor: VisitorContext,
  account: VisitorAccount | null,
): { variant: string; byAccount: boolean } | null {
  const own = account?.pins.get(compiled.id);
  if (own !== undefined) return { variant: own, byAccount: true };
  if (account !== null && compiled.setsPrices) return null;
  const pin = visitor.pins.get(compiled.id);
  return pin === undefined ? null : { variant: pin, byAccount: false };
}

function assignLayer(
  experiments: readonly CompiledExperiment[],
  layerSeed: string,
  visitor: VisitorContext,
  account: VisitorAccount | null,
  placement: Placement,
): ExperimentAssignment | null {
  const answer = (
    compiled: CompiledExperiment,
    variant: string,
    state: ExperimentAssignment['state'],
    byAccount = account !== null,
  ): ExperimentAssignment => ({
    experiment: compiled.id,
    layer: compiled.layer,
    variant,
    phase: compiled.phase,
    state,
    ...(byAccount ? { byAccount: true as const } : {}),
  });
  for (const compiled of experiments) {
    const pin = pinOf(compiled, visitor, account);
    if (pin !== null && pinnedVariant(compiled, pin.variant, visitor.now))
      return answer(compiled, pin.variant, 'pinned', pin.byAccount);
  }
  const unit = account?.id ?? visitor.visitorId;
  if (unit === null) return undrawnLayer(experiments, visitor, answer);
  const bucket = placement.bucket(layerSeed, unit);
  for (const compiled of experiments) {
    if (!compiled.holdsLayer) continue;
    const variant = assigned(compiled, bucket, visitor, unit, placement);
    if (variant !== null) return answer(compiled, variant, 'assigned');
  }
  for (const compiled of experiments) {
    if ((compiled.rolledOut === null && compiled.rollOutRamp === null) || !takes(compiled, visitor))
      continue;
    if (compiled.rolledOut !== null) return answer(compiled, compiled.rolledOut, 'applied', false);
    // A roll-out on its ramp: its bands are exposed and counted; the rest keep the control.
    const arm = rampArm(compiled.rollOutRamp!, compiled.seed, unit);
    if (arm !== null) return answer(compiled, arm, 'assigned');
  }
  for (const compiled of experiments) {
    if (compiled.holdsLayer) continue;
    const variant = assigned(compiled, bucket, visitor, unit, placement);
    if (variant !== null) return answer(compiled, variant, 'applied');
  }
  return null;
}

/** Whether an experiment's routes and audience take the visitor (its range and coverage aside). */
function takes(compiled: CompiledExperiment, visitor: VisitorContext): boolean {
  if (compiled.routes !== null && !compiled.routes.has(visitor.route)) return false;
  return compiled.matches(visitor.facts);
}

/**
 * A layer for a visitor drawn by no experiment (no id to hash): the first running experiment
 * whose routes and audience take them shows its control, whatever its range and coverage (what
 * its control's visitors get); else a rolled-out winner, as for anyone; else a split of one
 * variant, which tests nothing.
 */
function undrawnLayer(
  experiments: readonly CompiledExperiment[],
  visitor: VisitorContext,
  answer: (
    compiled: CompiledExperiment,
    variant: string,
    state: ExperimentAssignment['state'],
    byAccount?: boolean,
  ) => ExperimentAssignment,
): ExperimentAssignment | null {
  const running = experiments.find(
    (compiled) => compiled.holdsLayer && compiled.status === 'running' && takes(compiled, visitor),
  );
  if (running) return answer(running, running.control, 'applied', false);
  const rolledOut = experiments.find(
    (compiled) => compiled.rolledOut !== null && takes(compiled, visitor),
  );
  if (rolledOut) return answer(rolledOut, rolledOut.rolledOut as string, 'applied', false);
  const single = experiments.find(
    (compiled) => !compiled.holdsLayer && compiled.status === 'running' && takes(compiled, visitor),
  );
  return single ? answer(single, single.control, 'applied', false) : null;
}

/** The funnel a visitor walks: their route's, with each of their variants' changes on top. */
export function shapeOf(
  compiled: CompiledExperiments,
  base: FunnelShape,
  assignments: readonly ExperimentAssignment[],
  flows: FlowsDocument,
): FunnelShape {
  let shape = base;
  for (const assignment of assignments) {
    const change = compiled.byId.get(assignment.experiment)?.changes.get(assignment.variant);
    if (change) shape = applyChange(shape, change, flows);
  }
  return shape;
}

/**
 * Where the visitor's experiment `index` of `assignments` first acts on their funnel: the trigger
 * of its variants, each with the visitor's other variants on top (so a landing test over a
 * flow test acts where it does in the visitor's flow). Null: its variants do not differ for them.
 * `composed`: the content declaring the composed screens their funnel lists.
 */
export function visitorTrigger(
  compiled: CompiledExperiments,
  base: FunnelShape,
  assignments: readonly ExperimentAssignment[],
  index: number,
  flows: FlowsDocument,
  composed?: ComposedScreens,
): number | null {
  const experiment = compiled.byId.get(assignments[index]!.experiment);
  if (!experiment) return null;
  const shapes = [...experiment.changes.keys()].map((variant) =>
    shapeOf(
      compiled,
      base,
      assignments.map((other, at) => (at === index ? { ...other, variant } : other)),
      flows,
    ),
  );
  return triggerFor(experiment.id, shapes, composed);
}
