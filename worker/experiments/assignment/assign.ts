/**
 * Which experiment of a layer a visitor is in, and which variant they get: pure functions of the
 * visitor id and the seeds, so the variant is known before the visitor is exposed without storing
 * anything, and is the same on every page, in every isolate, after every deployment. Once exposed,
 * the visitor's variant is pinned in a cookie (the pins, below) and the pin wins.
 *
 * Every draw is GrowthBook's version 2 hash (hashShare) of the visitor id with its own salt:
 * - the layer's bucket, `<layer seed>#layer`, which the ranges of the layer's experiments share
 *   out, so a visitor is in at most one experiment per layer (a mutual-exclusion group);
 * - an experiment's coverage, `<experiment seed>#coverage`;
 * - an experiment's variant, `<experiment seed>`, as GrowthBook hashes it.
 * Different strings hashed make the draws independent of one another: the buckets of two layers,
 * the layer's bucket and the variant, the coverage and the variant (test/unit/experiments/
 * assign.test.ts checks each over 100 000 ids). A seed is letters, digits, ':', '-' and '_'
 * (shared/config/experiments.ts), never '#', so no seed's variant hash is another draw's salted
 * one: an experiment given its layer's seed, or 'x#coverage' beside 'x', still draws independently.
 *
 * A draw is a share in [0, 1) in steps of 1/10 000: the ranges, the coverage and the weights are
 * resolved to 0.01% (pickedShares gives the exact shares the weights draw).
 */

/** The hash's resolution: a draw is one of this many equal shares. */
const HASH_BUCKETS = 10_000;

const FNV_PRIME = 0x01000193;
const FNV_OFFSET = 0x811c9dc5;

/** FNV-1a of `value` written in decimal, as fnv1a(String(value)) is, without making the string. */
function fnv1aOfDecimal(value: number): number {
  let hash = FNV_OFFSET;
  let power = 1;
  while (power * 10 <= value) power *= 10;
  // Powers of ten up to 1e9 and their tenths are exact in a double, and value / power never
  // rounds up to the next whole number below 2^32, so each digit is exact.
  for (; power >= 1; power /= 10) {
    hash ^= 48 + (Math.floor(value / power) % 10);
    hash = Math.imul(hash, FNV_PRIME) >>> 0;
  }
  return hash;
}

/** The share of the hash begun on a seed (and its salt) and continued over the visitor id. */
function shareFrom(begun: number, visitorId: string): number {
  return (fnv1aOfDecimal(fnv1a(visitorId, begun)) % HASH_BUCKETS) / HASH_BUCKETS;
}

/**
 * The visitor's share for a seed, in [0, 1): GrowthBook's hash version 2,
 * (fnv1a32(String(fnv1a32(seed + value))) % 10000) / 10000 (growthbook/growthbook,
 * packages/sdk-js/src/util.ts `hash(seed, value, 2)`; the values are their SDK spec's,
 * packages/sdk-js/test/cases.json "hash"). Their version 1, one pass over value + seed, "had a
 * flaw that caused bias when running experiments in parallel" (docs/lib/build-your-own.mdx).
 * Hashed in place, the salts too: no string is built, so a page request's draws allocate nothing.
 */
export function hashShare(seed: string, visitorId: string): number {
  return shareFrom(fnv1a(seed), visitorId);
}

/**
 * The visitor's share for `seed` followed by `salt` (`<seed>#holdout`), as hashShare of the two
 * written together gives it, without writing them together: the hash goes on over the salt.
 */
export function saltedShare(seed: string, salt: string, visitorId: string): number {
  return shareFrom(fnv1a(salt, fnv1a(seed)), visitorId);
}

const LAYER_SALT = '#layer';
const COVERAGE_SALT = '#coverage';

/** The visitor's bucket in a layer, [0, 1): the layer's experiments each own a range of it. */
export function layerBucket(layerSeed: string, visitorId: string): number {
  return shareFrom(fnv1a(LAYER_SALT, fnv1a(layerSeed)), visitorId);
}

/** Whether a bucket lies in an experiment's range [from, to); no range is the whole layer. */
export function inRange(bucket: number, range?: readonly [from: number, to: number]): boolean {
  return range === undefined || (bucket >= range[0] && bucket < range[1]);
}

/**
 * Whether the visitor is among the `coverage` share (0–1) of the experiment's matching visitors
 * who enter it. Its own draw, apart from the variant's, so whoever enters gets the weights'
 * shares whatever the coverage; and raising the coverage only adds visitors (whoever was in
 * stays in, with the same variant), which is why more coverage is a safe edit of a running
 * experiment.
 */
