import { Hono } from 'hono';
import { SUPPORTED_LANGUAGES } from '../i18n';
import { country } from '../middleware/country';
import { experiments } from '../middleware/experiments';
import { exposure } from '../middleware/exposure';
import { funnelConfig } from '../middleware/funnel-config';
import { locale, translations } from '../middleware/language';
import { previewCookie } from '../middleware/preview-cookie';
import { route } from '../middleware/route';
import { visitor } from '../middleware/visitor';
import type { OtherPagesEnv } from '../request/envs';
import { endOfSubApp } from './end-of-sub-app';
import type { MiddlewareDeps } from './middleware-deps';

/**
 * Pages outside the funnel's screens (the app login link `/app`, the development test gateway):
 * the page's language, copy and assignments, but no visit of its own (in-app browser, first
 * touch, ad cookies).
 */
export function otherPagesApp(
  deps: MiddlewareDeps,
  routes: Hono<OtherPagesEnv>,
): Hono<OtherPagesEnv> {
  const app = new Hono<OtherPagesEnv>();
  app.use(visitor());
  app.use(previewCookie(deps.access));
  app.use(country());
  app.use(locale({ supported: SUPPORTED_LANGUAGES }));
  app.use(translations(deps.translationSource));
  app.use(funnelConfig(deps.configSource));
  app.use(route({ now: deps.now }));
  app.use(experiments({ random: deps.random, now: deps.now }));
  app.use(exposure({ now: deps.now }));
  app.route('/', routes);
  app.all('*', endOfSubApp);
  return app;
}
