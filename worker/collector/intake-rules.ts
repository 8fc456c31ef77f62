/**
 * The collector's own limits, beside those it shares with the browser tracker
 * (shared/analytics/limits.ts).
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * An event whose `time` (the visitor's clock) is more than 7 days old is dropped: Meta's
 * Conversions API refuses a whole request holding one, and a week-old event is a stale replay
 * rather than a visit. One up to a day ahead is kept (a visitor's clock may run fast).
 */
export const MAX_EVENT_AGE_MS = 7 * DAY_MS;
export const MAX_EVENT_LEAD_MS = DAY_MS;

/**
 * How long an accepted insert_id is remembered. An event resent later than this would be older
 * than MAX_EVENT_AGE_MS by its own clock (its clock was at most MAX_EVENT_LEAD_MS fast when it
 * was first seen), so it is dropped as stale, never taken for new.
 */
export const SEEN_RETENTION_MS = MAX_EVENT_AGE_MS + MAX_EVENT_LEAD_MS;

/**
 * Cloudflare Queues take at most 128 KB per message; this leaves room for the message's framing.
 * An accepted batch (ANALYTICS_LIMITS.maxBatchBytes, 60 KB) and its context fit in half of it.
 */
export const QUEUE_MESSAGE_BYTES = 120_000;

export type ClockVerdict = 'current' | 'stale' | 'ahead';

export function clockVerdict(eventTime: number, receivedAt: number): ClockVerdict {
  if (eventTime < receivedAt - MAX_EVENT_AGE_MS) return 'stale';
  if (eventTime > receivedAt + MAX_EVENT_LEAD_MS) return 'ahead';
  return 'current';
}
