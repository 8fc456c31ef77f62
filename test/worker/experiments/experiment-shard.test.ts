import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { expect, it } from 'vitest';
import { shardStub } from '../../../worker/experiments/store/experiment-stores';
import type { SaveOfferOutcome } from '../../../worker/experiments/store/save-offer-statements';
import { SHARD_MIGRATIONS } from '../../../worker/experiments/store/shard-schema';
import { stores } from './experiment-fixtures';

/**
 * The schema of a shard (worker/experiments/store/shard-schema.ts) against EVENTS_DB's
 * experiment tables (migrations 0003, 0004 and 0007): the same statements write and read both, and
 * the results add them, so the two must stay one schema (route_days included: only shards write
 * it). A shard runs those migration files' own text, so this holds by construction; the test
 * keeps it held should anyone copy the SQL again.
 * Every experiment's tables (`xp_`, every-experiment-schema.ts) are the shards' alone and left out
 * of the comparison: EVENTS_DB only ever holds the split's visitors from before the shards, in the
 * split's own tables, and nothing writes it new visitors.
 */

/** A table's, index's or trigger's SQL without comments or layout. */
function normalized(sql: string): string {
  return sql
    .split('\n')
    .map((line) => line.replace(/--.*$/, ''))
    .join(' ')
    .replace(/\s+/g, ' ')
    .replace(/\( /g, '(')
    .replace(/ \)/g, ')')
    .trim();
}

interface SchemaRow {
  type: string;
  name: string;
  sql: string;
}

const EXPERIMENT_OBJECTS = `SELECT type, name, sql FROM sqlite_master
  WHERE sql IS NOT NULL AND (name = 'exposures' OR name LIKE 'experiment%' OR name LIKE 'exposure%'
    OR name = 'route_days')
  ORDER BY type, name`;

it('holds the tables, index and triggers of EVENTS_DB’s experiment migrations, no more', async () => {
  const { results: d1 } = await env.EVENTS_DB.prepare(EXPERIMENT_OBJECTS).all<SchemaRow>();
  const shard = await runInDurableObject(shardStub(stores, 0), (_shard, state) =>
    state.storage.sql.exec(EXPERIMENT_OBJECTS).toArray(),
  );
  const shape = (rows: readonly SchemaRow[]) =>
    rows.map((row) => ({ type: row.type, name: row.name, sql: normalized(row.sql) }));
  expect(d1.length).toBe(14);
  expect(shape(shard as unknown as SchemaRow[])).toEqual(shape(d1));
});

it('records the migrations it ran as its schema version', async () => {
  const version = await runInDurableObject(shardStub(stores, 1), (_shard, state) =>
    state.storage.kv.get('schemaVersion'),
  );
  expect(version).toBe(SHARD_MIGRATIONS.length);
});

it('counts a save offer test’s subscription once per outcome, in the phase it was first shown in', async () => {
  const shard = shardStub(stores, 2);
  const event = (outcome: SaveOfferOutcome, phase = 1, subscriptionId = 'sub_1') => ({
    experiment: 'save-once',
    phase,
    variant: 'half',
    subscriptionId,
    outcome,
    at: Date.UTC(2026, 10, 28),
  });
  // A cancel or a keep of a subscription never shown the offer counts nothing.
  // Each answer says which outcomes counted, so the page logs those alone.
  expect(await shard.recordSaveOffers([event('cancelled', 1, 'sub_never_shown')])).toEqual([false]);
  expect(await shard.recordSaveOffers([event('shown'), event('shown')])).toEqual([true, false]);
  expect(await shard.recordSaveOffers([event('chose_keep'), event('chose_keep')])).toEqual([
    true,
    false,
  ]);
  // Shown again in a later phase: it stays in the phase it was first shown in.
  expect(
    await shard.recordSaveOffers([event('shown', 2), event('cancelled', 2), event('cancelled')]),
  ).toEqual([false, true, false]);
  const { rows, phases } = await shard.experimentRows('save-once', 1, 'none');
  expect(rows.saveOffers).toEqual([{ variant: 'half', shown: 1, chose_keep: 1, cancelled: 1 }]);
  expect(phases).toEqual([1]);
  expect((await shard.experimentRows('save-once', 2, 'none')).rows.saveOffers).toEqual([]);
});
