import type { Answer } from '../http/answer';

/**
 * Every answer of `POST /e` (and `GET /e/smoke`, ./smoke-route.ts; `POST /e/exposure`,
 * ./exposure-confirmation-route.ts) other than 200 (204), as `{ error, detail? }` JSON. The tracker keeps a
 * batch refused with 429 or 503 and sends it again; 413 makes it halve its batches; any other
 * refusal will never be accepted, so it drops the batch.
 */
export const COLLECTOR_REFUSALS = {
  /** Not a POST. */
  method_not_allowed: 405,
  /** `Sec-Fetch-Site` other than same-origin, or an `Origin` other than the collector's. */
  cross_site: 403,
  /** Neither application/json nor text/plain (sendBeacon with a string). */
  unsupported_media_type: 415,
  /** Over ANALYTICS_LIMITS.maxBatchBytes, declared or read. */
  payload_too_large: 413,
  /** Not JSON, or not an EventBatch; `detail` names the first problem. */
  invalid_batch: 400,
  /** Over a batch limit of its visitor or address (intake-limits.ts): send it again later. */
  rate_limited: 429,
  /** Its counter (which de-duplicates) or the queue failed: nothing was taken, send it again later. */
  collector_unavailable: 503,
  /** `GET /e/smoke` or `POST /e/exposure` without a visitor uuid cookie: nobody to ask about. */
  no_visitor: 400,
  /**
   * `POST /e/exposure` with no ticket the worker signed for the cookie's visitor within the hour
   * (./exposure-ticket.ts): forged, expired, or another visitor's.
   */
  invalid_ticket: 403,
  /** `GET /e/smoke` on a worker without the EVENTS_ARCHIVE bucket. */
  archive_not_configured: 503,
} as const;

export type CollectorRefusalCode = keyof typeof COLLECTOR_REFUSALS;

export interface CollectorRefusal {
  error: CollectorRefusalCode;
  detail?: string;
  /** Sent as Retry-After (rate_limited). */
  retryAfterSeconds?: number;
}

export function refuseBatch(c: Answer, refusal: CollectorRefusal): Response {
  c.get('logFields').error = refusal.error;
  if (refusal.error === 'method_not_allowed') c.header('Allow', 'POST');
  if (refusal.retryAfterSeconds !== undefined) {
    c.header('Retry-After', String(refusal.retryAfterSeconds));
  }
  const { retryAfterSeconds: _, ...body } = refusal;
  return c.json(body, COLLECTOR_REFUSALS[refusal.error]);
}
