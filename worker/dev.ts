import { createApp } from './app';
import { createQueueHandler } from './collector/consumer/queue-handler';
import { developmentPortal } from './dev/embedded-portal';
import { isFreshAppRequest } from './dev/fresh-app-route';
import { developmentKit } from './dev/kit';
import { redriveRoute } from './dev/redrive-route';
import { developmentSimulator, simulateRoute } from './dev/simulate-route';
import type { Bindings } from './env';
import { forgetLegacyCheck } from './experiments/store/experiment-stores';
import { forgetProviderHealth } from './provider-health/provider-health';
import { scheduledHandler } from './scheduled';

// The shard with its development-only method (the simulation's reset), under the class name
// wrangler.toml binds.
export { DevelopmentExperimentShard as ExperimentShard } from './dev/experiment-shard';
export { SubscriptionLedger } from './lifecycle/ledger';
export { ProviderHealth } from './provider-health/provider-health';
export { PurchaseAttempts } from './purchase-ledger/charge-guard';
export { RateLimiter } from './rate-limits/rate-limiter';
export { CardAttempts } from './retry-governor/card-attempts';

/**
 * The development entry (wrangler.toml [env.development], `npm start`, the workerd and browser
 * tests): the production app plus the development kit (worker/dev/kit.ts), whose parts still
 * answer only when ENVIRONMENT is exactly 'development', and the simulator that can empty a phase
 * (worker/dev/simulate-route.ts). Never deployed: production builds
 * worker/index.ts, which imports none of this.
 */
const appOptions = { devKit: developmentKit, simulator: developmentSimulator };
let app = createApp(appOptions);

export default {
  // The development routes first (worker/dev/redrive-route.ts, simulate-route.ts,
  // fresh-app-route.ts), then the app.
  fetch: async (request, env, ctx) => {
    if (isFreshAppRequest(request, env)) {
      // With the app, what the isolate keeps outside it: the providers' health it last read
      // (an outage an earlier file caused) and whether EVENTS_DB holds visitors of old.
      app = createApp(appOptions);
      forgetProviderHealth();
      forgetLegacyCheck();
      return new Response(null, { status: 204 });
    }
    return (
      (await redriveRoute(request, env)) ??
      (await simulateRoute(request, env)) ??
      app.fetch(request, env, ctx)
    );
  },
  queue: createQueueHandler(),
  // The crons (wrangler.toml [triggers]): retention, hourly, and the experiments' alerts and the
  // renewal reminders, asked of the embedded portal where no PORTAL_URL is set.
  scheduled: scheduledHandler({ portalFetch: developmentPortal }),
} satisfies ExportedHandler<Bindings>;
