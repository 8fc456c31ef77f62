import { Hono } from 'hono';
import type { AccessKeys } from '../console/access';
import type { RenderApp } from '../console/content-route';
import { consoleRoutes } from '../console/routes';
import { SUPPORTED_LANGUAGES } from '../i18n';
import { country } from '../middleware/country';
import type { ConsoleEnv } from '../middleware/envs';
import { funnelConfig } from '../middleware/funnel-config';
import { locale } from '../middleware/locale';
import { translations } from '../middleware/translations';
import { visitor } from '../middleware/visitor';
import { endOfSubApp } from './end-of-sub-app';
import type { MiddlewareDeps } from './middleware-deps';

/**
 * The marketers' console: the language, copy and funnel config it edits and previews, and no
 * experiments (a marketer at the console is no visitor and is assigned nothing).
 */
export function consoleApp(
  deps: MiddlewareDeps,
  options: { accessKeys?: AccessKeys; render?: RenderApp },
): Hono<ConsoleEnv> {
  const app = new Hono<ConsoleEnv>();
  app.use(visitor());
  app.use(country());
  app.use(locale({ supported: SUPPORTED_LANGUAGES }));
  app.use(translations(deps.translationSource));
  app.use(funnelConfig(deps.configSource));
  app.route('/', consoleRoutes({ ...options, now: deps.now }));
  app.all('*', endOfSubApp);
  return app;
}
