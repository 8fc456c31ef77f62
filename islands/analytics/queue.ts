import type { CollectedEvent } from '../../shared/analytics/batch';
import { type AnalyticsLog, type KeyValueStorage, storedValue } from './storage';

/** localStorage key of the events waiting for the collector's acknowledgement. */
export const QUEUE_KEY = 'gf:analytics:queue';

/**
 * How long events handed to a request stay out of other uploads (its time-out is shorter). A
 * page that ends without saying so (a crash, a killed process) never hears its request's
 * answer: after this, another page sends its events again.
 */
export const SEND_LEASE_MS = 60_000;

/**
 * How long events handed to the browser as the page went (a beacon, a request under way) wait
 * for the collector's acknowledgement (shared/analytics/acknowledgement.ts) before a later page
 * sends them again. The acknowledgement comes back with the request's answer, well within this
 * on any network that delivers at all; one that comes later only costs a repeat, which the
 * collector answers as duplicates.
 */
export const ACK_WAIT_MS = 10_000;

interface QueueEntry {
  event: CollectedEvent;
  /** Epoch ms until which a request holds the event, or its hand-off awaits acknowledgement. */
  until?: number;
  /**
   * The batches the browser was handed the event in as a page went (at most `maxSends`): the
   * collector's acknowledgement of any of them is the event's.
   */
  batches?: string[];
}

interface StoredQueue {
  entries: QueueEntry[];
  /** Events given up to make room (SPEC.md §9 saved max count), over this visitor's life. */
  dropped: number;
}

function parseQueue(json: unknown): StoredQueue | null {
  if (typeof json !== 'object' || json === null) return null;
  const { entries, dropped } = json as Partial<StoredQueue>;
  if (!Array.isArray(entries)) return null;
  return {
    entries: entries
      .filter(
        (entry) =>
          typeof entry?.event?.insert_id === 'string' && typeof entry.event.event_type === 'string',
      )
      .map(({ event, until, batches }) => ({
        event,
        ...(typeof until === 'number' ? { until } : {}),
        ...(Array.isArray(batches)
          ? { batches: batches.filter((id) => typeof id === 'string') }
          : {}),
      })),
    dropped: typeof dropped === 'number' ? dropped : 0,
  };
}

export interface EventQueue {
  /** Adds events; beyond `maxCount` the oldest give way. Returns how many gave way. */
  add(events: CollectedEvent[]): number;
  /** Events no request holds at `now`, oldest first. */
  ready(now: number): CollectedEvent[];
  /** Holds events until `until` (a request under way). */
  hold(ids: readonly string[], until: number): void;
  /** Makes held events ready again (a request that failed). */
  release(ids: readonly string[]): void;
  /**
   * The browser took events in batch `batch` as the page went: they wait for the collector to
   * acknowledge it until `until`, then go again. An event handed over `maxSends` times is
   * forgotten as delivered (a browser whose acknowledgements never come back).
   */
  handOver(ids: readonly string[], batch: string, until: number, maxSends: number): void;
  /** Forgets the events of batches the collector acknowledged; returns how many. */
  acknowledge(batches: readonly string[]): number;
  /** Forgets events (answered by the collector, or refused). */
  remove(ids: readonly string[]): void;
  size(): number;
  dropped(): number;
}

/** `queue` with `change` applied to the entries of `ids` (null removes one). */
function changedEntries(
  queue: StoredQueue,
  ids: readonly string[],
  change: (entry: QueueEntry) => QueueEntry | null,
): StoredQueue {
  const chosen = new Set(ids);
  return {
    ...queue,
    entries: queue.entries.flatMap((entry) => {
      if (!chosen.has(entry.event.insert_id)) return [entry];
      const changed = change(entry);
      return changed ? [changed] : [];
    }),
  };
}

/** A hold further ahead than any we set means the clock went back: it no longer counts. */
const isHeld = (entry: QueueEntry, now: number) =>
  entry.until !== undefined && entry.until > now && entry.until - now <= SEND_LEASE_MS;

/**
 * The events waiting for the collector, in localStorage under one key shared by every tab of the
 * visitor, so they survive reloads and the navigation between screens (each a new document) until
 * the collector has acknowledged them. Each change re-reads storage first: another tab may have
 * added or sent events since.
 */
export function createEventQueue(options: {
  storage: KeyValueStorage | null;
  maxCount: number;
  log: AnalyticsLog;
  key?: string;
}): EventQueue {
  const stored = storedValue<StoredQueue>({
    storage: options.storage,
    key: options.key ?? QUEUE_KEY,
    parse: parseQueue,
    initial: () => ({ entries: [], dropped: 0 }),
    log: options.log,
  });

  const update = (change: (queue: StoredQueue) => StoredQueue) => stored.set(change(stored.get()));
  const changeEntries = (
    ids: readonly string[],
    change: (entry: QueueEntry) => QueueEntry | null,
  ) => update((queue) => changedEntries(queue, ids, change));

  return {
    add(events) {
      let overflow = 0;
      update((queue) => {
        const entries = [...queue.entries, ...events.map((event) => ({ event }))];
        overflow = Math.max(0, entries.length - options.maxCount);
        return { entries: entries.slice(overflow), dropped: queue.dropped + overflow };
      });
      if (overflow > 0) {
        options.log.warn(`${overflow} oldest events dropped: over ${options.maxCount} saved`);
      }
      return overflow;
    },
    ready(now) {
      return stored
        .get()
        .entries.filter((entry) => !isHeld(entry, now))
        .map((entry) => entry.event);
    },
    hold(ids, until) {
      changeEntries(ids, (entry) => ({ ...entry, until }));
    },
    release(ids) {
      changeEntries(ids, ({ until: _, ...entry }) => entry);
    },
    handOver(ids, batch, until, maxSends) {
      changeEntries(ids, ({ event, batches = [] }) =>
        batches.length + 1 >= maxSends ? null : { event, until, batches: [...batches, batch] },
      );
    },
    acknowledge(batches) {
      if (batches.length === 0) return 0;
      const done = new Set(batches);
      let forgotten = 0;
      update((queue) => {
        const entries = queue.entries.filter(
          (entry) => !entry.batches?.some((batch) => done.has(batch)),
        );
        forgotten = queue.entries.length - entries.length;
        return forgotten === 0 ? queue : { ...queue, entries };
      });
      return forgotten;
    },
    remove(ids) {
      changeEntries(ids, () => null);
    },
    size: () => stored.get().entries.length,
    dropped: () => stored.get().dropped,
  };
}
