import type { CopyDocument } from '../../shared/config/copy';
import type { CopySource, CopyVersionSummary } from '../../shared/console-api/copy';
import {
  type PublishedRow,
  publishedOf,
  type SqlRunner,
  versionTableStore,
} from '../config/versions';
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

interface CopyRow extends PublishedRow<CopySource> {
  timestamp: number;
  copy_json: string;
}

const COLUMNS = ['timestamp', 'copy_json'];

function fromRow(row: CopyRow): StoredCopyVersion {
  return {
    ...publishedOf(row),
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
    values: (version) => [version.timestamp, JSON.stringify(version.copy)],
  });
}

export type CopyVersionStore = ReturnType<typeof copyVersionStore>;
