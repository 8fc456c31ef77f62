import { type D1Migration, reset } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { applyPending } from '../../scripts/pending-migrations';
import { forgetWrittenShards, watchExperimentShards } from './written-shards';

/**
 * Applies `migrations` not yet recorded in the database, every pending one in a single batch
 * (scripts/pending-migrations.ts, as for the browser tests' built worker): one round trip to the
 * database instead of one a migration, as the pool's applyD1Migrations takes. A file's fresh
 * storage runs 36 migrations, which took 0.6-1.1 s one batch each on a loaded machine and
 * 0.2-0.5 s in one batch each database (fresh-storage.test.ts holds the two equal).
 */
export const migrate: (db: D1Database, migrations: D1Migration[]) => Promise<void> = applyPending;

/** The databases the worker tests migrate, each with its migrations (vitest.config.ts). */
export function migratedDatabases(): [D1Database, D1Migration[]][] {
  return [
    [env.PORTAL_DB, env.TEST_MIGRATIONS],
    [env.EVENTS_DB, env.EVENTS_MIGRATIONS],
    [env.CONFIG_DB, env.CONFIG_MIGRATIONS],
  ];
}

/**
 * The storage a workerd of its own would give a test file: every binding emptied (KV, the D1
 * databases, the RateLimiter's Durable Objects), then the embedded portal's schema
 * (portal/migrations), the events database's (worker/events-db/migrations) and the config history's
 * (worker/config/migrations) applied, as `npm start` applies them locally.
 */
export async function freshStorage(): Promise<void> {
  watchExperimentShards();
  await reset();
  // A key here is one reset() kept, or a write an earlier file did not wait for (./late-writes.ts).
  const [kept] = (await env.FUNNEL_CONFIG.list({ limit: 1 })).keys;
  if (kept) throw new Error(`KV still holds "${kept.name}" after reset(): storage not emptied`);
  forgetWrittenShards();
  await Promise.all(migratedDatabases().map(([db, migrations]) => migrate(db, migrations)));
}
