import { archiveObjectKey, fromNdjson, recordsByPartition, toNdjson } from './archive-layout';
import type { ArchiveLine } from './archive-line';

/**
 * The event archive (EVENTS_ARCHIVE, an R2 bucket; layout in archive-layout.ts): written by the
 * queue consumer on the edge (consumer/archive.ts), read from Node through wrangler's platform
 * proxy (`npm run events -- archive …`, scripts/events/archive.ts).
 */

/**
 * The object's metadata. No Content-Encoding: with `Content-Encoding: gzip` a store or a cache
 * may serve the object decompressed to a client that does not ask for gzip (Cloud Storage's
 * decompressive transcoding, should the archive be copied there for BigQuery), and a reader
 * would then find plain text under a `.gz` name. The readers know gzip from the suffix, so the
 * bytes stay as written everywhere.
 */
const HTTP_METADATA: R2HTTPMetadata = { contentType: 'application/gzip' };

async function gzip(text: string): Promise<ArrayBuffer> {
  const compressed = new Blob([text]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Response(compressed).arrayBuffer();
}

async function gunzip(bytes: ArrayBuffer): Promise<string> {
  const plain = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Response(plain).text();
}

export interface ArchiveWrite {
  key: string;
  records: ArchiveLine[];
}

/**
 * The objects one batch becomes: one per received hour (nearly always one; a batch holding
 * retried messages can span hours). `token` makes each name unique.
 */
export function archiveWrites(
  records: readonly ArchiveLine[],
  writtenAt: number,
  token: () => string,
): ArchiveWrite[] {
  return [...recordsByPartition(records)].map(([partition, inPartition]) => ({
    key: archiveObjectKey(partition, writtenAt, token()),
    records: inPartition,
  }));
}

/** Writes one object; `events` in its custom metadata lets a listing count without reading. */
export async function putArchiveObject(bucket: R2Bucket, write: ArchiveWrite): Promise<void> {
  await bucket.put(write.key, await gzip(toNdjson(write.records)), {
    httpMetadata: HTTP_METADATA,
    customMetadata: { events: String(write.records.length) },
  });
}

/** An object's text, decompressed, or null when there is no such object. */
export async function readArchiveText(bucket: R2Bucket, key: string): Promise<string | null> {
  const object = await bucket.get(key);
  if (object === null) return null;
  return gunzip(await object.arrayBuffer());
}

/** An object's records, or null when there is no such object. */
export async function readArchiveObject(
  bucket: R2Bucket,
  key: string,
): Promise<ArchiveLine[] | null> {
  const text = await readArchiveText(bucket, key);
  return text === null ? null : fromNdjson(text);
}

export interface ArchivedObject {
  key: string;
  /** Compressed bytes. */
  size: number;
  /** How many events it holds; null for an object written without the count. */
  events: number | null;
  uploaded: Date;
}

/** Every object under `prefix`, in key order (page by page, as R2 lists at most 1000 at once). */
export async function listArchiveObjects(
  bucket: R2Bucket,
  prefix: string,
): Promise<ArchivedObject[]> {
  const objects: ArchivedObject[] = [];
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix, cursor, include: ['customMetadata'] });
    for (const object of page.objects) {
      const events = Number(object.customMetadata?.events);
      objects.push({
        key: object.key,
        size: object.size,
        events: Number.isInteger(events) ? events : null,
        uploaded: object.uploaded,
      });
    }
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor !== undefined);
  return objects;
}
