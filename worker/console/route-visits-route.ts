import { Hono } from 'hono';
import { describeError, logError } from '../../shared/log';
import { readRouteVisits } from '../experiments/exposure/route-visits';
import { experimentStores } from '../experiments/store/experiment-stores';
import { consoleError } from '../http/console-errors';
import type { ConsoleEnv } from '../request/envs';

/**
 * GET /console/api/route-visits (CONSOLE_API.routeVisits), mounted in the console's app behind
 * its Access check and its `Cache-Control: no-store`: the first visits each route took over the
 * last 7 UTC days, today included (RouteVisitsAnswer).
 */
export function routeVisitsRoutes(options: { now: () => number }) {
  const routes = new Hono<ConsoleEnv>();

  // As the results: a failed store is the contract's 503 config_store_failed, and the log line
  // says which read failed.
  routes.onError((error, c) => {
    logError('route_visits_failed', { path: c.req.path, detail: describeError(error) });
    return consoleError(c, 503, 'config_store_failed');
  });

  routes.get('/', async (c) =>
    c.json(await readRouteVisits(experimentStores(c.env), options.now())),
  );

  return routes;
}
