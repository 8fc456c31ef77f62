/**
 * Which experiment shard (worker/experiments/store/experiment-shard.ts) keeps a visitor's rows: their
 * exposure, their flags and their purchases all live in one SQLite Durable Object, so the
 * triggers that keep the per-arm totals see every row of that visitor, and the shards' totals add
 * up to the experiment's.
 */

/**
 * How many shards the visitors are spread over. Fixed for good once deployed: it decides where a
 * visitor's row is, and a later outcome or purchase must find it there (changing it means copying
 * every visitor's rows to their new shard first).
 *
 * Sized for 100 M new visitors a month kept 13 months, 1.3 billion visitors: measured in a shard
 * (test/worker/experiments/write-rate.test.ts) with five experiments running (the split and one
 * per other layer, 1.78 exposures a visitor), a visitor costs about 234 bytes with their steps,
 * segments, 5% buyers' purchases and their renewals (98 when only the split was counted; 3 of
 * the 234 are the steps by route, ../store/route-steps.ts, whose rows grow with routes and days, not
 * visitors, so fewer a visitor at full traffic), so
 * 300 GB in all; 64 shards hold 4.7 GB each, under half a Durable Object's 10 GB. At the peak
 * hour (10× the average, about 390 new visitors/s) a shard takes about 8 exposure requests/s
 * (1.38 pages a visitor expose them) and, with the consumer's batches of 100 events split by
 * shard, about 10 more requests/s: far below the ~1,000 requests/s one object serves. The
 * results read every shard once (64 requests, in parallel), however many visitors there are.
 */
export const EXPERIMENT_SHARD_COUNT = 64;

/**
 * FNV-1a (32 bits) of the visitor id: stable across isolates, deployments and runtimes (no seed,
 * no platform hash), and even over random uuids. `from` continues a hash begun on other text:
 * fnv1a(b, fnv1a(a)) is the hash of a + b, without building a + b (assign.ts hashes per request).
 */
export function fnv1a(text: string, from = 0x811c9dc5): number {
  let hash = from;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** The shard of a visitor (the lower-case userUuid), 0 to EXPERIMENT_SHARD_COUNT − 1. */
export function shardOfVisitor(visitorId: string): number {
  return fnv1a(visitorId) % EXPERIMENT_SHARD_COUNT;
}

/** The Durable Object name of shard `index`, for idFromName. */
export function shardName(index: number): string {
  return `experiments:${index}`;
}

/** The items grouped by their visitor's shard: one request per shard touched. */
export function groupByShard<T>(
  items: readonly T[],
  visitorOf: (item: T) => string,
): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const item of items) {
    const shard = shardOfVisitor(visitorOf(item));
    const group = groups.get(shard);
    if (group) group.push(item);
    else groups.set(shard, [item]);
  }
  return groups;
}

/**
 * How long a visitor's rows are kept: 13 months, a year of comparisons and a month to read them.
 * Older rows are deleted by the shard's alarm; the totals the triggers kept from them stay (no
 * trigger fires on a delete), so the results of old phases never change.
 */
export const VISITOR_ROWS_KEPT_MS = 396 * 24 * 60 * 60 * 1000;
