import type {
  ExperimentDocument,
  ExperimentsDocument,
  VariantChange,
} from '../../../shared/config/experiments';
import type { FlowsDocument } from '../../../shared/config/flows';
import type { DocumentIssue } from '../../../shared/config/parse-document';
import type { RouteDocument, RoutingDocument } from '../../../shared/config/routing';
import type { SplitDocument } from '../../../shared/config/split';
import { LAYERS, type Slot, SPLIT_EXPERIMENT_ID } from '../../../shared/experiments';
import { PLAN_FIELD_NAMES, type PlanField } from '../../../shared/plans/screen-offers';
import { applyChange, type FunnelShape, routeFunnel, slotOf } from '../../funnel/flow';
import { experimentFromSplit } from './migrate-split';

/**
 * Whether a decision that makes a variant the default of its routes reaches the routes' new
 * visitors (docs/experiments.md, "Ending: the decision"). The decision bakes the variant's change
 * into each route (its flow, or a copy of it with the new screen, and its plans); the routes are
 * what a visitor walks before any experiment changes it (evaluate.ts), so whatever still draws a
 * new visitor of those routes into a variant of its own shows that variant on top: the split test,
 * whose every variant walks a flow of its own, a running experiment whose variant changes the
 * same part of the funnel, a variant rolled out to an audience. Each of those is refused by name,
 * with what the marketer can do instead, before the decision is published: a winner shipped to
 * nobody is found only in the numbers, weeks later.
 *
 * Only a decision made in this publish is held to it: experiments started on those routes after
 * it test something new on top of the route, which is what the route is for.
 */

export interface DecisionReachContext {
  flows: FlowsDocument;
  routing: RoutingDocument;
  split: SplitDocument;
}

/** Something that draws new visitors of a route into a variant that hides the decision. */
interface Hider {
  id: string;
  experiment: ExperimentDocument;
  variant: string;
  route: string;
  /** What that variant's visitors get instead, in words: `flow "default" (landing "one_pager")`. */
  instead: string;
}

const samePlans = (a: readonly string[] | null, b: readonly string[]) =>
  a !== null && a.length === b.length && a.every((plan, index) => plan === b[index]);

/** How a message names each plan list. */
const PLAN_FIELD_WORDS = {
  plans: 'plans',
  upsellPlans: 'upsell plans',
  guidePlans: 'guide plans',
} as const satisfies Record<PlanField, string>;

const screensAt = (shape: FunnelShape, slot: Slot) =>
  shape.screens.filter((screen) => slotOf(screen) === slot);

/** Whether a visitor walking `shape` sees everything `change` makes. */
function showsChange(shape: FunnelShape, change: VariantChange, flows: FlowsDocument): boolean {
  if (change.flow !== undefined) {
    // The screens the change makes, compared by value: a decision with a new screen on top of a
    // flow names a copy of the flow.
    const wanted = applyChange(shape, { flow: change.flow, screens: change.screens }, flows);
    if (
      wanted.screens.length !== shape.screens.length ||
      wanted.screens.some((screen, index) => shape.screens[index] !== screen)
    )
      return false;
  }
  for (const [slot, screen] of Object.entries(change.screens ?? {}) as [Slot, string][]) {
    const there = screensAt(shape, slot);
    if (there.length === 0 || there.some((other) => other !== screen)) return false;
  }
  return PLAN_FIELD_NAMES.every((field) => {
    const plans = change[field];
    return plans === undefined || samePlans(shape[field], plans);
  });
}

/** What `shape` shows of the parts `change` makes, for a message. */
function whatShows(shape: FunnelShape, change: VariantChange): string {
  const parts: string[] = [];
  if (change.flow !== undefined) parts.push(`flow "${shape.flow}"`);
  for (const slot of Object.keys(change.screens ?? {}) as Slot[]) {
    const there = screensAt(shape, slot);
    parts.push(
      there.length === 0
        ? `flow "${shape.flow}", with no ${slot} screen`
        : `${slot} "${there.join('", "')}"`,
    );
  }
  for (const field of PLAN_FIELD_NAMES) {
    if (change[field] === undefined) continue;
    const plans = shape[field];
    const what = PLAN_FIELD_WORDS[field];
    parts.push(plans === null ? `the screens' own ${what}` : `${what} ${plans.join(', ')}`);
  }
  return parts.join(', ');
}

