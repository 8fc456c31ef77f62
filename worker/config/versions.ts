import type { ContentDocument } from '../../shared/config/content';
import type { ExperimentsDocument } from '../../shared/config/experiments';
import type { FlowsDocument } from '../../shared/config/flows';
import type { RoutingDocument } from '../../shared/config/routing';
import type { SplitDocument } from '../../shared/config/split';
import type { ConfigDocument } from '../../shared/console-api/config';
import type {
  PublishedVersion,
  VersionSource,
  VersionSummary,
} from '../../shared/console-api/versions';
import { DEFAULT_CONTENT, DEFAULT_EXPERIMENTS, DEFAULT_ROUTING } from './defaults';

/**
 * The config's version history (worker/config/migrations): one row per publish, never changed
 * once written. Reached through `SqlRunner`, so the worker (D1), `npm run config` locally (D1
 * through wrangler's platform proxy) and remotely (wrangler d1 execute) share these statements.
 */

export type SqlValue = string | number | null;

export interface SqlRunner {
  run(sql: string, params: readonly SqlValue[]): Promise<{ changes: number }>;
  all<T>(sql: string, params: readonly SqlValue[]): Promise<T[]>;
}

export function d1Runner(db: D1Database): SqlRunner {
  return {
    async run(sql, params) {
      const result = await db
        .prepare(sql)
        .bind(...params)
        .run();
      return { changes: result.meta.changes };
    },
    async all<T>(sql: string, params: readonly SqlValue[]) {
      const { results } = await db
        .prepare(sql)
        .bind(...params)
        .all<T>();
      return results;
    },
  };
}

/** A version with the document it published, exactly as written to KV. */
export interface StoredVersion extends VersionSummary {
  document: ConfigDocument;
  /** The KV values, byte for byte. */
  serialized: {
    split: string;
    flows: string;
    routing: string;
    experiments: string;
    content: string;
  };
}

interface VersionRow extends PublishedRow<VersionSource> {
  phase: number;
  split_json: string;
  flows_json: string;
  /** Null on versions published before routes existed (migration 0002). */
  routing_json: string | null;
  /** Null on versions published before the experiments section (migration 0003). */
  experiments_json: string | null;
  /** Null on versions published before the content section (migration 0006). */
  content_json: string | null;
  /** Null on versions published without a review, or before reviews (migration 0007). */
  approver: string | null;
  /** Null on versions published without a review, or before migration 0009. */
  requester: string | null;
  /** Null on versions not published from the shared draft, or before migration 0009. */
  editors_json: string | null;
}

const COLUMNS = [
  'phase',
  'split_json',
  'flows_json',
  'routing_json',
  'experiments_json',
  'content_json',
  'approver',
  'requester',
  'editors_json',
];

/** What a version from before routes published for them: the default route alone. */
const ROUTING_BEFORE_ROUTES = JSON.stringify(DEFAULT_ROUTING);

/**
 * What a version from before the experiments section published for it: no experiment but the
 * split, which is what the edge ran then (a rollback to it publishes that again).
 */
const EXPERIMENTS_BEFORE_SECTION = JSON.stringify(DEFAULT_EXPERIMENTS);

/** What a version from before the content section published for it: no content. */
const CONTENT_BEFORE_SECTION = JSON.stringify(DEFAULT_CONTENT);

function fromRow(row: VersionRow): StoredVersion {
  const routing = row.routing_json ?? ROUTING_BEFORE_ROUTES;
  const experiments = row.experiments_json ?? EXPERIMENTS_BEFORE_SECTION;
  const content = row.content_json ?? CONTENT_BEFORE_SECTION;
  return {
    ...publishedOf(row),
    phase: row.phase,
    ...(row.approver === null ? {} : { approver: row.approver }),
    ...(row.requester === null ? {} : { requester: row.requester }),
    ...(row.editors_json === null ? {} : { editors: JSON.parse(row.editors_json) as string[] }),
    document: {
      split: JSON.parse(row.split_json) as SplitDocument,
      flows: JSON.parse(row.flows_json) as FlowsDocument,
      routing: JSON.parse(routing) as RoutingDocument,
      experiments: JSON.parse(experiments) as ExperimentsDocument,
      content: JSON.parse(content) as ContentDocument,
    },
    serialized: { split: row.split_json, flows: row.flows_json, routing, experiments, content },
  };
}

/** The summary of a stored version, without its document. */
export function summaryOf(version: StoredVersion): VersionSummary {
  const { document: _document, serialized: _serialized, ...summary } = version;
  return summary;
}

