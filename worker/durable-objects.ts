/**
 * The Durable Object classes wrangler.toml binds, as the deployed entries (worker/index.ts,
 * worker/staging.ts) export them. The development entry (worker/dev.ts) exports its own
 * experiment shard, which can empty a phase, beside the others.
 */
export { ExperimentShard } from './experiments/store/experiment-shard';
export { SubscriptionLedger } from './lifecycle/ledger';
export { ProviderHealth } from './provider-health/provider-health';
export { PurchaseAttempts } from './purchase-ledger/charge-guard';
export { RateLimiter } from './rate-limits/rate-limiter';
export { CardAttempts } from './retry-governor/card-attempts';
