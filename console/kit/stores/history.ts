import type { FieldError } from '../../../shared/console-api/errors';
import type { Change, VersionSummary, VersionsAnswer } from '../../../shared/console-api/versions';
import { atom } from './atom';
import type { Loaded } from './loaded';

export type HistoryList = Loaded<{ versions: VersionsAnswer['versions'] }>;

/** Every published version, newest first, each with its diff. */
export const $history = atom<HistoryList>({ kind: 'loading' });

/** Where a roll back stands. */
export type RollbackState =
  | { kind: 'idle' }
  | { kind: 'busy'; seq: number }
  | { kind: 'invalid'; seq: number; errors: FieldError[] }
  | { kind: 'conflict'; head: VersionSummary; changes: Change[] }
  | { kind: 'failed'; message: string };

export const $rollback = atom<RollbackState>({ kind: 'idle' });
