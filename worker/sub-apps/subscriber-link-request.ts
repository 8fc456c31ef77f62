import { Hono } from 'hono';
import type { LifecycleEnv } from '../request/envs';
import { subscriberLinkRequestRoutes } from '../subscriber-links/link-request-route';
import { endOfSubApp } from './end-of-sub-app';

/**
 * The product API's signed request for a manage link (worker/subscriber-links/
 * link-request-route.ts): a server's call, like the lifecycle hook, so no middleware beyond the
 * global ones.
 */
export function subscriberLinkRequestApp(options: { now?: () => number }): Hono<LifecycleEnv> {
  const app = new Hono<LifecycleEnv>();
  app.route('/', subscriberLinkRequestRoutes(options));
  app.all('*', endOfSubApp);
  return app;
}
