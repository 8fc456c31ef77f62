/**
 * The limits of the analytics client (SPEC.md §7 Third-party and tracking, §9 Analytics client
 * defaults), shared by the browser tracker that applies them and the collector that enforces them.
 */
export const ANALYTICS_LIMITS = {
  /** Upload as soon as this many events wait. */
  uploadThreshold: 30,
  /** At most this many events per request (halved on a 413, down to one). */
  batchSize: 100,
  /** Upload what waits at least this often. */
  periodMs: 30_000,
  /** A visitor idle this long starts a new session (a new session_id, a session_start event). */
  sessionTimeoutMs: 30 * 60_000,
  /** At most this many events wait in storage; the oldest give way. */
  savedMaxCount: 1000,
  /** Properties per event beyond this are dropped. */
  propertyLimit: 1000,
  /** Strings are cut at this many characters. */
  stringLimit: 4096,
  /**
   * A request body above this is refused by the collector (413). sendBeacon's 64 KiB quota is
   * shared by every beacon in flight, so the page sends chunks of at most this size.
   */
  maxBatchBytes: 60_000,
} as const;
