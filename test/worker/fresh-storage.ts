import { type D1Migration, reset } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { applyPending } from '../../scripts/pending-migrations';
import { forgetAskedObjects, wakeIdleObjects, watchDurableObjects } from './written-shards';

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
  watchDurableObjects();
  await emptiedStorage();
  forgetAskedObjects();
  await Promise.all(migratedDatabases().map(([db, migrations]) => migrate(db, migrations)));
}

/** How many times reset() is asked to empty the storage before a file gives up on it. */
const RESETS = 3;

/** The tables D1 and SQLite keep for themselves in an empty database. */
const OWN_TABLES = "substr(name, 1, 7) != 'sqlite_' AND substr(name, 1, 4) != '_cf_'";

/** What reset() left behind: KV's keys and the databases' tables, each named. */
export async function leftAfterReset(): Promise<string[]> {
  const [kv, ...databases] = await Promise.all([
    env.FUNNEL_CONFIG.list({ limit: 3 }),
    ...migratedDatabases().map(([db]) =>
      db
        .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND ${OWN_TABLES} LIMIT 3`)
        .all<{ name: string }>(),
    ),
  ]);
  return [
    ...kv.keys.map(({ name }) => `KV key "${name}"`),
    ...databases.flatMap(({ results }) => results.map(({ name }) => `table ${name}`)),
  ];
}

/**
 * reset(), until nothing is left. One reset() does not always empty everything: in a run of the
 * worker project (2026-12-04), 13 of 205 files found an earlier file's tables still in a
 * database after it, and one an earlier file's split and experiments still in KV; the pending
 * migrations then found nothing to do, and the file ran on another's rows and config (full runs
 * had failed now and then on exactly that: exposures.test.ts drawing an experiment it never
 * published, pay-due.test.ts's purchase refused `plan_not_offered`). A second reset() emptied
 * each; a file whose storage stays full fails before its first test.
 */
async function emptiedStorage(): Promise<void> {
  await wakeIdleObjects();
  for (let attempt = 1; ; attempt++) {
    await reset();
    const left = await leftAfterReset();
    if (left.length === 0) return;
    if (attempt === RESETS) {
      throw new Error(`${left.join(', ')} still there after ${RESETS} resets: storage not emptied`);
    }
  }
}
