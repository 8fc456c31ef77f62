import { EXPERIMENT_SHARD_COUNT } from '../../../worker/experiments/assignment/assign';

/**
 * Durable Objects by what they are keyed on, read from the names the worker addressed them by:
 * `lookup_per_visitor:<uuid>` is one visitor's, `collect_per_ip:203.0.113.7` an address's (many
 * visitors behind a carrier's NAT), `shard:7` one of a fixed set. Pure.
 */

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const IPV4 = /\b\d{1,3}(?:\.\d{1,3}){3}\b/g;
/** An IPv6 /64 as the rate limits write it (`2001:db8:1:2::/64`), or a whole address. */
const IPV6 = /\b[0-9a-f]{1,4}(?::[0-9a-f]{0,4}){2,7}(?:\/\d+)?/gi;
/**
 * An opaque id (a polling id, a card fingerprint): 12 or more letters, digits, _ or - with lower
 * case beside upper case or digits, as random tokens have and readable names do not.
 */
const OPAQUE_ID = /(?<=:)(?=[\w-]*[0-9A-Z])(?=[\w-]*[a-z])[\w-]{12,}/g;
const DIGITS = /\d+/g;

/** A name with its variable parts replaced, so objects of one kind share it. */
export function keyClass(name: string | null): string {
  if (name === null) return '<unnamed>';
  return name
    .replace(UUID, '<uuid>')
    .replace(IPV4, '<address>')
    .replace(IPV6, '<address>')
    .replace(OPAQUE_ID, '<id>')
    .replace(DIGITS, '<n>');
}

/**
 * - `visitor`: one object per visitor (its name holds the visitor's uuid): its load is that
 *   visitor's own, whatever the traffic;
 * - `shared-key`: one object per address, number block, card...: real traffic puts many
 *   visitors on the busiest one;
 * - `fixed-set`: a set of objects that does not grow with visitors (shards, one global object):
 *   each carries its share of all traffic.
 */
export type KeyKind = 'visitor' | 'shared-key' | 'fixed-set';

/**
 * The sets whose size the worker fixes, by key class: their objects split the traffic evenly by
 * a hash, so at scale the busiest carries 1/N of it, whatever a short run's few visitors did.
 */
const DECLARED_SETS: Readonly<Record<string, number>> = {
  // worker/experiments/assignment/assign.ts: the visitor's experiment shard.
  'experiments:<n>': EXPERIMENT_SHARD_COUNT,
};

/**
 * Key classes whose objects keep one state of a fixed size however much traffic passes: a card
 * provider's health (worker/provider-health/provider-health.ts: twelve buckets and the breaker,
 * one key overwritten on every call). Their size is what the run measured, not a growth per
 * visitor kept to the horizon, so the bench holds it as a size.
 */
const BOUNDED_STATE_PREFIXES = ['provider:'] as const;

/** Whether an object of this key class keeps a state of fixed size (BOUNDED_STATE_PREFIXES). */
export function keepsBoundedState(keyClassName: string): boolean {
  return BOUNDED_STATE_PREFIXES.some((prefix) => keyClassName.startsWith(prefix));
}

/**
 * Objects named by something of one visitor's that is no uuid: the account that bought a main
 * plan (worker/checkout/offer.ts: the SHA-256 of its session token), a buyer's card for
 * the retry governor (`card:`) and a buyer's purchase of one plan (`purchase:…:<plan>`), both
 * named by digests of the buyer (worker/purchase-ledger/ledger.ts purchaseKey).
 */
const PER_VISITOR_CLASSES: ReadonlySet<string> = new Set(['main_purchase:<id>', 'card:<id>']);
const PER_VISITOR_PREFIXES = ['purchase:<id>:'] as const;

const perVisitor = (keyClassName: string) =>
  PER_VISITOR_CLASSES.has(keyClassName) ||
  PER_VISITOR_PREFIXES.some((prefix) => keyClassName.startsWith(prefix));

export function keyKind(keyClassName: string, objects: number, visitors: number): KeyKind {
  if (keyClassName.includes('<uuid>') || perVisitor(keyClassName)) return 'visitor';
  if (keyClassName in DECLARED_SETS) return 'fixed-set';
  if (keyClassName.includes('<address>') || keyClassName.includes('<id>')) return 'shared-key';
  // A set that grew with the visitors (about one object each or more) is keyed on something
  // visitors bring; one that stayed small (names with at most a small number) is a fixed set.
  return visitors > 0 && objects >= visitors / 2 ? 'shared-key' : 'fixed-set';
}

export interface ObjectFigures {
  name: string | null;
  requests: number;
  peakPerSecond: number;
  storageBytes: number | null;
}

export interface KeyClassFigures {
  keyClass: string;
  kind: KeyKind;
  objects: number;
  requests: number;
  /** The busiest object's share of the class's requests in the run. */
  busiestShare: number;
  /** The most requests one object got within a second in the run. */
  peakPerSecond: number;
  /** The largest object, in bytes (null when its size could not be read). */
  largestBytes: number | null;
  totalBytes: number;
}

export function groupByKeyClass(
  objects: readonly ObjectFigures[],
  visitors: number,
): KeyClassFigures[] {
  const groups = new Map<string, ObjectFigures[]>();
  for (const object of objects) {
    const key = keyClass(object.name);
    groups.set(key, [...(groups.get(key) ?? []), object]);
  }
  return [...groups].map(([name, members]) => {
    const requests = members.reduce((sum, member) => sum + member.requests, 0);
    const busiest = Math.max(0, ...members.map((member) => member.requests));
    const sizes = members.flatMap((member) =>
      member.storageBytes === null ? [] : [member.storageBytes],
    );
    return {
      keyClass: name,
      kind: keyKind(name, members.length, visitors),
      objects: members.length,
      requests,
      busiestShare: requests > 0 ? busiest / requests : 0,
      peakPerSecond: Math.max(0, ...members.map((member) => member.peakPerSecond)),
      largestBytes: sizes.length > 0 ? Math.max(...sizes) : null,
      totalBytes: sizes.reduce((sum, size) => sum + size, 0),
    };
  });
}

/**
 * The share of a class's traffic its busiest object takes at scale: a visitor's object is that
 * visitor alone (read as a fixed rate instead); a shared key's busiest one the assumed share of
 * the busiest address, number block or card; a fixed set's the busiest one's share in the run,
 * never less than an even split.
 */
export function busiestShareAtScale(figures: KeyClassFigures, sharedKeyShare: number): number {
  switch (figures.kind) {
    case 'visitor':
      return 0;
    case 'shared-key':
      return sharedKeyShare;
    case 'fixed-set': {
      const declared = DECLARED_SETS[figures.keyClass];
      if (declared !== undefined) return 1 / declared;
      return Math.max(figures.busiestShare, figures.objects > 0 ? 1 / figures.objects : 1);
    }
  }
}
