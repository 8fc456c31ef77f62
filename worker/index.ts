import { createApp } from './app';
import { createQueueHandler } from './collector/consumer/queue-handler';
import type { Bindings } from './env';
import { scheduled } from './scheduled';

export { ExperimentShard } from './experiments/store/experiment-shard';
export { SubscriptionLedger } from './lifecycle/ledger';
export { ProviderHealth } from './provider-health/provider-health';
export { PurchaseAttempts } from './purchase-ledger/purchase-attempts';
export { RateLimiter } from './rate-limits/rate-limiter';
export { CardAttempts } from './retry-governor/card-attempts';

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
  // The crons (wrangler.toml [triggers]): retention, hourly, and the experiments' alerts.
  scheduled,
} satisfies ExportedHandler<Bindings>;
