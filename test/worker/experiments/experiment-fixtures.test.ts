import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { shardStub } from '../../../worker/experiments/store/experiment-stores';
import { emptyExperiments, shardRows, stores } from './experiment-fixtures';

/**
 * The fixtures read and empty only the shards that exist, so a hook does not create all 64 after
 * each file's reset. What a test wrote to any shard must still be read and emptied.
 */

const count = (index: number) =>
  runInDurableObject(shardStub(stores, index), (_shard, state) =>
    Number(state.storage.sql.exec('SELECT count(*) AS n FROM route_days').one().n),
  );

async function writeRouteDay(index: number): Promise<void> {
  await runInDurableObject(shardStub(stores, index), (_shard, state) => {
    state.storage.sql.exec(
      "INSERT INTO route_days (route, day, visits) VALUES ('default', '2026-11-22', 1)",
    );
  });
}

describe('the experiment fixtures', () => {
  it('read the rows of every shard a test wrote, and empty each of them', {
    timeout: 60_000,
  }, async () => {
    for (const index of [0, 37, 63]) await writeRouteDay(index);

    expect(await shardRows('SELECT route FROM route_days')).toHaveLength(3);
    await emptyExperiments();

    expect(await shardRows('SELECT route FROM route_days')).toEqual([]);
    expect([await count(0), await count(37), await count(63)]).toEqual([0, 0, 0]);
  });
});
