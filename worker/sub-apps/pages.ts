import { Hono } from 'hono';
import type { ScreenDefinition } from '../../screens/registry';
import type { DrawnScreen } from '../../shared/screens';
import type { ApiDependencies } from '../api/call-handler';
import { SUPPORTED_LANGUAGES } from '../i18n';
import { attribution } from '../middleware/attribution';
import { country } from '../middleware/country';
import { experiments } from '../middleware/experiments';
import { exposure } from '../middleware/exposure';
import { firstTouch } from '../middleware/first-touch';
import { funnelConfig } from '../middleware/funnel-config';
import { inAppBrowser } from '../middleware/in-app';
import { locale, translations } from '../middleware/language';
import { previewCookie } from '../middleware/preview-cookie';
import { route } from '../middleware/route';
import { visitor } from '../middleware/visitor';
import type { RenderedScreens } from '../render/rendered-screens';
import type { AppEnv } from '../request/envs';
import { screenRoutes } from '../routes/screens';
import type { MiddlewareDeps } from './middleware-deps';

/**
 * The funnel's pages, and the 404 page of any path no other sub-app claims. What the routes read
 * (the in-app browser, the visit's first touch) before the route, which the experiments need;
 * the ad cookies after the experiments, which tell a marketer's preview apart (it gets none);
 * the exposure once the answer is ready.
 */
export function pagesApp(
  deps: MiddlewareDeps,
  options: {
    api: ApiDependencies;
    screens?: Record<DrawnScreen, ScreenDefinition>;
    renderedScreens?: RenderedScreens | null;
  },
): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use(visitor());
  app.use(previewCookie(deps.access));
  app.use(country());
  app.use(locale({ supported: SUPPORTED_LANGUAGES }));
  app.use(translations(deps.translationSource));
  app.use(funnelConfig(deps.configSource));
  app.use(inAppBrowser());
  app.use(firstTouch({ now: deps.now }));
  app.use(route({ now: deps.now }));
  app.use(experiments({ random: deps.random, now: deps.now }));
  app.use(attribution());
  app.use(exposure({ now: deps.now }));
  app.route('/', screenRoutes(options.api, options.screens, options.renderedScreens));
  return app;
}
