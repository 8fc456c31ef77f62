import { isSmokeAgent, type SmokeReceipt } from '../../shared/analytics/smoke';
import { describeError, logWarning } from '../../shared/log';
import type { ArchiveWrite } from './event-archive';

/**
 * Receipts of `npm run smoke`'s events in the event archive (docs/operate.md, "After a deploy"):
 * the smoke posts a beacon and buys, then asks whether both reached the archive, which proves the
 * collector, the events queue, its consumer and the bucket work, where a 200 from `POST /e` only
 * proves the queue took a message.
 *
 * Once an archive object is written, each event in it sent with the smoke's agent
 * (shared/analytics/smoke.ts) by a visitor with a uuid cookie gets a receipt: an empty object
 * `smoke/<visitor uuid>/<insert_id>` beside the archive's `events/` prefix, which no reader of
 * the archive lists, its event type and object in its custom metadata, so one listing answers
 * without a read. The receipts are one R2 write per smoke event: the collector's batch limits per
 * address bound what anyone sending the agent adds, and the bucket's lifecycle rule for `smoke/`
 * removes them after a day (docs/operate.md, "Deploying").
 */
export const SMOKE_RECEIPT_PREFIX = 'smoke/';

/** A listing answers at most this many; a smoke run writes two. */
const RECEIPTS_LISTED = 100;

function visitorPrefix(visitorId: string): string {
  return `${SMOKE_RECEIPT_PREFIX}${visitorId}/`;
}

/**
 * The receipts of one written object's smoke events. A failed receipt is a warning and nothing
 * more: the event is in the archive, and only the smoke that waits for it will say it is not.
 */
export async function writeSmokeReceipts(bucket: R2Bucket, write: ArchiveWrite): Promise<void> {
  const smoke = write.records.filter(
    (record) => isSmokeAgent(record.context.user_agent) && record.context.visitor_id !== null,
  );
  await Promise.all(
    smoke.map(async (record) => {
      const key = `${visitorPrefix(record.context.visitor_id ?? '')}${record.insert_id}`;
      const receipt = { event_type: record.event_type, object: write.key };
      try {
        await bucket.put(key, '', { customMetadata: receipt });
      } catch (error) {
        logWarning('smoke_receipt_failed', { key, detail: describeError(error) });
      }
    }),
  );
}

/** The receipts of the visitor's smoke events, as the archive holds them now. */
export async function smokeReceipts(bucket: R2Bucket, visitorId: string): Promise<SmokeReceipt[]> {
  const prefix = visitorPrefix(visitorId);
  const listed = await bucket.list({ prefix, limit: RECEIPTS_LISTED, include: ['customMetadata'] });
  return listed.objects.map((object) => ({
    insert_id: object.key.slice(prefix.length),
    event_type: object.customMetadata?.event_type ?? '',
    object: object.customMetadata?.object ?? '',
  }));
}
