import { Hono } from 'hono';
import { type ContractRouteOptions, contractRoutes } from '../contract-page/contract-route';
import { SUPPORTED_LANGUAGES } from '../i18n';
import { country } from '../middleware/country';
import { funnelConfig } from '../middleware/funnel-config';
import { locale, translations } from '../middleware/language';
import type { SubscriberEnv } from '../request/envs';
import { endOfSubApp } from './end-of-sub-app';
import type { MiddlewareDeps } from './middleware-deps';

/**
 * The contract page (worker/contract-page/): the page's language (the browser's), brand (the
 * `?theme=` of the footer's link) and content, and nothing of a visit, as the subscriber's page:
 * no visitor cookie is read or set and no experiment is drawn, so anyone, logged in or not, from
 * any page or none, declares the same way.
 */
export function contractApp(
  deps: MiddlewareDeps,
  options: ContractRouteOptions,
): Hono<SubscriberEnv> {
  const app = new Hono<SubscriberEnv>();
  app.use(country());
  app.use(locale({ supported: SUPPORTED_LANGUAGES }));
  app.use(translations(deps.translationSource));
  app.use(funnelConfig(deps.configSource));
  app.route('/', contractRoutes({ ...options, now: options.now ?? deps.now }));
  app.all('*', endOfSubApp);
  return app;
}
