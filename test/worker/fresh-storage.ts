import { applyD1Migrations, reset } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { forgetWrittenShards, watchExperimentShards } from './written-shards';

/**
 * The storage a workerd of its own would give a test file: every binding emptied (KV, the D1
 * databases, the RateLimiter's Durable Objects), then the embedded portal's schema
 * (portal/migrations), the events database's (worker/events-db/migrations) and the config history's
 * (worker/config/migrations) applied, as `npm start` applies them locally.
 */
export async function freshStorage(): Promise<void> {
  watchExperimentShards();
  await reset();
  forgetWrittenShards();
  await applyD1Migrations(env.PORTAL_DB, env.TEST_MIGRATIONS);
  await applyD1Migrations(env.EVENTS_DB, env.EVENTS_MIGRATIONS);
  await applyD1Migrations(env.CONFIG_DB, env.CONFIG_MIGRATIONS);
}