/** The experiments that may put a new visitor of `route` in a variant, with those variants. */
function drawing(
  doc: ExperimentsDocument,
  decided: string,
  context: DecisionReachContext,
  route: string,
): { id: string; experiment: ExperimentDocument; variants: string[] }[] {
  const all: [string, ExperimentDocument][] = [
    [SPLIT_EXPERIMENT_ID, experimentFromSplit(context.split)],
    ...Object.entries(doc.experiments).filter(([id]) => id !== SPLIT_EXPERIMENT_ID),
  ];
  const found: { id: string; experiment: ExperimentDocument; variants: string[] }[] = [];
  for (const [id, experiment] of all) {
    if (id === decided) continue;
    const routes = experiment.audience.routes;
    if (routes !== undefined && !routes.includes(route)) continue;
    if (experiment.status === 'running') {
      // The control of an experiment changes nothing, so it shows the route; the split's walks
      // a flow of its own (migrate-split.ts), which experimentFromSplit gives it as a change.
      const variants = Object.entries(experiment.variants)
        .filter(([, variant]) => variant.weight > 0)
        .map(([key]) => key);
      if (variants.length > 0) found.push({ id, experiment, variants });
    } else if (
      experiment.status === 'shipped' &&
      experiment.decision?.action === 'roll_out' &&
      experiment.decision.variant !== undefined
    ) {
      found.push({ id, experiment, variants: [experiment.decision.variant] });
    }
  }
  return found;
}

const layerIndex = (experiment: ExperimentDocument) => LAYERS.indexOf(experiment.layer);

/**
 * The variants that would hide `change` from new visitors of `route`: made the route's default
 * (`as: 'route_default'`, the route's shape `base` already holding it), or rolled out by the
 * experiment in `layer` (`as: 'roll_out'`), which applies only to visitors no running experiment
 * of its own layer takes, under the changes of later layers and over those of earlier ones.
 */
function hidersOn(
  as: 'route_default' | 'roll_out',
  decided: { id: string; layer: ExperimentDocument['layer']; change: VariantChange },
  base: FunnelShape,
  route: string,
  doc: ExperimentsDocument,
  context: DecisionReachContext,
): Hider[] {
  const { flows } = context;
  const hiders: Hider[] = [];
  for (const { id, experiment, variants } of drawing(doc, decided.id, context, route)) {
    const sameLayer = experiment.layer === decided.layer;
    const later = layerIndex(experiment) > LAYERS.indexOf(decided.layer);
    // A running experiment holding the roll-out's layer takes its visitors first (evaluate.ts
    // assignLayer): they walk the route as it was, or its variant, never the roll-out.
    const takesFirst =
      as === 'roll_out' &&
      sameLayer &&
      experiment.status === 'running' &&
      Object.keys(experiment.variants).length > 1;
    // A split of one variant applies its flow only to whoever no roll-out of its layer takes.
    const passedOver =
      as === 'roll_out' &&
      sameLayer &&
      experiment.status === 'running' &&
      Object.keys(experiment.variants).length === 1;
    for (const variant of variants) {
      const own = experiment.variants[variant]?.change ?? {};
      let shape = applyChange(base, own, flows);
      if (as === 'roll_out' && !sameLayer)
        shape = later
          ? applyChange(applyChange(base, decided.change, flows), own, flows)
          : applyChange(shape, decided.change, flows);
      if (takesFirst || (!passedOver && !showsChange(shape, decided.change, flows))) {
        hiders.push({ id, experiment, variant, route, instead: whatShows(shape, decided.change) });
        break;
      }
    }
  }
  return hiders;
}

const nameOf = (id: string) =>
  id === SPLIT_EXPERIMENT_ID ? 'the split test ("split")' : `experiment "${id}"`;

const quoted = (items: readonly string[]) => items.map((item) => `"${item}"`).join(', ');

/** One clause per hider: who draws the visitors, and what they see instead. */
function hiderClause(hider: Hider, routes: readonly string[]): string {
  const where = `route${routes.length > 1 ? 's' : ''} ${quoted(routes)}`;
  const shown = `variant "${hider.variant}" (${hider.instead})`;
  if (hider.id === SPLIT_EXPERIMENT_ID)
    return `${nameOf(hider.id)} draws ${where} and walks its visitors through its own flows: ${shown}`;
  if (hider.experiment.status === 'shipped')
    return `${nameOf(hider.id)} rolls ${shown} out to ${where}`;
  return `${nameOf(hider.id)} (running) shows ${shown} to visitors of ${where}`;
}

