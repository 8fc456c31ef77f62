import { createApp } from './app';
import { createQueueHandler } from './collector/consumer/queue-handler';
import { runRetention } from './collector/retention';
import type { Bindings } from './env';

export { RateLimiter } from './api/rate-limiter';
export { ExperimentShard } from './experiments/experiment-shard';
export { SubscriptionLedger } from './lifecycle/ledger';

/**
 * The production entry, wrangler.toml's top-level `main` (and [env.staging]'s): the app without
 * the development kit, so neither the embedded portal (portal/) nor the test gateway is in what
 * `wrangler deploy` ships (test/unit/production-bundle.test.ts checks the bundle).
 * The development entry is worker/dev.ts.
 */
const app = createApp();

export default {
  fetch: app.fetch,
  // The collector's queue and its dead letter queue (wrangler.toml [[queues.consumers]]).
  queue: createQueueHandler(),
  // The hourly cron (wrangler.toml [triggers]): EVENTS_DB rows past their retention.
  scheduled: (controller, env, ctx) =>
    ctx.waitUntil(runRetention(env.EVENTS_DB, controller.scheduledTime)),
} satisfies ExportedHandler<Bindings>;
