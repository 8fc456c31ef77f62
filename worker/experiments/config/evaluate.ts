import type { ComposedScreens } from '../../../shared/composed-screens';
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
import { compileAudience, type VisitorFacts } from '../../routing/router';
import { inRange, type Placement } from '../assignment/assign';
import { applyChange, type FunnelShape } from './funnel-shape';
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
 *    no one.
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
  /**
   * False for a split of one variant, which tests nothing: it holds no part of the layer (or no
   * new flow test could start on its routes) and applies its flow to whoever no test takes.
   */
  holdsLayer: boolean;
}

export interface CompiledExperiments {
  byLayer: ReadonlyMap<Layer, readonly CompiledExperiment[]>;
  byId: ReadonlyMap<string, CompiledExperiment>;
  layerSeeds: Readonly<Record<Layer, string>>;
}

const DAY_MS = 24 * 60 * 60 * 1000;

function compileExperiment(
  id: string,
  experiment: ExperimentDocument,
  routing: RoutingDocument,
): CompiledExperiment {
  const { audience } = experiment;
  const saved =
    audience.audience === undefined
      ? null
      : compileAudience(routing.audiences[audience.audience]?.groups ?? []);
  const own = audience.groups === undefined ? null : compileAudience(audience.groups);
  const ended = experiment.endedAt === undefined ? Number.NaN : Date.parse(experiment.endedAt);
  const drainDays = experiment.drainDays ?? DEFAULT_DRAIN_DAYS;
  const decision = experiment.decision;
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
    matches: (facts) => (saved === null || saved(facts)) && (own === null || own(facts)),
    weights: Object.entries(experiment.variants).map(([key, v]) => [key, v.weight] as const),
    changes: new Map(Object.entries(experiment.variants).map(([key, v]) => [key, v.change])),
    // An end with no time recorded drains at once rather than never.
    drainUntil: Number.isNaN(ended) ? 0 : ended + drainDays * DAY_MS,
    rolledOut:
      experiment.status === 'shipped' && decision?.action === 'roll_out'
        ? (decision.variant ?? null)
        : null,
    holdsLayer: Object.keys(experiment.variants).length > 1,
  };
}

/**
 * The experiments in effect: the `experiments` section's, and today's split as the flow layer's
 * experiment `split` (migrate-split.ts). Compiled once per pair of documents, as the routes are.
 */
export function compileExperiments(
  experiments: ExperimentsDocument,
  split: SplitDocument,
  routing: RoutingDocument,
): CompiledExperiments {
  const byLayer = new Map<Layer, CompiledExperiment[]>(LAYERS.map((layer) => [layer, []]));
  const byId = new Map<string, CompiledExperiment>();
  const all: [string, ExperimentDocument][] = [
    [SPLIT_EXPERIMENT_ID, experimentFromSplit(split)],
    ...Object.entries(experiments.experiments).filter(([id]) => id !== SPLIT_EXPERIMENT_ID),
  ];
  for (const [id, experiment] of all) {
    if (experiment.status === 'draft' || experiment.status === 'archived') continue;
    const compiled = compileExperiment(id, experiment, routing);
    byLayer.get(compiled.layer)?.push(compiled);
    byId.set(id, compiled);
  }
  const layerSeeds = Object.fromEntries(
    LAYERS.map((layer) => [layer, experiments.layers?.[layer]?.seed ?? layer]),
  ) as Record<Layer, string>;
  return { byLayer, byId, layerSeeds };
}

const cache = new WeakMap<
  object,
  { split: object; routing: object; compiled: CompiledExperiments }
>();

/** compileExperiments, once per set of documents (the loader keeps unchanged ones as they are). */
export function compiledExperiments(
  experiments: ExperimentsDocument,
  split: SplitDocument,
  routing: RoutingDocument,
): CompiledExperiments {
  const known = cache.get(experiments);
  if (known && known.split === split && known.routing === routing) return known.compiled;
  const compiled = compileExperiments(experiments, split, routing);
  cache.set(experiments, { split, routing, compiled });
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
}

export interface VisitorContext {
  visitorId: string;
  route: string;
  facts: VisitorFacts;
  /** Experiment id → variant, from `gf_x` (and `gf_variant` for the split). */
  pins: ReadonlyMap<string, string>;
  now: number;
}

/** The variant a running experiment's hash gives the visitor, if the experiment takes them. */
function assigned(
  compiled: CompiledExperiment,
  bucket: number,
  visitor: VisitorContext,
  placement: Placement,
): string | null {
  if (compiled.status !== 'running') return null;
  if (compiled.routes !== null && !compiled.routes.has(visitor.route)) return null;
  if (!inRange(bucket, [compiled.from, compiled.to])) return null;
  if (!compiled.matches(visitor.facts)) return null;
  if (!placement.covered(compiled.seed, visitor.visitorId, compiled.coverage)) return null;
  // SPEC.md §4's placement of a number in the weights' cumulative ranges, the number from the
  // hash of the visitor id instead of a draw.
  return placement.variant(compiled.seed, visitor.visitorId, compiled.weights);
}

function pinnedVariant(compiled: CompiledExperiment, variant: string, now: number): boolean {
  if (!compiled.changes.has(variant)) return false;
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
    const experiments = compiled.byLayer.get(layer) ?? [];
    if (experiments.length === 0) continue;
    const found = assignLayer(experiments, compiled.layerSeeds[layer], visitor, placement);
    if (found) assignments.push(found);
  }
  return assignments;
}

function assignLayer(
  experiments: readonly CompiledExperiment[],
  layerSeed: string,
  visitor: VisitorContext,
  placement: Placement,
): ExperimentAssignment | null {
  const answer = (
    compiled: CompiledExperiment,
    variant: string,
    state: ExperimentAssignment['state'],
  ) => ({
    experiment: compiled.id,
    layer: compiled.layer,
    variant,
    phase: compiled.phase,
    state,
  });
  for (const compiled of experiments) {
    const pin = visitor.pins.get(compiled.id);
    if (pin !== undefined && pinnedVariant(compiled, pin, visitor.now))
      return answer(compiled, pin, 'pinned');
  }
  const bucket = placement.bucket(layerSeed, visitor.visitorId);
  for (const compiled of experiments) {
    if (!compiled.holdsLayer) continue;
    const variant = assigned(compiled, bucket, visitor, placement);
    if (variant !== null) return answer(compiled, variant, 'assigned');
  }
  for (const compiled of experiments) {
    if (compiled.rolledOut === null) continue;
    if (compiled.routes !== null && !compiled.routes.has(visitor.route)) continue;
    if (compiled.matches(visitor.facts)) return answer(compiled, compiled.rolledOut, 'applied');
  }
  for (const compiled of experiments) {
    if (compiled.holdsLayer) continue;
    const variant = assigned(compiled, bucket, visitor, placement);
    if (variant !== null) return answer(compiled, variant, 'applied');
  }
  return null;
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
