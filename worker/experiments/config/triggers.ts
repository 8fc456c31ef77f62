import type { ComposedScreens, ScreenRef } from '../../../shared/composed-screens';
import type {
  ExperimentAudience,
  ExperimentDocument,
  ExperimentsDocument,
} from '../../../shared/config/experiments';
import type { FlowsDocument } from '../../../shared/config/flows';
import type { RoutingDocument } from '../../../shared/config/routing';
import { LAYERS, type Slot, SPLIT_EXPERIMENT_ID } from '../../../shared/experiments';
import {
  applyChange,
  type FunnelShape,
  routeFunnel,
  slotOfRef,
  triggerIndex,
} from '../../funnel/flow';

/**
 * Where each experiment exposes its visitors, route by route (docs/experiments.md): the first
 * screen at which its variants' funnels differ. Computed here with every other running experiment
 * at its control and other layers' rolled-out winners served, as the edge serves a route's
 * visitors (visitor-gets.ts), which is what the validator can know of a route; other layers' changes apply equally
 * to every arm of this one, but they can move the point of difference (another layer's flow may
 * lack the slot this one swaps), so the edge recomputes the trigger for each visitor from the
 * funnel their other variants make, with triggerFor.
 */

export interface Trigger {
  /** The index in the funnel of the first screen served at or after which a visitor is exposed. */
  index: number;
  /** The control's screen there, for the console ("exposed on checkout_v3_pp"). */
  screen: ScreenRef;
  /** The slot that screen stands at: a composed screen's `from`'s; null for one no test swaps. */
  slot: Slot | null;
}

/** The routes an audience takes visitors from, in the routing's order; absent: all of them. */
function targetedRoutes(audience: ExperimentAudience, routing: RoutingDocument): string[] {
  return audience.routes ?? routing.routes.map((route) => route.id);
}

/** Each variant's funnel on top of `base`, the control's first. */
function variantShapes(
  experiment: Pick<ExperimentDocument, 'control' | 'variants'>,
  base: FunnelShape,
  flows: FlowsDocument,
): FunnelShape[] {
  const keys = Object.keys(experiment.variants);
  const ordered = [experiment.control, ...keys.filter((key) => key !== experiment.control)];
  return ordered
    .filter((key) => Object.hasOwn(experiment.variants, key))
    .map((key) => applyChange(base, experiment.variants[key]!.change, flows));
}

/**
 * The trigger index of an experiment given its variants' funnels (control first), or null when
 * they do not differ. The migrated split (migrate-split.ts) keeps exposing where it always has,
 * on the first page served: its phases and results carry on, and exposures counted at the landing
 * and at a later screen within one phase would not be comparable. The same holds for a split whose
 * variants walk flows of the same screens (an A/A test), which differ only by name. `composed`
 * is the content that declares the composed screens the funnels list.
 */
export function triggerFor(
  id: string,
  shapes: readonly FunnelShape[],
  composed?: ComposedScreens,
): number | null {
  if (id === SPLIT_EXPERIMENT_ID) return shapes.length > 0 ? 0 : null;
  return triggerIndex(shapes, composed);
}

/** A winner rolled out in another layer: its change, on the routes its audience names. */
interface RollOut {
  routes: readonly string[] | undefined;
  change: ExperimentDocument['variants'][string]['change'];
}

/**
 * The winners of `experiments` rolled out in a layer other than `layer` (evaluate.ts serves them
 * to their audience whoever else tests), in layer order; `id`'s own left out.
 */
function rollOutsBeside(
  experiments: ExperimentsDocument | undefined,
  id: string,
  layer: string,
): RollOut[] {
  const rollOuts = Object.entries(experiments?.experiments ?? {}).filter(
    ([other, { status, decision, layer: its }]) =>
      other !== id && its !== layer && status === 'shipped' && decision?.action === 'roll_out',
  );
  return rollOuts
    .sort(([, a], [, b]) => LAYERS.indexOf(a.layer) - LAYERS.indexOf(b.layer))
    .flatMap(([, { audience, decision, variants }]) => {
      const change = variants[decision?.variant ?? '']?.change;
      return change ? [{ routes: audience.routes, change }] : [];
    });
}

/**
 * The trigger of the experiment on each route it targets that exists (audience.routes, else every
 * route), or null on a route where its variants do not differ. On a route that other layers'
 * winners are rolled out to, their funnel is the one compared first; a roll-out whose audience
 * takes only some of the route's visitors leaves the others the route's own funnel, compared next.
 */
export function experimentTriggers(
  id: string,
  experiment: Pick<ExperimentDocument, 'audience' | 'control' | 'variants' | 'layer'>,
  context: {
    flows: FlowsDocument;
    routing: RoutingDocument;
    content?: ComposedScreens;
    /** The experiments beside it, whose rolled-out winners its route serves. */
    experiments?: ExperimentsDocument;
  },
): Map<string, Trigger | null> {
  const { flows, routing, content } = context;
  const byId = new Map(routing.routes.map((route) => [route.id, route]));
  const rollOuts = rollOutsBeside(context.experiments, id, experiment.layer);
  const triggers = new Map<string, Trigger | null>();
  for (const routeId of targetedRoutes(experiment.audience, routing)) {
    const route = byId.get(routeId);
    if (route === undefined) continue;
    const own = routeFunnel(route, flows);
    const served = rollOuts
      .filter((rollOut) => rollOut.routes === undefined || rollOut.routes.includes(routeId))
      .reduce((shape, rollOut) => applyChange(shape, rollOut.change, flows), own);
    let shapes = variantShapes(experiment, served, flows);
    let index = triggerFor(id, shapes, content);
    if (index === null && served !== own) {
      shapes = variantShapes(experiment, own, flows);
      index = triggerFor(id, shapes, content);
    }
    const screen =
      index === null ? undefined : shapes.map((shape) => shape.screens[index]).find(Boolean);
    triggers.set(
      routeId,
      screen === undefined ? null : { index: index!, screen, slot: slotOfRef(screen, content) },
    );
  }
  return triggers;
}
