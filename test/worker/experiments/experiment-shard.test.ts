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
  expect(rows.saveOffers).toEqual([
    { variant: 'half', shown: 1, chose_keep: 1, took_action: 0, cancelled: 1 },
  ]);
  expect(phases).toEqual([1]);
  expect((await shard.experimentRows('save-once', 2, 'none')).rows.saveOffers).toEqual([]);
});

it('counts a shown subscription’s action, its reason, and what it paid after, each once', async () => {
  const shard = shardStub(stores, 3);
  const shownAt = Date.UTC(2026, 10, 28);
  const outcome = (subscriptionId: string, kind: SaveOfferOutcome, reason?: string) => ({
    experiment: 'save-money',
    phase: 1,
    variant: 'half',
    subscriptionId,
    outcome: kind,
    at: shownAt,
    ...(reason === undefined ? {} : { reason }),
  });
  const paid = (subscriptionId: string, amountMinor: number, at = shownAt + 1, id = '') => ({
    eventId: id || `evt_${crypto.randomUUID()}`,
    subscriptionId,
    kind: amountMinor < 0 ? 'refund' : 'renewal',
    amountMinor,
    currency: 'USD',
    at,
  });
  await shard.recordSaveOffers([outcome('sub_a', 'shown'), outcome('sub_b', 'shown')]);
  expect(await shard.recordSaveOffers([outcome('sub_a', 'took_action')])).toEqual([true]);
  expect(await shard.recordSaveOffers([outcome('sub_b', 'cancelled', 'too_expensive')])).toEqual([
    true,
  ]);
  await shard.recordSaveOfferEvents([
    // Before the offer was shown, and of a subscription never shown one: nothing.
    paid('sub_a', 3999, shownAt - 1),
    paid('sub_never_shown', 3999),
    // sub_a renews twice after it (one event sent twice), sub_b once and is refunded.
    paid('sub_a', 2000, shownAt + 1, 'evt_twice'),
    paid('sub_a', 2000, shownAt + 1, 'evt_twice'),
    paid('sub_a', 3999),
    paid('sub_b', 3999),
    paid('sub_b', -3999),
  ]);
  const { rows } = await shard.experimentRows('save-money', 1, 'none');
  expect(rows.saveOffers).toEqual([
    { variant: 'half', shown: 2, chose_keep: 0, took_action: 1, cancelled: 1 },
  ]);
  expect(rows.saveOfferReasons).toEqual([
    { variant: 'half', reason: 'too_expensive', subscriptions: 1 },
  ]);
  // The sum of squares is of each subscription's total: 59.99² and 0², not of each payment.
  expect(rows.saveOfferMoney).toEqual([
    { variant: 'half', currency: 'USD', paying: 2, net_minor: 5999, net_squares: 5999 * 5999 },
  ]);
  // A cancellation the product API reports counts the kept subscription cancelled, once.
  await shard.recordSaveOfferEvents([
    { ...paid('sub_a', 0), kind: 'cancellation', currency: null },
  ]);
  const after = await shard.experimentRows('save-money', 1, 'none');
  expect(after.rows.saveOffers[0]).toMatchObject({ cancelled: 2, took_action: 1 });
  expect(after.rows.saveOfferReasons).toHaveLength(1);
});
