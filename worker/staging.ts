import { createApp } from './app';
import { createQueueHandler } from './collector/consumer/queue-handler';
import type { Bindings } from './env';
import { scheduled } from './scheduled';
import { simulator } from './simulation/simulator';

export * from './durable-objects';

/**
 * The staging entry, wrangler.toml [env.staging]'s `main`: production's app (worker/index.ts)
 * and, so a marketer can rehearse a guarded ramp's rollback there from the console alone, the
 * simulator behind the console's Send test traffic (worker/simulation/simulator.ts), which
 * answers where the guardrails are rehearsed (ENVIRONMENT "staging" or "development") and never
 * empties a phase. Nothing of the development kit: no embedded portal, no test gateway.
 */
const app = createApp({ simulator: simulator() });

export default {
  fetch: app.fetch,
  queue: createQueueHandler(),
  scheduled,
} satisfies ExportedHandler<Bindings>;
