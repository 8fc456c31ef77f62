import type { RouteDocument, RoutingDocument } from '../../../shared/config/routing';
import type { SplitDocument } from '../../../shared/config/split';

/**
 * When each route and the split's current setup came into effect, stamped by every publish
 * (worker/config/publish.ts) like an experiment's start (worker/experiments/config/phases.ts) and
 * never typed: what the console or a file sends for them is replaced by what follows from the
 * live document and this publish, so no one can date a new route back to hide it from the
 * holdout. The holdout covers what came into effect while it ran (./draw.ts coversSince);
 * what has no stamp was there before the stamps, so before any holdout.
 */

/**
 * The routes as stored: each keeps the `since` of the live route of its id (none if it had
 * none); a route the live document lacks is new, `at`. With nothing live yet there is nothing to
 * be new against: no route is stamped.
 */
export function stampRoutes(
  next: RoutingDocument,
  live: RoutingDocument | null | undefined,
  at: string,
): RoutingDocument {
  const before = new Map(live?.routes.map((route) => [route.id, route]));
  const routes = next.routes.map((route): RouteDocument => {
    const { since: _sent, ...rest } = route;
    const since = live ? (before.has(route.id) ? before.get(route.id)?.since : at) : undefined;
    return since === undefined ? rest : { ...rest, since };
  });
  return { ...next, routes };
}

/**
 * The split's `since`: `at` when this publish starts a new phase (new shares, a variant drawn or
 * no longer drawn: worker/experiments/config/phase.ts), else the live split's (none if it had
 * none, or nothing was live).
 */
export function splitSince(
  live: SplitDocument | null | undefined,
  newPhase: boolean,
  at: string,
): string | undefined {
  return newPhase ? at : live?.since;
}
