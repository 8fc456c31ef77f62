import { Hono } from 'hono';
import { SUPPORTED_LANGUAGES } from '../i18n';
import { country } from '../middleware/country';
import { exposure } from '../middleware/exposure';
import { funnelConfig } from '../middleware/funnel-config';
import { locale, translations } from '../middleware/language';
import type { PortalFetch } from '../portal-client/portal-call';
import type { ResumeEnv } from '../request/envs';
import { resumeRoutes } from '../resume/resume-route';
import { endOfSubApp } from './end-of-sub-app';
import type { MiddlewareDeps } from './middleware-deps';

/**
 * The resume links (worker/resume/) set the visitor's uuid, variant and ad cookies from what they
 * carry: the middleware that would make fresh ones first (visitor, route, experiments,
 * attribution) is not here, so nothing is drawn or exposed there and each cookie is set once.
 */
export function resumeApp(
  deps: MiddlewareDeps,
  options: { portalFetch?: PortalFetch },
): Hono<ResumeEnv> {
  const app = new Hono<ResumeEnv>();
  app.use(country());
  app.use(locale({ supported: SUPPORTED_LANGUAGES }));
  app.use(translations(deps.translationSource));
  app.use(funnelConfig(deps.configSource));
  app.use(exposure({ now: deps.now }));
  app.route('/', resumeRoutes({ now: deps.now, portalFetch: options.portalFetch }));
  app.all('*', endOfSubApp);
  return app;
}
