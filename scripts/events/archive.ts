import { ARCHIVE_PREFIX, archiveDayPrefix } from '../../worker/collector/archive-layout';
import {
  type ArchivedObject,
  listArchiveObjects,
  readArchiveObject,
} from '../../worker/collector/event-archive';
import { type FollowIo, POLL_INTERVAL_MS } from './follow';
import { formatEventLine } from './format';

/**
 * `npm run events -- archive …`: the local event archive (EVENTS_ARCHIVE, emulated under
 * .wrangler/state), written under `npm start` exactly as a deployed worker writes R2.
 */

/** The archive's objects, all or of one UTC day, in key order (partition, then write time). */
export function archivedObjects(bucket: R2Bucket, date: string | null): Promise<ArchivedObject[]> {
  return listArchiveObjects(bucket, date === null ? ARCHIVE_PREFIX : archiveDayPrefix(date));
}

function writtenFirst(a: ArchivedObject, b: ArchivedObject): number {
  return a.uploaded.getTime() - b.uploaded.getTime() || a.key.localeCompare(b.key);
}

/**
 * Prints the events of every archived object in the order they were written, then polls for new
 * objects until stopped; returns how many events it printed. New objects can land in an older
 * partition (a retried message keeps its received hour), so each poll lists the whole local
 * archive and skips the keys already printed: a development archive is small.
 */
export async function followArchive(bucket: R2Bucket, io: FollowIo): Promise<number> {
  const done = new Set<string>();
  let printed = 0;
  while (!io.stopped()) {
    const objects = await archivedObjects(bucket, null);
    for (const object of objects.filter(({ key }) => !done.has(key)).sort(writtenFirst)) {
      done.add(object.key);
      for (const record of (await readArchiveObject(bucket, object.key)) ?? []) {
        io.print(formatEventLine({ ...record, time: Date.parse(record.time) }));
        printed += 1;
      }
    }
    await io.sleep(POLL_INTERVAL_MS);
  }
  return printed;
}
