/**
 * The console's shared draft (`/console/api/draft`): the one draft every marketer with console
 * access sees and edits, kept by the worker so it survives a reload and a second browser, and
 * its review: a request for a second person's approval, which publishing changes that move
 * traffic or money needs when the worker's PUBLISH_APPROVAL is `required` (docs/operate.md).
 */

import type { ConfigDocument } from './config';
import type { Change } from './versions';

/** Where the shared draft's calls live. */
export const CONSOLE_DRAFT_API = {
  /** GET: the draft (DraftAnswer). PUT DraftSaveRequest: saves an edit as the next revision. */
  draft: '/console/api/draft',
  /** POST ReviewRequest: asks a second person to approve this revision. */
  review: '/console/api/draft/review',
  /** POST ApproveRequest: approves this revision (not by one of its editors). */
  approve: '/console/api/draft/approve',
  /**
   * POST RestoreRequest: an earlier version's document as the draft's next revision, to be
   * reviewed and published: a roll back where approval is required. Answered as a save.
   */
  restore: '/console/api/draft/restore',
  /**
   * GET: every console token's change set (ChangeSetsAnswer), people only: what tools and agents
   * prepared (tokens.ts). POST `${changeSets}/take` TakeChangeSetRequest: one of them as the
   * draft's next revision, by the person taking it, to be reviewed and published as any edit.
   * Answered as a save.
   */
  changeSets: '/console/api/draft/change-sets',
} as const;

/** A console token's change set: its own draft, owned by `token:<name>`. */
export interface ChangeSet {
  owner: string;
  draft: SharedDraft;
}

/** GET change-sets: newest first. */
export interface ChangeSetsAnswer {
  ok: true;
  changeSets: ChangeSet[];
}

/** POST change-sets/take: the draft's revision the console showed (0: none), and whose set. */
export interface TakeChangeSetRequest {
  revision: number;
  owner: string;
}

/** POST restore: the revision the console showed (0: none saved yet), the version to restore. */
export interface RestoreRequest {
  revision: number;
  seq: number;
}

/** A request for review of one revision, and its approval once given. */
export interface DraftReview {
  /** Who asked (the Access email). */
  requestedBy: string;
  /** What the reviewer should look at; may be empty. */
  note: string;
  /** ISO 8601. */
  at: string;
  /** Who approved it; absent until someone does. Never one of the revision's editors. */
  approvedBy?: string;
  approvedAt?: string;
}

/** The draft as the worker keeps it. */
export interface SharedDraft {
  /** 1, 2, 3…: each save is the next; a save names the one it started from. */
  revision: number;
  /** The published version's seq it was started from; null before the first publish. */
  base: number | null;
  document: ConfigDocument;
  /** Weights of the variants paused in this draft, which Resume gives back. */
  pausedWeights: Record<string, number>;
  /** Everyone who edited it since its base: none of them may approve it. */
  editors: string[];
  /** Who saved this revision, and when (ISO 8601). */
  editedBy: string;
  at: string;
  /** The review asked for this revision; null when none (any save drops it). */
  review: DraftReview | null;
}

/** GET draft: the draft (null: nobody saved one since the last publish) and the setting. */
export interface DraftAnswer {
  ok: true;
  draft: SharedDraft | null;
  /** Whether changes that move traffic or money need a second person's approval. */
  approvalRequired: boolean;
}

/** PUT draft. `revision`: the one the edit started from (0: none saved yet). */
export interface DraftSaveRequest {
  revision: number;
  base: number | null;
  document: ConfigDocument;
  pausedWeights: Record<string, number>;
  /**
   * Saved on an older revision after a conflict: merge with what came between, keeping this
   * save's values where both changed the same place ("keep mine").
   */
  keepMine?: boolean;
}

/**
 * 200 from a save. `merged`: the save started from an older revision and someone else's edits,
 * touching other parts of the document, were merged in; these are theirs.
 */
export interface DraftSavedAnswer {
  ok: true;
  draft: SharedDraft;
  merged?: Change[];
}

/**
 * 409 from a save, review or approval on a revision that is not the newest: the draft as it is
 * now, what its other editors changed since the revision you started from (`theirs`), and the
 * places both of you changed (`clashes`, paths), where a merge cannot choose.
 */
export interface DraftConflictAnswer {
  ok: false;
  error: 'draft_conflict';
  draft: SharedDraft;
  theirs: Change[];
  clashes: string[];
}

/** POST review. */
export interface ReviewRequest {
  revision: number;
  note?: string;
}

/** POST approve. */
export interface ApproveRequest {
  revision: number;
}

/** 200 from review and approve: the draft with its review. */
export interface DraftReviewAnswer {
  ok: true;
  draft: SharedDraft;
}

/** One change of a publish that needs a second person's approval, and why. */
export interface ApprovalReason {
  path: string;
  /** e.g. 'moves traffic', 'moves money', 'starts or ends an experiment'. */
  reason: string;
}
