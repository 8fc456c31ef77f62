import { Hono } from 'hono';
import { type LifecycleOptions, lifecycleRoutes } from '../lifecycle/route';
import type { LifecycleEnv } from '../request/envs';
import { endOfSubApp } from './end-of-sub-app';

/**
 * The product API's signed lifecycle events (worker/lifecycle/): a server's call, not a visit,
 * so no middleware beyond the global ones (no uuid cookie, no country, no config).
 */
export function lifecycleApp(options: LifecycleOptions): Hono<LifecycleEnv> {
  const app = new Hono<LifecycleEnv>();
  app.route('/', lifecycleRoutes(options));
  app.all('*', endOfSubApp);
  return app;
}