export function inCoverage(experimentSeed: string, visitorId: string, coverage: number): boolean {
  return (
    coverage >= 1 || shareFrom(fnv1a(COVERAGE_SALT, fnv1a(experimentSeed)), visitorId) < coverage
  );
}

/** The variant whose stretch of the weights' total holds `share` ∈ [0, 1); null without weight. */
function variantAt(
  share: number,
  variants: readonly (readonly [key: string, weight: number])[],
): string | null {
  let total = 0;
  for (let i = 0; i < variants.length; i++) {
    const weight = variants[i]![1];
    if (weight > 0) total += weight;
  }
  if (!(total > 0)) return null;
  const point = share * total;
  let cumulative = 0;
  let last: string | null = null;
  for (let i = 0; i < variants.length; i++) {
    const [key, weight] = variants[i]!;
    if (!(weight > 0)) continue;
    cumulative += weight;
    if (point < cumulative) return key;
    last = key;
  }
  // Unreachable (share < 1 and the same sum as `total`), kept so rounding could never yield null.
  return last;
}

/**
 * The visitor's variant: the variants laid end to end in the order given, each as long as its
 * weight's share of the total, and the visitor's share for the experiment's seed falls in one.
 * A weight of 0 (a paused variant) is never drawn; null when no weight is above 0.
 *
 * Changing the weights moves the visitors whose share falls between an old and a new boundary:
 * 50/50 to 60/40 moves the 10% in [0.5, 0.6) from the second variant to the first; pausing the
 * middle of three equal variants gives its visitors to its neighbours and moves no one else.
 * The draw does not try to move fewer: visitors already exposed keep their pinned variant
 * (the pins, below), and a weight change starts a new phase whose results count only its own exposures,
 * so the visitors it moves had not been counted yet.
 */
export function pickVariant(
  experimentSeed: string,
  visitorId: string,
  variants: readonly (readonly [key: string, weight: number])[],
): string | null {
  return variantAt(hashShare(experimentSeed, visitorId), variants);
}

/**
 * The share of visitors pickVariant gives each variant (by key, in order): the weights' shares
 * resolved to the hash's 1/10 000 steps, each within 0.0001 of weight / total. What a
 * sample-ratio check must expect (statistics.ts checkSampleRatio): weights 1:98 draw 1.02% for
 * the first, not 1.0101%, and checked against the weights a sound split alarms from about 11
 * million exposures.
 */
export function pickedShares(
  variants: readonly (readonly [key: string, weight: number])[],
): Record<string, number> {
  const counts = new Map<string, number>(variants.map(([key]) => [key, 0]));
  for (let step = 0; step < HASH_BUCKETS; step++) {
    const key = variantAt(step / HASH_BUCKETS, variants);
    if (key !== null) counts.set(key, counts.get(key)! + 1);
  }
  return Object.fromEntries([...counts].map(([key, count]) => [key, count / HASH_BUCKETS]));
}

/** How visitors are placed: by the hashes above, or, in tests, by a number the test fixes. */
export interface Placement {
  bucket(layerSeed: string, visitorId: string): number;
  covered(experimentSeed: string, visitorId: string, coverage: number): boolean;
  variant(
    experimentSeed: string,
    visitorId: string,
    variants: readonly (readonly [key: string, weight: number])[],
  ): string | null;
}

export const HASHED_PLACEMENT: Placement = {
  bucket: layerBucket,
  covered: inCoverage,
  variant: pickVariant,
};

/** The placement a worker draws by: the hashes, or a test's fixed `random` where it gives one. */
export function placementOf(random: (() => number) | undefined): Placement {
  return random ? fixedPlacement(random) : HASHED_PLACEMENT;
}

/** A placement where every draw is `random()`: a test's way to pick a variant. */
export function fixedPlacement(random: () => number): Placement {
  return {
    bucket: () => random(),
    covered: (_seed, _visitorId, coverage) => coverage >= 1 || random() < coverage,
    variant: (_seed, _visitorId, variants) => variantAt(random(), variants),
  };
}

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

