/**
 * The config's published versions as the console lists them (`/console/api/versions`), and the
 * differences between two documents that a check, a conflict and the history show.
 */

/** How a version came to be. */
export type VersionSource = 'console' | 'cli' | 'rollback' | 'seed';

/** One published version: immutable once written. */
export interface VersionSummary {
  /** 1, 2, 3…: the order of publishing; a publish names the one it started from. */
  seq: number;
  /** What the pages carry in `split.version` and `flows.version` (e.g. "v12"). */
  id: string;
  /** ISO 8601, the worker's clock. */
  at: string;
  /** Who published: the Access email in production, a fixed local author in development. */
  author: string;
  note: string;
  /** The version it was published on top of; null for the first. */
  base: number | null;
  /** The experiment phase from this version on (starts at 1). */
  phase: number;
  source: VersionSource;
  /** For a rollback: the version whose document it publishes again. */
  restores?: number;
}

/** One difference between two documents, at a path such as `split.variants.lp1.weight`. */
export interface Change {
  path: string;
  kind: 'added' | 'removed' | 'changed';
  before?: unknown;
  after?: unknown;
}

export interface VersionsAnswer {
  versions: (VersionSummary & { diff: Change[] })[];
}