/** The hiders by experiment, each with the routes where it hides the decision. */
function byExperiment(hiders: readonly Hider[]): { hider: Hider; routes: string[] }[] {
  const grouped = new Map<string, { hider: Hider; routes: string[] }>();
  for (const hider of hiders) {
    const known = grouped.get(hider.id);
    if (known) known.routes.push(hider.route);
    else grouped.set(hider.id, { hider, routes: [hider.route] });
  }
  return [...grouped.values()];
}

/** The route's shape, or null when the route does not exist (referenceIssues says so). */
function shapeOfRoute(
  routes: ReadonlyMap<string, RouteDocument>,
  id: string,
  flows: FlowsDocument,
) {
  const route = routes.get(id);
  return route === undefined ? null : routeFunnel(route, flows);
}

/** Whether the decision is new in this publish: `live` did not hold it yet. */
function decidedNow(id: string, experiment: ExperimentDocument, live?: ExperimentsDocument | null) {
  const was = live?.experiments[id];
  return !(
    was?.status === 'shipped' &&
    was.decision?.action === experiment.decision?.action &&
    was.decision?.variant === experiment.decision?.variant
  );
}

/**
 * The refusals of experiment `id`'s decision when it makes a variant the default of its routes
 * and some new visitor of those routes would not see it: at `<path>.decision.action`, naming
 * what hides it and what to do instead.
 */
export function decisionReachIssues(
  path: string,
  id: string,
  experiment: ExperimentDocument,
  doc: ExperimentsDocument,
  context: DecisionReachContext,
  live?: ExperimentsDocument | null,
): DocumentIssue[] {
  const { decision } = experiment;
  if (experiment.status !== 'shipped' || decision?.action !== 'route_default') return [];
  const variant = decision.variant;
  const change = variant === undefined ? undefined : experiment.variants[variant]?.change;
  if (variant === undefined || change === undefined || !decidedNow(id, experiment, live)) return [];
  const at = `${path}.decision.action`;
  const named = experiment.audience.routes;
  if (named === undefined)
    return [
      {
        path: at,
        message: `cannot make variant "${variant}" a route's default: the experiment names no route; roll the variant out to its audience instead`,
      },
    ];
  const { flows } = context;
  const routes = new Map(context.routing.routes.map((route) => [route.id, route]));
  const issues: DocumentIssue[] = [];
  const hiders: Hider[] = [];
  const rollOutHiders: Hider[] = [];
  const decided = { id, layer: experiment.layer, change };
  for (const route of named) {
    const base = shapeOfRoute(routes, route, flows);
    if (base === null) continue;
    if (!showsChange(base, change, flows)) {
      issues.push({
        path: at,
        message: `route "${route}" does not show variant "${variant}" (it has ${whatShows(base, change)}): give the route the variant's flow, screen or plans, as the console's decision does`,
      });
      continue;
    }
    hiders.push(...hidersOn('route_default', decided, base, route, doc, context));
    rollOutHiders.push(...hidersOn('roll_out', decided, base, route, doc, context));
  }
  if (hiders.length === 0) return issues;
  const groups = byExperiment(hiders);
  const clauses = groups.map(({ hider, routes: where }) => hiderClause(hider, where));
  issues.push({
    path: at,
    message: `cannot make variant "${variant}" the default of its routes: new visitors would not see it, because ${clauses.join('; and ')}. ${nextStep(variant, groups, rollOutHiders)}`,
  });
  return issues;
}

/** What the marketer can do in the console that ships the variant to every new visitor. */
function nextStep(
  variant: string,
  groups: readonly { hider: Hider; routes: string[] }[],
  rollOutHiders: readonly Hider[],
): string {
  const ids = groups.map(({ hider }) => hider.id);
  if (rollOutHiders.length === 0) {
    const under = ids.includes(SPLIT_EXPERIMENT_ID)
      ? "the split test's flows"
      : 'what the other experiments change';
    return `Roll variant "${variant}" out to the experiment's audience instead: it shows on top of ${under}`;
  }
  const experiments = ids.filter((id) => id !== SPLIT_EXPERIMENT_ID);
  const split = groups.find(({ hider }) => hider.id === SPLIT_EXPERIMENT_ID);
  const steps: string[] = [];
  if (experiments.length > 0)
    steps.push(
      `pause or end ${quoted(experiments)} (${experiments.length > 1 ? 'their' : 'its'} exposed visitors keep their variant)`,
    );
  if (split)
    steps.push(
      `take ${split.routes.length > 1 ? 'routes' : 'route'} ${quoted(split.routes)} out of the split test's routes (split.routes)`,
    );
  const first = steps.join(' and ');
  return `${first.charAt(0).toUpperCase()}${first.slice(1)} first, then make variant "${variant}" the default`;
}