/**
 * The `gf_x` cookie: the variant of each experiment a visitor was exposed to, pinned so they keep
 * it when marketers change the weights (until then the variant is the hash's, assign.ts, and
 * nothing is stored). A value is a list of `<experiment id>~<variant key>.` entries, oldest
 * first, e.g. `split~lp11ch8/vc.pw-intro~b.`.
 *
 * The cookie holds the value signed for the visitor id (worker/request/cookies.ts): this
 * file reads and writes the value inside, once the signature held.
 *
 * Every character is one RFC 6265 allows in a cookie value. hono/cookie's setCookie writes the
 * value through encodeURIComponent, which leaves ids, keys, '~' and '.' as they are and makes a
 * '/' `%2F`; getCookie decodes it again. The size cap counts the encoded bytes.
 *
 * A cookie comes from the browser and can be anything: parsePins keeps the entries it can read
 * and never throws. Each entry ends with its '.', so a value cut short loses only the entry it
 * was cut in, never reads as a shorter variant key.
 */

export const PINS_COOKIE = 'gf_x';

/**
 * `gf_ax`: a signed-in visitor's pins of the layers with a price test, which follow the account
 * (worker/experiments/config/evaluate.ts). The same value as `gf_x`, signed for the account
 * (accountSubject) instead of the visitor: another account's pins, or the browser's own from
 * before signing in, do not pass for this account's.
 */
export const ACCOUNT_PINS_COOKIE = 'gf_ax';

/** What an account's pins are signed for: never a visitor's uuid. */
export function accountSubject(userId: string): string {
  return `account:${userId}`;
}

/** The experiments section's ids (shared/config/fields.ts `slug`). */
const EXPERIMENT_ID = /^[a-z0-9][a-z0-9_-]{0,47}$/;
/** The experiments section's variant keys (shared/config/experiments.ts). */
const VARIANT_KEY = /^[a-z0-9][a-z0-9_-]*(\/[a-z0-9][a-z0-9_-]*)?$/;
const VARIANT_KEY_MAX = 48;

/**
 * At most this many pins are written, and their value stays under PINS_MAX_BYTES: the newest
 * kept, the oldest dropped first. That is safe. A dropped pin only falls back to the hash, which
 * gives the visitor the very variant they were pinned to unless the weights changed since (the
 * seed is the experiment's for life); the exposure store keeps one row per experiment and
 * visitor, their first, so they are never counted twice; and the oldest pins are of the
 * experiments exposed longest ago, the likeliest to have ended and drained. A visitor is in at
 * most one experiment per layer at a time, five at once: thirty pins hold six generations of
 * experiments in every layer.
 */
const PINS_MAX_ENTRIES = 30;
/**
 * Browsers keep a cookie of up to 4096 bytes, name and attributes included, and send every one
 * of a site's on each request; 1,500 leaves room for the others.
 */
const PINS_MAX_BYTES = 1_500;
/** No value we write is longer: a longer one is read only this far. */
const PINS_READ_MAX = 4_096;

function isPin(experiment: string, variant: string): boolean {
  return (
    EXPERIMENT_ID.test(experiment) && variant.length <= VARIANT_KEY_MAX && VARIANT_KEY.test(variant)
  );
}

/**
 * The pins of a `gf_x` value (as getCookie returns it, decoded), by experiment id, oldest first.
 * An entry that is not a valid experiment id and variant key is skipped; for an experiment named
 * twice the first entry counts.
 */
export function parsePins(value: string | undefined): Map<string, string> {
  const pins = new Map<string, string>();
  if (value === undefined) return pins;
  const text = value.length > PINS_READ_MAX ? value.slice(0, PINS_READ_MAX) : value;
  let start = 0;
  for (let end = text.indexOf('.'); end !== -1; end = text.indexOf('.', start)) {
    const tilde = text.indexOf('~', start);
    if (tilde !== -1 && tilde < end) {
      const experiment = text.slice(start, tilde);
      const variant = text.slice(tilde + 1, end);
      if (isPin(experiment, variant) && !pins.has(experiment)) pins.set(experiment, variant);
    }
    start = end + 1;
  }
  return pins;
}

/**
 * The `gf_x` value of the pins, in the map's order (a Map keeps insertion order: add a new pin
 * with set, and it is the newest). At most PINS_MAX_ENTRIES, under PINS_MAX_BYTES as setCookie
 * writes it: over either, the oldest are dropped. A pin parsePins could not read back is left
 * out. An empty string when nothing is left.
 */
export function serializePins(pins: ReadonlyMap<string, string>): string {
  const entries: string[] = [];
  for (const [experiment, variant] of pins) {
    if (isPin(experiment, variant)) entries.push(`${experiment}~${variant}.`);
  }
  let bytes = 0;
  let first = entries.length;
  while (first > 0 && entries.length - first < PINS_MAX_ENTRIES) {
    const size = encodeURIComponent(entries[first - 1]!).length;
    if (bytes + size >= PINS_MAX_BYTES) break;
    bytes += size;
    first--;
  }
  return entries.slice(first).join('');
}
