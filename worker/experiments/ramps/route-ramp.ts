import type { RoutingDocument } from '../../../shared/config/routing';
import type { RouteRampArm, RouteRampBand, RouteRampDraw } from '../../routing/router';
import type { ExperimentArm } from '../store/every-experiment-statements';
import { rampArm } from './ramp-arm';

/**
 * A new route on a guarded ramp (docs/routes.md, "A new route on a ramp"): the router
 * (worker/routing/router.ts chooseRouteDrawn) lets it take the visitors it matches whose draw
 * falls in its band, and keeps an equal band on the route it would pick without it. The draw is
 * an experiment ramp's (ramp-arm.ts: the same hash, the same bands from 0 and from the middle,
 * seeded by the route), so a step only widens both bands and no visitor changes side.
 *
 * Both bands are counted as the two arms of one experiment-like unit in the visitors' shards,
 * `route:<id>` (no experiment id holds ':'), phase 1, arms `route` and `fallback`, as the holdout
 * is (worker/experiments/holdout/holdout.ts): their exposures, declines, checkout errors and
 * refunds are counted by the very statements that count an experiment's arms, and read and
 * judged as an experiment ramp's are (../answer/route-ramp-results.ts, ramp-engine.ts).
 */

const PREFIX = 'route:';

/** The unit a route's ramp counts under in the shards, and its results' id. */
export function routeRampUnit(routeId: string): string {
  return `${PREFIX}${routeId}`;
}

/**
 * An id the results and the ramp moves answer (worker/console/): an experiment's id as the config
 * allows it (shared/config/fields.ts slug), or a ramped route's unit, `route:<route id>`.
 */
const RESULTS_ID = /^(route:)?[a-z0-9][a-z0-9_-]{0,47}$/;

export function isResultsId(id: string): boolean {
  return RESULTS_ID.test(id);
}

/** The route a results id names (`route:<id>`), or null for an experiment's id. */
export function routeOfUnit(id: string): string | null {
  return id.startsWith(PREFIX) ? id.slice(PREFIX.length) : null;
}

/** The route ramps' draw for the visitor `visitorId` (its bands as an experiment ramp's). */
export function routeRampDraw(visitorId: string): RouteRampDraw {
  return (routeId, coverage) =>
    rampArm(
      { coverage, treatment: 'route', control: 'fallback', rolledBack: false },
      routeRampUnit(routeId),
      visitorId,
    ) as RouteRampBand | null;
}

/** The arms a page exposes for the visitor's route ramps, counted as an experiment's are. */
export function routeRampExposures(arms: readonly RouteRampArm[]): ExperimentArm[] {
  return arms.map(({ route, arm }) => ({
    experiment: routeRampUnit(route),
    phase: 1,
    variant: arm,
  }));
}

/** The route `id` of `routing` with its ramp; null when there is none. */
export function rampedRoute(routing: RoutingDocument, id: string) {
  const route = routing.routes.find((candidate) => candidate.id === id);
  return route?.ramp === undefined ? null : { ...route, ramp: route.ramp };
}
