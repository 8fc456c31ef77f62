import {
  createExecutionContext,
  createScheduledController,
  waitOnExecutionContext,
} from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { SEEN_RETENTION_MS } from '../../../worker/collector/intake-rules';
import { pruneEventsDb } from '../../../worker/collector/retention';
import developmentWorker from '../../../worker/dev';
import { VISITOR_ROWS_KEPT_MS } from '../../../worker/experiments/assignment/assign';
import { countRows, freshEventsDbPerTest, NOW } from './fixtures';

const logs = freshEventsDbPerTest();
const DAY_MS = 24 * 60 * 60 * 1000;

async function seed(deliveriesAt: number[], purchasesAt: number[], deadLettersAt: number[]) {
  const db = env.EVENTS_DB;
  await db.batch([
    ...deliveriesAt.map((at, index) =>
      db
        .prepare("INSERT INTO deliveries VALUES (?1, 'amplitude', 'delivered', ?2)")
        .bind(`ins-${index}`, at),
    ),
    ...purchasesAt.map((at, index) =>
      db
        .prepare(
          'INSERT INTO verified_purchases (subscription_id, insert_id, recorded_at) VALUES (?1, ?2, ?3)',
        )
        .bind(`sub_${index}`, `srv_${index}`, at),
    ),
    ...deadLettersAt.map((at) =>
      db
        .prepare("INSERT INTO dead_letters (insert_id, body, failed_at) VALUES (NULL, '{}', ?1)")
        .bind(at),
    ),
  ]);
}

describe('EVENTS_DB retention', () => {
  it('the hourly cron deletes what is past its retention and keeps the rest', async () => {
    const old = NOW - SEEN_RETENTION_MS - 1;
    const young = NOW - SEEN_RETENTION_MS + 60_000;
    await seed([old, young], [NOW - 46 * DAY_MS, NOW - 44 * DAY_MS], [NOW - 31 * DAY_MS, NOW]);

    const ctx = createExecutionContext();
    const controller = createScheduledController({ scheduledTime: NOW, cron: '17 * * * *' });
    await developmentWorker.scheduled(controller, env, ctx);
    await waitOnExecutionContext(ctx);

    const left = (table: string, column: string) =>
      env.EVENTS_DB.prepare(`SELECT ${column} AS at FROM ${table} ORDER BY 1`).all();
    expect((await left('deliveries', 'at')).results).toEqual([{ at: young }]);
    expect((await left('verified_purchases', 'recorded_at')).results).toEqual([
      { at: NOW - 44 * DAY_MS },
    ]);
    expect((await left('dead_letters', 'failed_at')).results).toEqual([{ at: NOW }]);
    expect(logs.lines()).toContainEqual(
      expect.objectContaining({
        task: 'retention',
        deleted_deliveries: 1,
        deleted_verified_purchases: 1,
        deleted_dead_letters: 1,
      }),
    );
  });

  it('deletes visitor rows written before the experiment shards after 13 months, keeping the totals', async () => {
    const db = env.EVENTS_DB;
    const old = NOW - VISITOR_ROWS_KEPT_MS - 1;
    await db.batch([
      db
        .prepare(
          `INSERT INTO exposures (visitor_id, phase, variant, config_version, exposed_at)
           VALUES ('old-visitor', 1, 'lp17', 'v1+v1', ?1), ('young-visitor', 1, 'lp17', 'v1+v1', ?2)`,
        )
        .bind(old, NOW),
      db
        .prepare(
          `INSERT INTO experiment_purchases
             (subscription_id, visitor_id, phase, variant, amount_minor, currency, recorded_at)
           VALUES ('sub_old', 'old-visitor', 1, 'lp17', 699, 'USD', ?1)`,
        )
        .bind(old),
    ]);
    const arms = () =>
      db
        .prepare('SELECT exposed, purchases FROM experiment_arms')
        .all()
        .then((r) => r.results);
    const before = await arms();
    expect(before).toEqual([{ exposed: 2, purchases: 1 }]);
    await pruneEventsDb(db, NOW);
    expect(await countRows('exposures')).toBe(1);
    expect(await countRows('experiment_purchases')).toBe(0);
    expect(await arms()).toEqual(before);
  });

  it('deletes in bounded statements until nothing old is left', async () => {
    const old = NOW - SEEN_RETENTION_MS - 1;
    // Over one statement's 1,000 rows.
    const many = Array.from({ length: 2_345 }, () => old);
    for (let start = 0; start < many.length; start += 500) {
      await env.EVENTS_DB.prepare(
        `INSERT INTO deliveries (insert_id, destination, outcome, at)
         SELECT 'ins-' || value, 'amplitude', 'delivered', ?1 FROM json_each(?2)`,
      )
        .bind(old, JSON.stringify(many.slice(start, start + 500).map((_, i) => start + i)))
        .run();
    }
    expect(await countRows('deliveries')).toBe(2_345);
    expect(await pruneEventsDb(env.EVENTS_DB, NOW)).toMatchObject({ deliveries: 2_345 });
    expect(await countRows('deliveries')).toBe(0);
  });

  it('a failing database is logged, never thrown at the scheduler', async () => {
    const brokenDb = {
      prepare() {
        throw new Error('D1_ERROR: database unavailable');
      },
    } as unknown as D1Database;
    const ctx = createExecutionContext();
    const controller = createScheduledController({ scheduledTime: NOW, cron: '17 * * * *' });
    await developmentWorker.scheduled(controller, { ...env, EVENTS_DB: brokenDb }, ctx);
    await waitOnExecutionContext(ctx);
    expect(logs.errors()).toContainEqual(expect.objectContaining({ error: 'retention_failed' }));
  });
});
