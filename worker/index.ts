import { createApp } from './app';
import { createQueueHandler } from './collector/consumer/queue-handler';
import type { Bindings } from './env';
import { scheduled } from './scheduled';

export * from './durable-objects';

/**
 * The production entry, wrangler.toml's top-level `main`: the app without the development kit or
 * the simulator, so neither the embedded portal (portal/), the test gateway nor a way to write
 * made-up results is in what `wrangler deploy` ships (test/unit/production-bundle.test.ts
 * checks the bundle). The development entry is worker/dev.ts, staging's worker/staging.ts.
 */
const app = createApp();

export default {
  fetch: app.fetch,
  // The collector's queue and its dead letter queue (wrangler.toml [[queues.consumers]]).
  queue: createQueueHandler(),
  // The crons (wrangler.toml [triggers]): retention, hourly, and the experiments' alerts.
  scheduled,
} satisfies ExportedHandler<Bindings>;
