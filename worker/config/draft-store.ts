import type { ConfigDocument } from '../../shared/console-api/config';
import type { DraftReview, SharedDraft } from '../../shared/console-api/draft';
import type { Bindings } from '../env';
import { d1Runner, type SqlRunner, type VersionStore, versionStore } from './versions';

/**
 * The console's shared draft in CONFIG_DB (migrations/0007_shared_draft.sql): a row per saved
 * revision, the newest being the draft. A console token's edits are a change set of their own,
 * kept the same way under the token's owner (migrations/0011_console_tokens.sql). A save claims the next revision only if the newest is
 * still the one it started from (one statement, as a publish claims its version), so of two
 * saves from the same revision one is written and the other is merged or refused
 * (worker/console/draft-route.ts). A review and its approval are written on their revision's
 * row, and only while it is the newest: a later save is a new row with neither.
 */

/** Revisions kept: a save started from an older one can no longer be merged, only refused. */
const DRAFT_REVISIONS_KEPT = 50;

interface DraftRow {
  revision: number;
  base: number | null;
  document_json: string;
  paused_json: string;
  editors_json: string;
  edited_by: string;
  at: string;
  review_by: string | null;
  review_note: string | null;
  review_at: string | null;
  approved_by: string | null;
  approved_at: string | null;
}

const COLUMNS = [
  'revision',
  'base',
  'document_json',
  'paused_json',
  'editors_json',
  'edited_by',
  'at',
  'review_by',
  'review_note',
  'review_at',
  'approved_by',
  'approved_at',
];

const TABLE = 'console_draft_revisions';
/** The newest revision of the owner bound first among a statement's parameters. */
const NEWEST = `(SELECT COALESCE(MAX(revision), 0) FROM ${TABLE} WHERE owner = ?)`;

/** The owner of the team's shared draft; a token's change set is owned by `token:<name>`. */
export const TEAM_DRAFT = '';

function reviewOf(row: DraftRow): DraftReview | null {
  if (row.review_by === null) return null;
  return {
    requestedBy: row.review_by,
    note: row.review_note ?? '',
    at: row.review_at ?? row.at,
    ...(row.approved_by === null
      ? {}
      : { approvedBy: row.approved_by, approvedAt: row.approved_at ?? row.at }),
  };
}

function fromRow(row: DraftRow): SharedDraft {
  return {
    revision: row.revision,
    base: row.base,
    document: JSON.parse(row.document_json) as ConfigDocument,
    pausedWeights: JSON.parse(row.paused_json) as Record<string, number>,
    editors: JSON.parse(row.editors_json) as string[],
    editedBy: row.edited_by,
    at: row.at,
    review: reviewOf(row),
  };
}

/**
 * The revisions of `owner`'s draft in CONFIG_DB, through `sql` (the worker's D1): the team's
 * shared draft unless a token's change set is named.
 */
export function draftStore(sql: SqlRunner, owner: string = TEAM_DRAFT) {
  const select = `SELECT ${COLUMNS.join(', ')} FROM ${TABLE} WHERE owner = ?`;
  return {
    /** The draft: the newest revision, or null when none was ever saved. */
    async newest(): Promise<SharedDraft | null> {
      const [row] = await sql.all<DraftRow>(`${select} ORDER BY revision DESC LIMIT 1`, [owner]);
      return row ? fromRow(row) : null;
    },

    /** A kept revision, the ancestor of a merge; null when pruned or never saved. */
    async get(revision: number): Promise<SharedDraft | null> {
      const [row] = await sql.all<DraftRow>(`${select} AND revision = ?`, [owner, revision]);
      return row ? fromRow(row) : null;
    },

    /**
     * Writes `draft` (its revision the newest + 1) if the newest is still `draft.revision - 1`;
     * false when another save came first. Revisions older than the kept ones are dropped.
     */
    async claim(draft: SharedDraft): Promise<boolean> {
      const { changes } = await sql.run(
        `INSERT INTO ${TABLE} (owner, ${COLUMNS.join(', ')})
         SELECT ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, NULL, NULL, NULL
         WHERE ${NEWEST} = ?`,
        [
          owner,
          draft.revision,
          draft.base,
          JSON.stringify(draft.document),
          JSON.stringify(draft.pausedWeights),
          JSON.stringify(draft.editors),
          draft.editedBy,
          draft.at,
          owner,
          draft.revision - 1,
        ],
      );
      if (changes !== 1) return false;
      await sql.run(`DELETE FROM ${TABLE} WHERE owner = ? AND revision <= ?`, [
        owner,
        draft.revision - DRAFT_REVISIONS_KEPT,
      ]);
      return true;
    },

    /** Asks for a review of `revision` while it is the newest; false when it is not. */
    async requestReview(revision: number, by: string, note: string, at: string): Promise<boolean> {
      const { changes } = await sql.run(
        `UPDATE ${TABLE} SET review_by = ?, review_note = ?, review_at = ?,
           approved_by = NULL, approved_at = NULL
         WHERE owner = ? AND revision = ? AND revision = ${NEWEST}`,
        [by, note, at, owner, revision, owner],
      );
      return changes === 1;
    },

    /** Approves `revision` while it is the newest and under review; false otherwise. */
    async approve(revision: number, by: string, at: string): Promise<boolean> {
      const { changes } = await sql.run(
        `UPDATE ${TABLE} SET approved_by = ?, approved_at = ?
         WHERE owner = ? AND revision = ? AND revision = ${NEWEST} AND review_by IS NOT NULL`,
        [by, at, owner, revision, owner],
      );
      return changes === 1;
    },
  };
}

/** What the console's draft calls read and write the draft through. */
export type DraftStore = ReturnType<typeof draftStore>;

/** The draft's revisions and the published versions, both in CONFIG_DB. */
export interface DraftStores {
  drafts: DraftStore;
  versions: VersionStore;
}

/** `owner`'s draft (the team's unless named) and the history's stores in `env`'s CONFIG_DB. */
export function draftStoresOf(env: Bindings, owner: string = TEAM_DRAFT): DraftStores {
  const sql = d1Runner(env.CONFIG_DB);
  return { drafts: draftStore(sql, owner), versions: versionStore(sql) };
}

/** A token's change set as a person sees it: whose it is, and its newest revision. */
export interface ChangeSetRow {
  owner: string;
  draft: SharedDraft;
}

/**
 * The newest revision of every token's change set, newest first: what a person may take into
 * the team's draft. A handful of tokens with at most DRAFT_REVISIONS_KEPT rows each.
 */
export async function changeSetsOf(env: Bindings): Promise<ChangeSetRow[]> {
  const rows = await d1Runner(env.CONFIG_DB).all<DraftRow & { owner: string }>(
    `SELECT owner, ${COLUMNS.join(', ')} FROM ${TABLE} AS d
     WHERE owner <> ? AND revision = (SELECT MAX(revision) FROM ${TABLE} WHERE owner = d.owner)
     ORDER BY at DESC`,
    [TEAM_DRAFT],
  );
  return rows.map((row) => ({ owner: row.owner, draft: fromRow(row) }));
}
