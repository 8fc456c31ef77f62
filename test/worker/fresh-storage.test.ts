import { applyD1Migrations, reset } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { freshStorage, leftAfterReset, migratedDatabases } from './fresh-storage';
import { wakeIdleObjects } from './written-shards';

/**
 * Files of the worker project share a workerd (isolate: false); what keeps them apart is
 * freshStorage, run before each file. Here it runs after this file has written to every kind of
 * binding, and nothing written may survive it.
 */

const portalUsers = () =>
  env.PORTAL_DB.prepare('SELECT count(*) AS n FROM users').first<{ n: number }>('n');
const deliveries = () =>
  env.EVENTS_DB.prepare('SELECT count(*) AS n FROM deliveries').first<{ n: number }>('n');

describe('fresh storage before each worker test file', () => {
  it('leaves no KV key, no D1 row and no rate counter of what came before, and keeps the schemas', async () => {
    await env.FUNNEL_CONFIG.put('split', '{"version":"left over"}');
    await env.PORTAL_DB.prepare(
      `INSERT INTO users (id, email, email_key, name, user_uuid, landing_type,
         registration_source, created_at)
       VALUES ('u-1', 'a@example.com', 'a@example.com', 'A', 'uuid-1', 'one_pager', 'email', '')`,
    ).run();
    await env.EVENTS_DB.prepare(
      "INSERT INTO deliveries (insert_id, destination, outcome, at) VALUES ('e-1', 'local', 'delivered', 1)",
    ).run();
    const limiter = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName('ip:192.0.2.1'));
    await limiter.hit({ limit: 1, windowMs: 60_000 });
    expect(await limiter.hit({ limit: 1, windowMs: 60_000 })).toMatchObject({ allowed: false });
    expect([await portalUsers(), await deliveries()]).toEqual([1, 1]);

    await freshStorage();

    expect(await env.FUNNEL_CONFIG.list()).toMatchObject({ keys: [] });
    // The tables are there again, and empty.
    expect([await portalUsers(), await deliveries()]).toEqual([0, 0]);
    // The address that was at its limit starts counting again.
    const again = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName('ip:192.0.2.1'));
    expect(await again.hit({ limit: 1, windowMs: 60_000 })).toMatchObject({ allowed: true });
  });

  it('names what a reset left behind, and nothing once it emptied everything', async () => {
    await freshStorage();
    await env.FUNNEL_CONFIG.put('experiments', '{}');
    const left = await leftAfterReset();
    expect(left).toContain('KV key "experiments"');
    // Each migrated database's tables: the portal's, the events', the config history's.
    expect(left.filter((thing) => thing.startsWith('table ')).length).toBeGreaterThanOrEqual(3);
    await reset();
    expect(await leftAfterReset()).toEqual([]);
  });

  it('wakes the objects asked for and idle since, so reset() finds them running', async () => {
    await freshStorage();
    const limiter = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName('ip:192.0.2.9'));
    await limiter.hit({ limit: 1, windowMs: 60_000 });
    // Just asked for: running, nothing to wake.
    expect(await wakeIdleObjects(Date.now())).toBe(0);
    // A minute later, as workerd may have ended it by then.
    expect(await wakeIdleObjects(Date.now() + 60_000)).toBe(1);
    await freshStorage();
    expect(await wakeIdleObjects(Date.now() + 60_000)).toBe(0);
  });

  it('migrates each database to what the pool’s applyD1Migrations makes of an empty one', async () => {
    /** Every table, index and trigger with its SQL, and the migrations recorded as run. */
    const schemas = () =>
      Promise.all(
        migratedDatabases().map(async ([db]) => ({
          // d1_migrations' CREATE is laid out differently (tabs, spaces): its columns are the same.
          objects: (
            await db
              .prepare('SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name')
              .all<{ sql: string | null }>()
          ).results.map((object) => ({ ...object, sql: object.sql?.replace(/\s+/g, ' ') })),
          migrations: (await db.prepare('SELECT id, name FROM d1_migrations ORDER BY id').all())
            .results,
        })),
      );
    await freshStorage();
    const ours = await schemas();
    await reset();
    for (const [db, migrations] of migratedDatabases()) await applyD1Migrations(db, migrations);
    const pools = await schemas();

    expect(ours).toEqual(pools);
    // Not two empty databases: every migration ran and is recorded, in order.
    for (const [index, [, migrations]] of migratedDatabases().entries()) {
      expect(ours[index]?.migrations.map((row) => row.name)).toEqual(
        migrations.map((migration) => migration.name),
      );
    }
  });
});
