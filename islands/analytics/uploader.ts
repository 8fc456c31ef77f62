import type { CollectedEvent } from '../../shared/analytics/batch';
import { doubled } from '../../shared/backoff';
import { batchBody, packBatches } from './batches';
import { BEACON_LEASE_MS, type EventQueue, SEND_LEASE_MS } from './queue';
import type { AnalyticsLog } from './storage';

/** The upload figures of ANALYTICS_LIMITS; tests pass their own. */
export type UploadLimits = {
  [Limit in 'uploadThreshold' | 'batchSize' | 'periodMs' | 'maxBatchBytes']: number;
};

export interface UploadTransport {
  /** POSTs a batch; resolves with the HTTP status, 0 when no answer came. Never rejects. */
  post(url: string, body: string): Promise<number>;
  /**
   * Hands a batch to the browser to send after the page is gone (sendBeacon, else a keepalive
   * fetch); false when the browser would not take it.
   */
  beacon(url: string, body: string): boolean;
}

export interface Timers {
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** After a failed upload: 1 s, doubling, at most a minute; a success starts over. */
export const FIRST_BACKOFF_MS = 1000;
export const MAX_BACKOFF_MS = 60_000;

/**
 * Requests one flush may make at most: far more than a full queue needs (1000 events in batches
 * of 100, a 413 halving down to one now and then); past it the next period goes on. A guard
 * against a storage that silently keeps what was removed, which would otherwise loop for ever.
 */
const MAX_REQUESTS_PER_FLUSH = 200;

function nextBackoff(previous: number): number {
  return previous === 0 ? FIRST_BACKOFF_MS : doubled(previous, MAX_BACKOFF_MS);
}

/**
 * What the collector's answer means for the batch (worker's `POST /e`: 200 accepted, 400 invalid,
 * 413 too large, 503 unavailable). Kept: no answer, a time-out, too many requests, any 5xx.
 * Refused for good: every other 4xx (it will never be accepted, resending it only repeats that).
 */
export type Verdict = 'accepted' | 'too_large' | 'retry' | 'refused';

export function verdictOf(status: number): Verdict {
  if (status >= 200 && status < 300) return 'accepted';
  if (status === 413) return 'too_large';
  if (status >= 400 && status < 500 && status !== 408 && status !== 429) return 'refused';
  return 'retry';
}

const idsOf = (events: readonly CollectedEvent[]) => events.map((event) => event.insert_id);

/**
 * The upload rules of SPEC.md §7 and §9 over the stored queue: a batch goes when the threshold
 * of ready events is reached and every period; one request at a time, of at most `batchSize`
 * events and `maxBatchBytes`. A 413 halves the batch and sends it again, down to one event, which
 * is then dropped. A failure keeps the events and waits, longer each time.
 */
export function createUploader(options: {
  queue: EventQueue;
  url: string;
  transport: UploadTransport;
  now: () => number;
  timers: Timers;
  log: AnalyticsLog;
  limits: UploadLimits;
}) {
  const { queue, url, transport, now, timers, log, limits } = options;
  let running: Promise<void> | null = null;
  let backoffMs = 0;
  let retryTimer: unknown = null;
  let periodTimer: unknown = null;

  const drop = (events: CollectedEvent[], why: string) => {
    queue.remove(idsOf(events));
    log.warn(`${events.length} events dropped: ${why}`, idsOf(events));
  };

  /** Sends what is ready, batch after batch; false when a failure stopped it (retry planned). */
  async function sendReady(): Promise<boolean> {
    let batchSize = limits.batchSize;
    for (let request = 0; request < MAX_REQUESTS_PER_FLUSH; request++) {
      const packed = packBatches(queue.ready(now()), batchSize, limits.maxBatchBytes);
      if (packed.oversized.length > 0) {
        drop(packed.oversized, `each over ${limits.maxBatchBytes} bytes`);
      }
      const batch = packed.batches[0];
      if (!batch) return true;
      const ids = idsOf(batch);
      queue.hold(ids, now() + SEND_LEASE_MS);
      const verdict = verdictOf(await transport.post(url, batchBody(batch)));
      if (verdict === 'too_large' && batch.length > 1) {
        queue.release(ids);
        batchSize = Math.max(1, Math.floor(batch.length / 2));
        continue;
      }
      if (verdict === 'retry') {
        queue.release(ids);
        return false;
      }
      if (verdict === 'accepted') {
        // Only what was sent: events queued during the request wait for the next batch.
        queue.remove(ids);
        backoffMs = 0;
      } else if (verdict === 'too_large') {
        drop(batch, 'refused as too large (413)');
      } else {
        drop(batch, 'refused by the collector, it will never accept them');
      }
      // What a 413 made smaller was about the batch that got it, not the ones after.
      batchSize = limits.batchSize;
    }
    return true;
  }

  function scheduleRetry(): void {
    backoffMs = nextBackoff(backoffMs);
    retryTimer = timers.setTimeout(() => {
      retryTimer = null;
      void flush();
    }, backoffMs);
  }

  /** Uploads everything ready, unless a request is under way or a retry is already planned. */
  function flush(): Promise<void> {
    if (running) return running;
    if (retryTimer !== null) return Promise.resolve();
    running = sendReady()
      .then((done) => {
        if (!done) scheduleRetry();
      })
      .catch((error: unknown) => {
        log.warn('upload failed', error);
        scheduleRetry();
      })
      .finally(() => {
        running = null;
      });
    return running;
  }

  function schedulePeriod(): void {
    periodTimer = timers.setTimeout(() => {
      void flush().finally(schedulePeriod);
    }, limits.periodMs);
  }

  return {
    flush,
    /** After events were added: uploads at once when the threshold of ready events is reached. */
    added(): void {
      if (queue.ready(now()).length >= limits.uploadThreshold) void flush();
    },
    /**
     * The page is going away: every ready event goes by beacon now, in batches within the
     * collector's and the beacon's limits, and counts as sent for BEACON_LEASE_MS. Stops at the
     * first batch the browser refuses (its beacon quota is full): the rest stay for a later page.
     */
    sendByBeacon(): number {
      const packed = packBatches(queue.ready(now()), limits.batchSize, limits.maxBatchBytes);
      let sent = 0;
      for (const batch of packed.batches) {
        if (!transport.beacon(url, batchBody(batch))) break;
        queue.hold(idsOf(batch), now() + BEACON_LEASE_MS);
        sent += batch.length;
      }
      return sent;
    },
    start(): void {
      if (periodTimer === null) schedulePeriod();
    },
    stop(): void {
      timers.clearTimeout(periodTimer);
      timers.clearTimeout(retryTimer);
      periodTimer = null;
      retryTimer = null;
    },
    /** The wait before the next retry; 0 when the last upload went through. */
    backoff: () => backoffMs,
    busy: () => running !== null,
  };
}
