import type { CollectedEvent, EventBatch } from '../../shared/analytics/batch';

const encoder = new TextEncoder();

function byteLength(text: string): number {
  return encoder.encode(text).byteLength;
}

/** The body of `POST /e` (shared/analytics/batch.ts EventBatch). */
export function batchBody(events: CollectedEvent[]): string {
  const batch: EventBatch = { events };
  return JSON.stringify(batch);
}

/** `{"events":[]}`: what a body weighs besides its events and the commas between them. */
const BODY_OVERHEAD = byteLength(batchBody([]));

export interface Packed {
  /** In queue order, each at most `maxCount` events and `maxBytes` bytes as a body. */
  batches: CollectedEvent[][];
  /** Events too large for a body of their own: no request could ever carry them. */
  oversized: CollectedEvent[];
}

/**
 * Cuts events into request bodies by count and by bytes: the collector refuses a body above
 * ANALYTICS_LIMITS.maxBatchBytes (413), and sendBeacon's 64 KiB quota is shared by every beacon
 * in flight.
 */
export function packBatches(events: CollectedEvent[], maxCount: number, maxBytes: number): Packed {
  const packed: Packed = { batches: [], oversized: [] };
  let batch: CollectedEvent[] = [];
  let bytes = BODY_OVERHEAD;
  for (const event of events) {
    const size = byteLength(JSON.stringify(event));
    if (BODY_OVERHEAD + size > maxBytes) {
      packed.oversized.push(event);
      continue;
    }
    const comma = batch.length > 0 ? 1 : 0;
    if (batch.length >= maxCount || bytes + comma + size > maxBytes) {
      packed.batches.push(batch);
      batch = [];
      bytes = BODY_OVERHEAD;
    }
    bytes += (batch.length > 0 ? 1 : 0) + size;
    batch.push(event);
  }
  if (batch.length > 0) packed.batches.push(batch);
  return packed;
}
