import { type ArchiveLine, readLine } from './archive-line';

/**
 * The event archive's layout (docs/analytics.md, "The event archive"), read as it is by DuckDB,
 * ClickHouse and BigQuery: Hive-style partitions of the collector's received time (UTC),
 *
 *   events/dt=2026-11-22/hour=08/1795334400123-5f3a9c0e.ndjson.gz
 *
 * one object per consumer batch and received hour, named by when it was written and a random
 * token; inside, gzip-compressed newline-delimited JSON, one ArchiveLine (archive-line.ts) per
 * line.
 */

export const ARCHIVE_PREFIX = 'events/';
/** The suffix that tells DuckDB, ClickHouse and BigQuery the object is gzip-compressed NDJSON. */
const ARCHIVE_SUFFIX = '.ndjson.gz';

/** A partition's path: `events/dt=YYYY-MM-DD/hour=HH/`. */
export type ArchivePartition = `${typeof ARCHIVE_PREFIX}dt=${string}/hour=${string}/`;

/** The partition holding events the collector received at `receivedAt` (epoch ms, UTC). */
export function archivePartition(receivedAt: number): ArchivePartition {
  const iso = new Date(receivedAt).toISOString();
  return `${ARCHIVE_PREFIX}dt=${iso.slice(0, 10)}/hour=${iso.slice(11, 13)}/`;
}

/** Every object of one UTC day: `events/dt=YYYY-MM-DD/`. */
export function archiveDayPrefix(date: string): string {
  return `${ARCHIVE_PREFIX}dt=${date}/`;
}

/**
 * An object's key: its partition, then the write time (epoch ms, 13 digits until the year 2286,
 * so names sort in write order) and a random token, so two batches written in the same
 * millisecond never overwrite each other.
 */
export function archiveObjectKey(
  partition: ArchivePartition,
  writtenAt: number,
  token: string,
): string {
  return `${partition}${writtenAt}-${token}${ARCHIVE_SUFFIX}`;
}

/** Each partition's lines, in the order given. */
export function recordsByPartition(
  records: readonly ArchiveLine[],
): Map<ArchivePartition, ArchiveLine[]> {
  const partitions = new Map<ArchivePartition, ArchiveLine[]>();
  for (const record of records) {
    const partition = archivePartition(Date.parse(record.received_at));
    const known = partitions.get(partition);
    if (known) known.push(record);
    else partitions.set(partition, [record]);
  }
  return partitions;
}

/** The object's text before compression: one JSON line per record, each ending in a newline. */
export function toNdjson(records: readonly ArchiveLine[]): string {
  return records.map((record) => `${JSON.stringify(record)}\n`).join('');
}

/**
 * The lines of an object's text (toNdjson's inverse), each in the current shape, an object written
 * before the line version existed included (readLine); blank lines are skipped.
 */
export function fromNdjson(text: string): ArchiveLine[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => readLine(JSON.parse(line)));
}
