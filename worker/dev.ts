import { createApp } from './app';
import { createQueueHandler } from './collector/consumer/queue-handler';
import { runRetention } from './collector/retention';
import { developmentKit } from './dev/kit';
import type { Bindings } from './env';

export { RateLimiter } from './api/rate-limiter';
export { ExperimentShard } from './experiments/experiment-shard';
export { SubscriptionLedger } from './lifecycle/ledger';

/**
 * The development entry (wrangler.toml [env.development], `npm start`, the workerd and browser
 * tests): the production app plus the development kit (worker/dev/kit.ts), whose parts still
 * answer only when ENVIRONMENT is exactly 'development'. Never deployed: production builds
 * worker/index.ts, which imports none of this.
 */
const app = createApp({ devKit: developmentKit });

export default {
  fetch: app.fetch,
  queue: createQueueHandler(),
  // The hourly cron (wrangler.toml [triggers]): EVENTS_DB rows past their retention.
  scheduled: (controller, env, ctx) =>
    ctx.waitUntil(runRetention(env.EVENTS_DB, controller.scheduledTime)),
} satisfies ExportedHandler<Bindings>;
