import { Hono } from 'hono';
import { SUPPORTED_LANGUAGES } from '../i18n';
import { country } from '../middleware/country';
import { funnelConfig } from '../middleware/funnel-config';
import { locale, translations } from '../middleware/language';
import type { SubscriberEnv } from '../request/envs';
import { lookInPath } from '../subscriber-links/link-token';
import {
  type SubscriberRouteOptions,
  subscriberRoutes,
} from '../subscriber-links/subscriber-route';
import { endOfSubApp } from './end-of-sub-app';
import type { MiddlewareDeps } from './middleware-deps';

/**
 * The subscriber's page (worker/subscriber-links/): the page's language, brand and content (the
 * purchase's, where its link carries them), and nothing of a visit: no visitor cookie is read or
 * set, no experiment is drawn or exposed, so an email opened in any browser shows the same page
 * and counts as no one's visit.
 */
export function subscriberApp(
  deps: MiddlewareDeps,
  options: SubscriberRouteOptions,
): Hono<SubscriberEnv> {
  const app = new Hono<SubscriberEnv>();
  app.use(country());
  // The link's purchase look (worker/subscriber-links/link-token.ts) over the browser's.
  app.use(locale({ supported: SUPPORTED_LANGUAGES, chosen: lookInPath }));
  app.use(translations(deps.translationSource));
  app.use(funnelConfig(deps.configSource));
  app.route('/', subscriberRoutes({ ...options, now: options.now ?? deps.now }));
  app.all('*', endOfSubApp);
  return app;
}