/** The columns every version table starts with, as a row reads them: SQL's null for no rollback. */
export type PublishedRow<Source extends string> = Omit<
  PublishedVersion<Source>,
  'restores' | 'breakGlass'
> & {
  restores: number | null;
  /** Null on every version but a break-glass publish's (migration 0009). */
  break_glass: string | null;
};

const PUBLISHED_COLUMNS = [
  'seq',
  'id',
  'at',
  'author',
  'note',
  'base',
  'source',
  'restores',
  'break_glass',
];

/** What a row says of its publish: a rollback names what it restores, another version nothing. */
export function publishedOf<Source extends string>(
  row: PublishedRow<Source>,
): PublishedVersion<Source> {
  const { seq, id, at, author, note, base, source, restores, break_glass } = row;
  return {
    seq,
    id,
    at,
    author,
    note,
    base,
    source,
    ...(restores === null ? {} : { restores }),
    ...(break_glass === null ? {} : { breakGlass: break_glass }),
  };
}

function publishedValues(version: PublishedVersion<string>): SqlValue[] {
  const { seq, id, at, author, note, base, source, restores, breakGlass } = version;
  return [seq, id, at, author, note, base, source, restores ?? null, breakGlass ?? null];
}

/**
 * One table of versions, never changed once written: the config's (below) and the copy's
 * (worker/translations/copy-versions.ts) share the columns of PublishedRow and differ only in
 * the rest and how a row reads.
 */
export interface VersionTable<Row, Version extends PublishedVersion<string>> {
  table: string;
  /** The table's own columns, after the published ones, in the order `values` gives them. */
  columns: readonly string[];
  fromRow(row: Row): Version;
  values(version: Version): SqlValue[];
}

export function versionTableStore<Row, Version extends PublishedVersion<string>>(
  sql: SqlRunner,
  table: VersionTable<Row, Version>,
) {
  const columns = [...PUBLISHED_COLUMNS, ...table.columns];
  const values = (version: Version) => [...publishedValues(version), ...table.values(version)];
  const { fromRow } = table;
  const select = `SELECT ${columns.join(', ')} FROM ${table.table}`;
  return {
    async head(): Promise<Version | null> {
      const [row] = await sql.all<Row>(`${select} ORDER BY seq DESC LIMIT 1`, []);
      return row ? fromRow(row) : null;
    },

    async get(seq: number): Promise<Version | null> {
      const [row] = await sql.all<Row>(`${select} WHERE seq = ?`, [seq]);
      return row ? fromRow(row) : null;
    },

    /** Newest first. */
    async list(limit = 200): Promise<Version[]> {
      const rows = await sql.all<Row>(`${select} ORDER BY seq DESC LIMIT ?`, [limit]);
      return rows.map(fromRow);
    },

    /**
     * Writes `version` if the newest version is still its base (compare-and-set in one
     * statement: D1 runs it alone, and `seq` is the key, so of two publishes from the same base
     * one row is written). False when another publish came first.
     */
    async claim(version: Version): Promise<boolean> {
      const { changes } = await sql.run(
        `INSERT INTO ${table.table} (${columns.join(', ')})
         SELECT ${columns.map(() => '?').join(', ')}
         WHERE (SELECT COALESCE(MAX(seq), 0) FROM ${table.table}) = ?`,
        [...values(version), version.base ?? 0],
      );
      return changes === 1;
    },

    /** Takes back a claimed version whose KV write failed, so history never names a dead one. */
    async release(seq: number): Promise<void> {
      await sql.run(`DELETE FROM ${table.table} WHERE seq = ?`, [seq]);
    },
  };
}

export function versionStore(sql: SqlRunner) {
  const table = versionTableStore<VersionRow, StoredVersion>(sql, {
    table: 'config_versions',
    columns: COLUMNS,
    fromRow,
    values: (version) => [
      version.phase,
      version.serialized.split,
      version.serialized.flows,
      version.serialized.routing,
      version.serialized.experiments,
      version.serialized.content,
      version.approver ?? null,
      version.requester ?? null,
      version.editors === undefined ? null : JSON.stringify(version.editors),
    ],
  });
  return {
    ...table,
    /**
     * The content of the newest `limit` versions, newest first, without the other sections:
     * what the translations' history is read from (worker/content/languages.ts).
     */
    async contents(limit: number): Promise<ContentDocument[]> {
      const rows = await sql.all<{ content_json: string | null }>(
        'SELECT content_json FROM config_versions ORDER BY seq DESC LIMIT ?',
        [limit],
      );
      return rows.map(({ content_json }) => JSON.parse(content_json ?? CONTENT_BEFORE_SECTION));
    },
  };
}

export type VersionStore = ReturnType<typeof versionStore>;
