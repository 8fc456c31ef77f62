import { BATCH_PARAM } from '../../shared/analytics/acknowledgement';
import type { CollectedEvent } from '../../shared/analytics/batch';
import { doubled } from '../../shared/backoff';
import { batchBody, packBatches } from './batches';
import { ACK_WAIT_MS, type EventQueue, SEND_LEASE_MS } from './queue';
import type { AnalyticsLog } from './storage';

/** The upload figures of ANALYTICS_LIMITS; tests pass their own. */
export type UploadLimits = {
  [Limit in 'uploadThreshold' | 'batchSize' | 'periodMs' | 'maxBatchBytes']: number;
};

export interface UploadTransport {
  /**
   * POSTs a batch; resolves with the HTTP status, 0 when no answer came. Never rejects. The
   * request outlives the page (a keepalive fetch): one under way as the page goes still arrives.
   */
  post(url: string, body: string): Promise<number>;
  /**
   * Hands a batch to the browser to send after the page is gone (sendBeacon, else a keepalive
   * fetch); false when the browser would not take it or is offline. Its answer reaches no page:
   * the collector's acknowledgement does (`acknowledged`).
   */
  beacon(url: string, body: string): boolean;
  /**
   * The ids of the batches the collector acknowledged since the last call, taken out of the
   * acknowledgement cookie (shared/analytics/acknowledgement.ts); null when the browser keeps
   * no cookies, so that no acknowledgement will ever come.
   */
  acknowledged(): readonly string[] | null;
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

/**
 * An event handed to the browser this many times without an acknowledgement is forgotten as
 * delivered: a browser that drops the acknowledgement cookie (or every request to `/e`) would
 * otherwise send every event again on every page.
 */
export const MAX_HAND_OFFS = 3;

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

interface UploaderOptions {
  queue: EventQueue;
  url: string;
  transport: UploadTransport;
  now: () => number;
  timers: Timers;
  log: AnalyticsLog;
  limits: UploadLimits;
  /** A fresh batch id (shared/analytics/acknowledgement.ts: 12 hex digits). */
  batchId: () => string;
}

/**
 * The request this page has under way: its events, its batch id, and whether the page went
 * away meanwhile (sendByBeacon), which left them waiting for the batch's acknowledgement.
 */
interface UnderWay {
  ids: string[];
  batch: string;
  handedOver: boolean;
}

/** Removes `events` from the queue for good, saying why. */
function dropEvents({ queue, log }: UploaderOptions, events: CollectedEvent[], why: string) {
  queue.remove(idsOf(events));
  log.warn(`${events.length} events dropped: ${why}`, idsOf(events));
}

const batchUrl = (url: string, batch: string) => `${url}?${BATCH_PARAM}=${batch}`;

/**
 * Posts one batch, under way as `sending` says: its status, or null when the browser carries
 * it on as the page goes.
 */
async function postBatch(
  options: UploaderOptions,
  batch: CollectedEvent[],
  sending: UnderWay,
): Promise<number | null> {
  const { queue, transport, now, timers } = options;
  queue.hold(sending.ids, now() + SEND_LEASE_MS);
  const status = await transport.post(batchUrl(options.url, sending.batch), batchBody(batch));
  // Chromium fails a page's requests just before its pagehide, in the same task, while
  // the browser carries a keepalive request on to the collector: a failure followed at
  // once by the page going is that, not a failed send.
  if (status === 0 && !sending.handedOver) {
    await new Promise<void>((resolve) => timers.setTimeout(resolve, 0));
    if (sending.handedOver) return null;
  }
  return status;
}

/**
 * What the collector's answer to a batch, the page still here to hear it, does to its events:
 * taken (`accepted` hears of it) or refused for good, and the next batch goes (`next`); too
 * large, so the same events go again in a batch of `smaller`; or kept for a retry later.
 */
function settleBatch(
  options: UploaderOptions,
  batch: CollectedEvent[],
  status: number,
  accepted: () => void,
): 'next' | 'retry' | { smaller: number } {
  const { queue } = options;
  const ids = idsOf(batch);
  const verdict = verdictOf(status);
  if (verdict === 'too_large' && batch.length > 1) {
    queue.release(ids);
    return { smaller: Math.max(1, Math.floor(batch.length / 2)) };
  }
  if (verdict === 'retry') {
    queue.release(ids);
    return 'retry';
  }
  if (verdict === 'accepted') {
    // Only what was sent: events queued during the request wait for the next batch.
    queue.remove(ids);
    accepted();
  } else if (verdict === 'too_large') {
    dropEvents(options, batch, 'refused as too large (413)');
  } else {
    dropEvents(options, batch, 'refused by the collector, it will never accept them');
  }
  return 'next';
}

/**
 * The sending half of the uploader: batch after batch by request while the page is here, by
 * beacon as it goes. `accepted` hears of each batch the collector took.
 */
function createSender(options: UploaderOptions, accepted: () => void) {
  const { queue, transport, now, limits } = options;
  /** Hand-offs an event may have; 1 once the browser turned out to keep no cookies. */
  let maxHandOffs = MAX_HAND_OFFS;
  let underWay: UnderWay | null = null;
  /** Forgets what the collector acknowledged since the last look. */
  const takeAcknowledged = () => {
    const batches = transport.acknowledged();
    if (batches === null) maxHandOffs = 1;
    else queue.acknowledge(batches);
  };
  const ready = () => {
    takeAcknowledged();
    return queue.ready(now());
  };
  const handOver = (ids: readonly string[], batch: string) =>
    queue.handOver(ids, batch, now() + ACK_WAIT_MS, maxHandOffs);

  /** Sends what is ready, batch after batch; false when a failure stopped it (retry planned). */
  async function sendReady(): Promise<boolean> {
    let batchSize = limits.batchSize;
    for (let request = 0; request < MAX_REQUESTS_PER_FLUSH; request++) {
      const packed = packBatches(ready(), batchSize, limits.maxBatchBytes);
      if (packed.oversized.length > 0) {
        dropEvents(options, packed.oversized, `each over ${limits.maxBatchBytes} bytes`);
      }
      const batch = packed.batches[0];
      if (!batch) return true;
      const sending = { ids: idsOf(batch), batch: options.batchId(), handedOver: false };
      underWay = sending;
      const status = await postBatch(options, batch, sending).finally(() => {
        underWay = null;
      });
      // The browser carries it on; its events wait for the acknowledgement.
      if (status === null) continue;
      const settled = settleBatch(options, batch, status, accepted);
      if (settled === 'retry') return false;
      // What a 413 made smaller was about the batch that got it, not the ones after.
      batchSize = settled === 'next' ? limits.batchSize : settled.smaller;
    }
    return true;
  }

  function sendByBeacon(): number {
    const packed = packBatches(ready(), limits.batchSize, limits.maxBatchBytes);
    if (underWay && !underWay.handedOver) {
      handOver(underWay.ids, underWay.batch);
      underWay.handedOver = true;
    }
    let sent = 0;
    for (const batch of packed.batches) {
      const id = options.batchId();
      if (!transport.beacon(batchUrl(options.url, id), batchBody(batch))) break;
      handOver(idsOf(batch), id);
      sent += batch.length;
    }
    return sent;
  }

  return { sendReady, sendByBeacon, takeAcknowledged };
}

/**
 * The upload rules of SPEC.md §7 and §9 over the stored queue: a batch goes when the threshold
 * of ready events is reached and every period; one request at a time, of at most `batchSize`
 * events and `maxBatchBytes`. A 413 halves the batch and sends it again, down to one event, which
 * is then dropped. A failure keeps the events and waits, longer each time.
 *
 * Every request names its batch (`?b=`). What the browser takes over as the page goes away (a
 * beacon, a request under way) stays in the queue until the collector acknowledges its batch
 * (the cookie its answer sets, read by whichever page comes next): at least once, and a batch
 * acknowledged is never sent again. Unacknowledged after ACK_WAIT_MS, it goes again.
 */
export function createUploader(options: UploaderOptions) {
  const { queue, now, timers, log, limits } = options;
  let running: Promise<void> | null = null;
  let backoffMs = 0;
  let retryTimer: unknown = null;
  let periodTimer: unknown = null;
  const sender = createSender(options, () => {
    backoffMs = 0;
  });

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
    running = sender
      .sendReady()
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
     * The page is going away (hidden or left): every ready event goes by beacon now, in batches
     * within the collector's and the beacon's limits; they, and those of the request under way,
     * wait in the queue for the collector's acknowledgement. Stops at the first batch the
     * browser refuses (its beacon quota is full, or it is offline): the rest stay for a later
     * page. A page killed before it could say so (no pagehide) has its request's events sent
     * again after SEND_LEASE_MS unless acknowledged.
     */
    sendByBeacon: sender.sendByBeacon,
    start(): void {
      sender.takeAcknowledged();
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
