import type { HoldoutDocument } from '../../../shared/config/holdout';
import type { RoutingDocument } from '../../../shared/config/routing';
import { coversSince } from '../../../shared/holdout';
import { DEFAULT_ROUTE_ID } from '../../../shared/routing';
import { holdoutGroup } from './draw';

/**
 * The routes a held-out visitor never gets (docs/experiments.md, "The holdout"): each route first
 * published while the holdout took new ones (its `since`, ./holdout-issues.ts). The router passes over
 * them for the held out, who get the route it picks without them, the one they would have got
 * before; the measured sample and everyone else get them as published. `default` takes everyone
 * else and is never passed over. Worked out once per routing document; a page asks for it only
 * when it chooses a route, and draws the visitor's group only when there is one.
 */

const NONE: ReadonlySet<string> = new Set();

const byDocument = new WeakMap<
  RoutingDocument,
  { holdout: HoldoutDocument | undefined; ids: ReadonlySet<string> }
>();

/** The ids of the routes the holdout covers: first published while it took new ones. */
function coveredRoutes(
  holdout: HoldoutDocument | undefined,
  routing: RoutingDocument,
): ReadonlySet<string> {
  const known = byDocument.get(routing);
  if (known && known.holdout === holdout) return known.ids;
  const ids =
    holdout === undefined
      ? NONE
      : new Set(
          routing.routes
            .filter((route) => route.id !== DEFAULT_ROUTE_ID && coversSince(holdout, route.since))
            .map((route) => route.id),
        );
  byDocument.set(routing, { holdout, ids });
  return ids;
}

/**
 * The routes the router passes over for the visitor (worker/routing/router.ts chooseRoute): the
 * covered ones when the holdout holds them out at `now`, else none (undefined).
 */
export function routesPassedOver(
  config: { experiments: { holdout?: HoldoutDocument | undefined }; routing: RoutingDocument },
  visitorId: string | null,
  now: number,
): ReadonlySet<string> | undefined {
  const { holdout } = config.experiments;
  const covered = coveredRoutes(holdout, config.routing);
  if (covered.size === 0) return undefined;
  return holdoutGroup(holdout, visitorId, now) === 'held_out' ? covered : undefined;
}
