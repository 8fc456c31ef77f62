import type { Bindings } from '../../worker/env';

/**
 * env's Durable Object namespaces, as wrangler.toml's development environment binds them: the
 * objects the worker files' fresh storage wakes before a reset (./written-shards.ts).
 * test/unit/object-bindings.test.ts holds the list to wrangler.toml, so a new binding is not missed.
 */
export const OBJECT_BINDINGS = [
  'RATE_LIMITER',
  'EXPERIMENT_SHARDS',
  'CARD_ATTEMPTS',
  'PURCHASE_ATTEMPTS',
  'PROVIDER_HEALTH',
  'SUBSCRIPTION_LEDGER',
] as const satisfies readonly (keyof Bindings)[];
