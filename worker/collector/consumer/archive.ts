import { describeError } from '../../../shared/log';
import { archiveLine } from '../archive-line';
import { archiveWrites, putArchiveObject } from '../event-archive';
import { writeSmokeReceipts } from '../smoke-receipts';
import type { Destination } from './destination';
import { failedForNow } from './outcome';

function randomToken(): string {
  return crypto.randomUUID().slice(0, 8);
}

/**
 * The first-party record of every event, with or without Amplitude beside it: one gzip NDJSON
 * object per batch and received hour in the EVENTS_ARCHIVE bucket (archive-layout.ts), one
 * ArchiveLine a line (archive-line.ts). A
 * failed write retries that object's events; a message delivered again after its object was
 * written but before its delivery was recorded lands in a second object, so readers take each
 * insert_id once (docs/analytics.md, "The event archive"). The smoke's events get a receipt once
 * their object is written (../smoke-receipts.ts).
 */
export function archiveDestination(
  bucket: R2Bucket,
  options: { now?: () => number; token?: () => string } = {},
): Destination {
  const now = options.now ?? Date.now;
  const token = options.token ?? randomToken;
  return {
    name: 'archive',
    takes: () => true,
    async deliver(messages, noted) {
      const writes = archiveWrites(messages.map(archiveLine), now(), token);
      const failed = new Set<string>();
      await Promise.all(
        writes.map(async (write) => {
          try {
            await putArchiveObject(bucket, write);
          } catch (error) {
            failedForNow(
              'archive_write_failed',
              { key: write.key, events: write.records.length, detail: describeError(error) },
              noted,
            );
            for (const record of write.records) failed.add(record.insert_id);
            return;
          }
          await writeSmokeReceipts(bucket, write);
        }),
      );
      return messages.map((message) =>
        failed.has(message.event.insert_id) ? 'retry' : 'delivered',
      );
    },
  };
}

/**
 * A deployed worker without the EVENTS_ARCHIVE binding has nowhere to keep its record of events
 * but D1, which raw events would fill in days: it says so on every batch
 * (archive_not_configured, to alert on) and retries, so nothing is lost while someone binds the
 * bucket; what is still unbound after the queue's retries reaches the dead letters.
 */
export function unconfiguredArchiveDestination(): Destination {
  return {
    name: 'archive',
    takes: () => true,
    async deliver(messages, noted) {
      const retry = failedForNow(
        'archive_not_configured',
        { events: messages.length, binding: 'EVENTS_ARCHIVE' },
        noted,
      );
      return messages.map(() => retry);
    },
  };
}
