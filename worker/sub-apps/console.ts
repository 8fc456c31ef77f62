import { Hono } from 'hono';
import { type ConsoleOptions, consoleRoutes } from '../console/routes';
import { consoleAccess } from '../middleware/console-access';
import { funnelConfig } from '../middleware/funnel-config';
import type { ConsoleEnv } from '../request/envs';
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
  options: Pick<ConsoleOptions, 'render' | 'simulator'>,
): Hono<ConsoleEnv> {
  const app = new Hono<ConsoleEnv>();
  // Every console request, before its handler: who passes is the console's author.
  app.use(consoleAccess(deps.access));
  // The live config only where a handler reads it (console/routes.ts): a publish, a rollback or
  // the history reads the versions' store itself, and a refused request reads nothing.
  const liveConfig = funnelConfig(deps.configSource);
  app.route('/', consoleRoutes({ ...options, now: deps.now, liveConfig }));
  app.all('*', endOfSubApp);
  return app;
}
