/**
 * The config's published versions as the console lists them (`/console/api/versions`), and the
 * differences between two documents that a check, a conflict and the history show.
 */

/** A break-glass reason's longest (worker/config/gate.ts). */
export const BREAK_GLASS_REASON_MAX = 500;

/**
 * What a publish or roll back asks of the gate where PUBLISH_APPROVAL is `required`
 * (worker/config/gate.ts): `breakGlass` publishes without a second person's approval, its note
 * the reason (needed), announced to the alerts webhook and kept in the history.
 */
export interface BreakGlassRequest {
  breakGlass?: boolean;
}

/** How a version came to be. */
export type VersionSource = 'console' | 'cli' | 'rollback' | 'seed' | 'ramp';

/**
 * What every published version records, the config's and the copy's alike (copy.ts
 * CopyVersionSummary): immutable once written.
 */
export interface PublishedVersion<Source extends string> {
  /** 1, 2, 3…: the order of publishing; a publish names the one it started from. */
  seq: number;
  /** What the pages carry (the config's "v12" in `split.version`, the copy's "c3"). */
  id: string;
  /** ISO 8601, the worker's clock. */
  at: string;
  /** Who published: the Access email in production, a fixed local author in development. */
  author: string;
  note: string;
  /** The version it was published on top of; null for the first. */
  base: number | null;
  source: Source;
  /** For a rollback: the version whose document it publishes again. */
  restores?: number;
  /**
   * Published without a second person's approval where one was required, in an emergency: the
   * reason its author gave, which the team's alerts webhook was told (worker/config/gate.ts).
   */
  breakGlass?: string;
}

/** One published version of the config. */
export interface VersionSummary extends PublishedVersion<VersionSource> {
  /** The experiment phase from this version on (starts at 1). */
  phase: number;
  /**
   * Who approved it, when it was published after a review (docs/marketers.md, "Working as a
   * team"); absent on versions published without one.
   */
  approver?: string;
  /** Who asked for the review the approver gave; absent with no review. */
  requester?: string;
  /** Everyone who edited the shared draft it published; absent on a publish not from the draft. */
  editors?: string[];
}

/** A section as a screen lists it (shared/config/content.ts): its id, and whether it shows. */
export interface PlacedSection {
  id: string;
  visible: boolean;
}

/** One difference between two documents, at a path such as `split.variants.lp1.weight`. */
export interface Change {
  path: string;
  kind: 'added' | 'removed' | 'changed';
  before?: unknown;
  after?: unknown;
  /**
   * For a content variant added, or its section list: the sections of the screen it is laid
   * over (as its content lists them, else as code composes the screen); for a screen's first
   * list of its own, code's. So the review says what the list moves ("Reviews moved above
   * Phone form") instead of listing its sections.
   */
  sectionsOver?: PlacedSection[];
}

export interface VersionsAnswer {
  versions: (VersionSummary & { diff: Change[] })[];
}
