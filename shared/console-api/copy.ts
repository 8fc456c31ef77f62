/**
 * What the console's Copy area and the worker say to each other (`/console/api/copy/*`): the
 * keys there are, the overrides in effect, the review, publish and roll back of a copy change,
 * and the copy's version history. Plain types and constants, as the rest of this folder.
 */

import type { CopyDocument } from '../config/copy';
import type { LanguageNote } from './languages';
import type { BreakGlassRequest, Change, PublishedVersion } from './versions';

export const CONSOLE_COPY_API = {
  /** GET: every key with its English and bundled texts, the overrides live, the head (CopyState). */
  state: '/console/api/copy',
  /** POST CopyPublishRequest: the checks and the diff, writing nothing (CopyCheckAnswer). */
  check: '/console/api/copy/check',
  /** POST CopyPublishRequest: publishes the overrides as the next copy version. */
  publish: '/console/api/copy/publish',
  /** POST {base, seq, note}: publishes an earlier copy version's overrides again. */
  rollback: '/console/api/copy/rollback',
  /**
   * POST {copy}: checks the draft and stores it for an hour; answers preview links that show it
   * (CopyPreviewAnswer). Nothing is published; other preview links show the live copy.
   */
  preview: '/console/api/copy/preview',
  /** GET: every copy version, newest first, each with its diff (CopyVersionsAnswer). */
  versions: '/console/api/copy/versions',
} as const;

export type CopySource = 'console' | 'cli' | 'rollback';

/** One published copy version: "c3", counted apart from the config's "v12". */
export interface CopyVersionSummary extends PublishedVersion<CopySource> {
  /** The `translations:manifest` timestamp the overrides were stored under. */
  timestamp: number;
}

/** One key of the bundled files, with the text each language ships for it. */
export interface CopyKey {
  /** Flat and dotted: `landing.phone.locate`, `i18n.trial_days_one`. */
  key: string;
  /** The locale area (file) it lives in: landing, plans, signup… */
  area: string;
  /** The English text it translates (a plural form: English's `_other`). */
  english: string;
  /** Per language that may override it, the bundled text ('' when the file lacks the form). */
  bundled: Record<string, string>;
}

export interface CopyState {
  /** The shipped languages, English first. */
  languages: { code: string; name: string }[];
  /** The locale areas, each with where its copy shows. */
  areas: { id: string; shows: string }[];
  keys: CopyKey[];
  /** The overrides KV holds now (what the edge lays over the bundled text). */
  live: CopyDocument;
  /**
   * The translators' to-do: each text whose English the live copy or the live content changed
   * and a language has not been given since, at its path (`copy.de.landing.title`,
   * `content.screens.one_pager.copy.de.…`). It clears as each language is published.
   */
  outdated: LanguageNote[];
  head: CopyVersionSummary | null;
  /** Set when KV's copy is not the head's (written around the console and the CLI). */
  drift: string | null;
  /**
   * Each language's preview link (the default variant's first screen in that language; in
   * production, where the browser picks the language, the same link for all).
   */
  pages: Record<string, string>;
}

export interface CopyPublishRequest extends BreakGlassRequest {
  base: number | null;
  /** Every override to be in effect after the publish; a language left out has none. */
  copy: CopyDocument;
  note?: string;
}

export interface CopyRollbackRequest extends BreakGlassRequest {
  base: number | null;
  seq: number;
  note?: string;
}

/** 200 from check. Refusals are the config's: 400 invalid_config (paths `copy.es.<key>`), 409. */
export interface CopyCheckAnswer {
  ok: true;
  diff: Change[];
  /** What visitors in each other language see of the draft's English changes, once published. */
  languages: LanguageNote[];
}

export interface CopyPublishAnswer {
  ok: true;
  version: CopyVersionSummary;
}

/** 400 invalid_config and 409 version_conflict answer as the config's do (InvalidAnswer). */
export interface CopyConflictAnswer {
  ok: false;
  error: 'version_conflict';
  head: CopyVersionSummary;
  changes: Change[];
}

export interface CopyVersionsAnswer {
  versions: (CopyVersionSummary & { diff: Change[] })[];
}

/** 200 from preview: per language, a preview link that shows the draft (for an hour). */
export interface CopyPreviewAnswer {
  ok: true;
  pages: Record<string, string>;
}
