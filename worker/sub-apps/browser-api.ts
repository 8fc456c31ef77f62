import { Hono } from 'hono';
import type { ApiDependencies } from '../api/call-handler';
import { apiRoutes } from '../api/routes';
import { sameOrigin } from '../api/same-origin';
import { browserVisit } from '../middleware/browser-visit';
import type { ApiEnv } from '../request/envs';
import type { MiddlewareDeps } from './middleware-deps';

/**
 * The browser's API `/api/*` (worker/api/): the visitor's route and experiments, which its calls'
 * prices follow, but no language or copy (it answers codes the islands translate)
 * and no visit of its own (first touch, ad cookies). No exposure either: a call is no funnel
 * screen a visitor was shown (worker/experiments/exposure/exposure-rules.ts exposureVerdict), and
 * its route is read from `gf_route`, never chosen, so it counts no first visit. Its routes end
 * with their own 404.
 *
 * A mutating call from elsewhere (worker/request/same-origin.ts) is refused first, before
 * anything is read or kept for it: no visitor id minted, no config read, no route or arm drawn
 * and written to a cookie. A forged POST to any path here gets the same 403.
 */
export function browserApiApp(deps: MiddlewareDeps, api: ApiDependencies): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  app.use(browserVisit(deps, sameOrigin()));
  app.route('/', apiRoutes(api));
  return app;
}
