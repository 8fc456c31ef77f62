import type { CopyDocument } from '../../shared/config/copy';
import type { CopySource, CopyVersionSummary } from '../../shared/console-api/copy';
import { type SqlRunner, versionTableStore } from '../config/versions';
import { storedCopy } from './copy-document';

/**
 * The copy's version history (worker/config/migrations/0005): one row per publish of the KV
 * copy overrides, never changed once written. Reached through `SqlRunner` like the config's
 * (worker/config/versions.ts), so the console (D1) and `npm run translations` (locally through
 * wrangler's platform proxy, remotely through wrangler d1 execute) share these statements.
 */

export interface StoredCopyVersion extends CopyVersionSummary {
  copy: CopyDocument;
}

interface CopyRow {
  seq: number;
  id: string;
  at: string;
  author: string;
  note: string;
  base: number | null;
  source: CopySource;
  restores: number | null;
  timestamp: number;
  copy_json: string;
}

const COLUMNS = [
  'seq',
  'id',
  'at',
  'author',
  'note',
  'base',
  'source',
  'restores',
  'timestamp',
  'copy_json',
];

function fromRow(row: CopyRow): StoredCopyVersion {
  return {
    seq: row.seq,
    id: row.id,
    at: row.at,
    author: row.author,
    note: row.note,
    base: row.base,
    source: row.source,
    ...(row.restores === null ? {} : { restores: row.restores }),
    timestamp: row.timestamp,
    copy: storedCopy(row.copy_json, `copy_versions ${row.id}`) ?? {},
  };
}

export function copySummaryOf(version: StoredCopyVersion): CopyVersionSummary {
  const { copy: _copy, ...summary } = version;
  return summary;
}

export function copyVersionStore(sql: SqlRunner) {
  return versionTableStore<CopyRow, StoredCopyVersion>(sql, {
    table: 'copy_versions',
    columns: COLUMNS,
    fromRow,
    values: (version) => [
      version.seq,
      version.id,
      version.at,
      version.author,
      version.note,
      version.base,
      version.source,
      version.restores ?? null,
      version.timestamp,
      JSON.stringify(version.copy),
    ],
  });
}

export type CopyVersionStore = ReturnType<typeof copyVersionStore>;
