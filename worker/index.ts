import { createApp } from './app';
import { createQueueHandler } from './collector/consumer/queue-handler';
import type { Bindings } from './env';

export { RateLimiter } from './api/rate-limiter';

const app = createApp();

export default {
  fetch: app.fetch,
  // The collector's queue and its dead letter queue (wrangler.toml [[queues.consumers]]).
  queue: createQueueHandler(),
} satisfies ExportedHandler<Bindings>;
