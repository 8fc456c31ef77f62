import { Hono } from 'hono';
import { country } from '../middleware/country';
import { visitor } from '../middleware/visitor';
import type { VendorEnv } from '../request/envs';
import { endOfSubApp } from './end-of-sub-app';

/**
 * Answers beside the pages that know the visitor but show nothing: the AppsFlyer smart script
 * (`/vendor`) and the consent banner's no-script answer (`/consent`).
 */
export function vendorApp(routes: Hono<VendorEnv>): Hono<VendorEnv> {
  const app = new Hono<VendorEnv>();
  app.use(visitor());
  app.use(country());
  app.route('/', routes);
  app.all('*', endOfSubApp);
  return app;
}
