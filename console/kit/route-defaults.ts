import type { RouteDocument } from '../../shared/config/routing';
import type { ConfigDocument } from '../../shared/console-api/config';
import type { Slot } from '../../shared/experiments';
import { PLAN_FIELD_NAMES } from '../../shared/plans/screen-offers';

/**
 * "Make variant X the route's default": the variant's change baked into each route the
 * experiment names, so that the routes show it to everyone and the experiment applies nothing
 * more (shared/experiments.ts DecisionAction). A swapped flow becomes the route's flow; swapped
 * screens become a new flow, a copy of the route's with those screens in place; plan lists (main,
 * upsell, guide) become the route's.
 */

/** The slot a screen stands at, from the kind the worker gives it (ConsoleState.screens). */
export function slotOfKind(kind: string): Slot | null {
  if (kind === 'checkout' || kind === 'paywall') return 'paywall';
  if (kind === 'landing' || kind === 'searching' || kind === 'signup') return kind;
  if (kind === 'upsell' || kind === 'end') return kind;
  return null;
}

/** Why a variant cannot become the routes' default, or null when it can. */
export function routeDefaultProblem(document: ConfigDocument, id: string): string | null {
  const experiment = document.experiments.experiments[id];
  if (!experiment) return 'the experiment is not in the draft';
  if (!experiment.audience.routes || experiment.audience.routes.length === 0)
    return 'it names no route: roll the variant out to its audience instead';
  return null;
}

const flowKey = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '_')
    .replace(/^[^a-z0-9]+/, '')
    .slice(0, 60);

export function withVariantAsRouteDefault(
  document: ConfigDocument,
  id: string,
  variantKey: string,
  kinds: Readonly<Record<string, string>>,
): ConfigDocument {
  const experiment = document.experiments.experiments[id];
  const variant = experiment?.variants[variantKey];
  const named = experiment?.audience.routes;
  if (!experiment || !variant || !named) return document;
  const flows = { ...document.flows.flows };
  const { change } = variant;
  const routes = document.routing.routes.map((route): RouteDocument => {
    if (!named.includes(route.id)) return route;
    let flow = change.flow ?? route.flow;
    const swaps = Object.entries(change.screens ?? {}) as [Slot, string][];
    if (swaps.length > 0) {
      const screens = (flows[flow] ?? flows.default ?? []).map((screen) => {
        const slot = slotOfKind(kinds[screen] ?? 'other');
        const swapped = swaps.find(([at]) => at === slot);
        return swapped ? swapped[1] : screen;
      });
      const name = flowKey(`${flow}_${id}_${variantKey}`);
      flows[name] = screens;
      flow = name;
    }
    const next: RouteDocument = { ...route, flow };
    // A content test's winner: the route's screens show its content variant from now on.
    if (change.content && Object.keys(change.content).length > 0) {
      next.content = { ...route.content, ...change.content };
    }
    for (const field of PLAN_FIELD_NAMES) {
      const plans = change[field];
      if (plans) next[field] = [...plans];
    }
    return next;
  });
  return {
    ...document,
    flows: { ...document.flows, flows },
    routing: { ...document.routing, routes },
  };
}
