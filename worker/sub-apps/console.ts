import { Hono } from 'hono';
import type { AccessKeys } from '../console/access';
import type { RenderApp } from '../console/content-route';
import { consoleRoutes } from '../console/routes';
import type { ConsoleEnv } from '../middleware/envs';
import { funnelConfig } from '../middleware/funnel-config';
import { endOfSubApp } from './end-of-sub-app';
import type { MiddlewareDeps } from './middleware-deps';

/**
 * The marketers' console: the live funnel config it edits, and nothing a visitor's request
 * learns. A marketer at the console is no visitor: no visitor id, country, language or copy of
 * their own, and no experiments. The console is in English, and what it previews it draws by
 * handing the app a request of its own (console/content-route.ts), which runs the pages'
 * middleware.
 */
export function consoleApp(
  deps: MiddlewareDeps,
  options: { accessKeys?: AccessKeys; render?: RenderApp },
): Hono<ConsoleEnv> {
  const app = new Hono<ConsoleEnv>();
  app.use(funnelConfig(deps.configSource));
  app.route('/', consoleRoutes({ ...options, now: deps.now }));
  app.all('*', endOfSubApp);
  return app;
}
