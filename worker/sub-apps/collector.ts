import { Hono } from 'hono';
import { type CollectorOptions, collectorRoutes } from '../collector/collect-route';
import { country } from '../middleware/country';
import type { CollectorEnv } from '../request/envs';
import { endOfSubApp } from './end-of-sub-app';

/**
 * The analytics collector `/e`. It reads the visitor's uuid cookie and makes none: a fresh uuid
 * cookie on a beacon's answer would only give a cookieless visitor a second identity (a batch
 * without the cookie is stored under a device id derived from its events, event-identity.ts).
 * None of the page middleware (language, copy, funnel config, experiments) either.
 */
export function collectorApp(options: CollectorOptions): Hono<CollectorEnv> {
  const app = new Hono<CollectorEnv>();
  app.use(country());
  app.route('/', collectorRoutes(options));
  app.all('*', endOfSubApp);
  return app;
}
