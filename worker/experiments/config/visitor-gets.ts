import type { ContentDocument } from '../../../shared/config/content';
import type { ExperimentsDocument } from '../../../shared/config/experiments';
import type { FlowsDocument } from '../../../shared/config/flows';
import type { RoutingDocument } from '../../../shared/config/routing';
import type { SplitDocument } from '../../../shared/config/split';
import { type FunnelShape, routeFunnel } from '../../funnel/flow';
import type { ChosenRoute, VisitorFacts } from '../../routing/router';
import { HASHED_PLACEMENT, type Placement } from '../assignment/assign';
import { type HoldoutGroup, heldBack, holdoutGroup } from '../holdout/holdout';
import {
  assignExperiments,
  type CompiledExperiments,
  compiledExperiments,
  type ExperimentAssignment,
  shapeOf,
  type VisitorAccount,
} from './evaluate';

/**
 * What the edge serves a visitor (docs/experiments.md, "What a visitor gets"): their route, their
 * place in each experiment and the funnel that makes, worked out from a config (live or a draft)
 * and a described visitor. The experiments middleware (worker/request/visit-facts.ts) asks it
 * for every page and API call, a marketer's preview asks it for the page it draws, and the
 * console's "what does this visitor get" (worker/console/visitor-gets-route.ts) and the review's
 * "How the screens change" (worker/console/screen-changes.ts) ask it for what the console says:
 * one code path, so the console says what the edge does. Pure: no I/O.
 */

/** The sections of the config a visitor's funnel is made from. */
export interface ServedConfig {
  split: SplitDocument;
  flows: FlowsDocument;
  routing: RoutingDocument;
  experiments: ExperimentsDocument;
  /** The screens' content: a copy test is shown only in the languages its variant is written in. */
  content: ContentDocument;
}

/** How a visitor's running experiments place them. */
export interface VisitorDraw {
  /** The id the experiments hash (the `userUuid` cookie's). */
  visitorId: string;
  /** The pins the browser holds, experiment id → variant (`gf_x`, `gf_variant`). */
  pins: ReadonlyMap<string, string>;
  /** The signed-in account a layer with a price test places them by, if any. */
  account: VisitorAccount | null;
}

/** A visitor as the edge knows them, or as the console describes one. */
export interface DescribedVisitor {
  /** Their route, as the router chose it (or a preview names it). */
  route: ChosenRoute;
  /** What the experiments' audiences read (country, language, platform…). */
  facts: VisitorFacts;
  /** Epoch ms: which ended experiments still keep the visitors pinned to them. */
  now: number;
  /**
   * Drawn by the hash of their id, with their pins; null: drawn by none (a preview, a described
   * visitor), so each running experiment that takes them shows its control.
   */
  draw: VisitorDraw | null;
  /**
   * Arms chosen for them, experiment id → variant, kept as pins are (a preview's): each must
   * name a running or paused experiment and one of its variants (armsProblem says which not).
   */
  arms?: ReadonlyMap<string, string>;
  /**
   * Every experiment they are in shows its control: `skip_split` (SPEC.md §4) and a browser that
   * keeps no cookies, whom no draw may follow from page to page.
   */
  controls?: boolean;
}

/** Whether a link opens the funnel with `skip_split=true` (SPEC.md §4): every test's control. */
export function skipsSplit(link: URL): boolean {
  return link.searchParams.get('skip_split') === 'true';
}

/** What a visitor gets: the route, the experiments' arms and the funnel they walk. */
export interface VisitorGets {
  route: ChosenRoute;
  compiled: CompiledExperiments;
  /** At most one per layer, in layer order. */
  assignments: ExperimentAssignment[];
  /** The route's funnel, before any experiment. */
  base: FunnelShape;
  /** The route's funnel with each arm's change on top: what is served. */
  shape: FunnelShape;
  /** Their group in the holdout (worker/experiments/holdout/holdout.ts), drawn before any experiment. */
  holdout: HoldoutGroup | null;
}

/**
 * Each assignment at its experiment's control (SPEC.md §4 `skip_split`), applied, never exposed.
 * A rolled-out winner is no longer a test: it is what its audience is served, so it stays.
 */
export function atControls(
  compiled: CompiledExperiments,
  assignments: readonly ExperimentAssignment[],
): ExperimentAssignment[] {
  return assignments.map((assignment) => {
    const experiment = compiled.byId.get(assignment.experiment);
    const rolledOut = experiment?.rolledOut != null && experiment.rolledOut === assignment.variant;
    return {
      ...assignment,
      variant: rolledOut ? assignment.variant : (experiment?.control ?? assignment.variant),
      state: 'applied',
    };
  });
}

/**
 * Why `arms` cannot be kept in `config`, or null: an arm naming an experiment that is not running
 * or paused (a draft, ended, archived or deleted one) or a variant it does not have.
 */
export function armsProblem(
  config: ServedConfig,
  arms: ReadonlyMap<string, string>,
): string | null {
  const compiled = compiledExperiments(
    config.experiments,
    config.split,
    config.routing,
    config.content,
  );
  for (const [experiment, variant] of arms) {
    const known = compiled.byId.get(experiment);
    // Only a running or paused experiment keeps whoever holds an arm of it (evaluate.ts).
    if (known?.status !== 'running' && known?.status !== 'paused')
      return `experiment "${experiment}" is not running`;
    if (!known.changes.has(variant))
      return `experiment "${experiment}" has no variant "${variant}"`;
  }
  return null;
}

/** What the edge serves `visitor` under `config` (see the top of the file). */
export function visitorGets(
  config: ServedConfig,
  visitor: DescribedVisitor,
  placement: Placement = HASHED_PLACEMENT,
): VisitorGets {
  const { route, draw } = visitor;
  const compiled = compiledExperiments(
    config.experiments,
    config.split,
    config.routing,
    config.content,
  );
  const holdout = holdoutGroup(config.experiments.holdout, draw?.visitorId ?? null, visitor.now);
  const pins = new Map(draw?.pins);
  for (const [experiment, variant] of visitor.arms ?? []) pins.set(experiment, variant);
  let assignments = assignExperiments(
    compiled,
    {
      visitorId: draw?.visitorId ?? null,
      route: route.id,
      facts: visitor.facts,
      pins,
      account: draw?.account ?? null,
      now: visitor.now,
    },
    placement,
  );
  if (visitor.controls) assignments = atControls(compiled, assignments);
  if (holdout !== null)
    assignments = heldBack(config, compiled, assignments, holdout, visitor.arms);
  const base = routeFunnel(route, config.flows);
  const shape = shapeOf(compiled, base, assignments, config.flows);
  return { route, compiled, assignments, base, shape, holdout };
}

/** How a visitor came by an arm, in the console's words' order. */
export type ArmSource = 'chosen' | 'pinned' | 'drawn' | 'rolled_out' | 'control';

/** How `assignment` came about for `visitor` (chosen arms first). */
export function armSource(
  gets: VisitorGets,
  visitor: Pick<DescribedVisitor, 'arms'>,
  assignment: ExperimentAssignment,
): ArmSource {
  if (visitor.arms?.get(assignment.experiment) === assignment.variant) return 'chosen';
  if (assignment.state === 'pinned') return 'pinned';
  if (assignment.state === 'assigned') return 'drawn';
  const compiled = gets.compiled.byId.get(assignment.experiment);
  return compiled?.rolledOut === assignment.variant ? 'rolled_out' : 'control';
}
