import type { RouteVisitsAnswer } from '../../../shared/console-api/routes';
import { EXPERIMENT_SHARD_COUNT } from '../assignment/assign';
import { type ExperimentStores, shardStub } from '../store/experiment-stores';

/** How many UTC days the console's route visits cover: today and the 6 before. */
const ROUTE_VISIT_DAYS = 7;

const DAY_MS = 24 * 60 * 60 * 1000;

/** The UTC day of an instant, as route_days keys it ('YYYY-MM-DD'). */
function utcDay(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}

/**
 * The first visits each route took, and the steps its visitors reached, over the last
 * ROUTE_VISIT_DAYS UTC days up to `now`'s, every shard's added (routeVisitsBetween). EVENTS_DB is
 * not read: a new visitor always lives in a shard, and every visitor's steps are counted there.
 */
export function readRouteVisits(stores: ExperimentStores, now: number): Promise<RouteVisitsAnswer> {
  return routeVisitsBetween(stores, now - (ROUTE_VISIT_DAYS - 1) * DAY_MS, now);
}

/**
 * The first visits each route took, and the steps its visitors reached (../store/route-steps.ts), from
 * the UTC day of `from` to that of `to`, both included: each shard asked once, in parallel, for
 * a few rows per route. A shard that fails fails the whole read, never a partial sum.
 */
export async function routeVisitsBetween(
  stores: ExperimentStores,
  from: number,
  to: number,
): Promise<RouteVisitsAnswer> {
  const first = utcDay(from);
  const last = utcDay(to);
  const parts = await Promise.all(
    Array.from({ length: EXPERIMENT_SHARD_COUNT }, (_, index) =>
      shardStub(stores, index).routeVisits(first, last),
    ),
  );
  const visits: Record<string, number> = {};
  const steps: RouteVisitsAnswer['steps'] = {};
  let total = 0;
  for (const part of parts) {
    for (const row of part.visits) {
      visits[row.route] = (visits[row.route] ?? 0) + row.visits;
      total += row.visits;
    }
    for (const row of part.steps) {
      const route = steps[row.route] ?? { lookup: 0, signup: 0, paywall: 0, upsell: 0 };
      route[row.step] += row.reached;
      steps[row.route] = route;
    }
  }
  const days = Math.round((Date.parse(last) - Date.parse(first)) / DAY_MS) + 1;
  return { days, visits, total, steps };
}
