import { EventBatch } from '../../shared/analytics/batch';
import { issueText } from '../../shared/validation-issues';
import { crossOriginReason } from '../request/same-origin';
import type { CollectorRefusal } from './refusals';

/**
 * The checks `POST /e` makes before it touches its counters or the queue, as pure functions of the request.
 */

/**
 * Same-origin only, by the worker's one rule (worker/request/same-origin.ts): another site's
 * page could otherwise make a visitor's browser post events with their cookies (a text/plain
 * beacon needs no preflight), and a request with neither `Sec-Fetch-Site` nor `Origin` is no
 * page of ours (our tracker's fetch keepalive and sendBeacon carry both) but a script posting
 * purchases. Refused as `cross_site`, the collector's own answer.
 */
export function crossSiteRefusal(request: Request): CollectorRefusal | null {
  const reason = crossOriginReason(request);
  return reason === null ? null : { error: 'cross_site', detail: reason };
}

/** fetch sends application/json; sendBeacon with a string sends text/plain;charset=UTF-8. */
const BATCH_MEDIA_TYPES = new Set(['application/json', 'text/plain']);

export function mediaTypeRefusal(request: Request): CollectorRefusal | null {
  const mediaType = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  if (mediaType !== undefined && BATCH_MEDIA_TYPES.has(mediaType)) return null;
  return { error: 'unsupported_media_type', detail: mediaType ?? 'no Content-Type' };
}

export type BatchReading =
  | { ok: true; batch: EventBatch }
  | { ok: false; refusal: CollectorRefusal };

/** The body as an EventBatch, else invalid_batch naming the first problem and how many more. */
export function readBatch(text: string): BatchReading {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, refusal: { error: 'invalid_batch', detail: 'body is not JSON' } };
  }
  const parsed = EventBatch.safeParse(json);
  if (parsed.success) return { ok: true, batch: parsed.data };
  const [first, ...others] = parsed.error.issues;
  const more = others.length > 0 ? ` (and ${others.length} more)` : '';
  const detail = `${first ? issueText(first) : 'body: invalid'}${more}`;
  return { ok: false, refusal: { error: 'invalid_batch', detail } };
}
