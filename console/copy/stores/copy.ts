import type {
  CopyState,
  CopyVersionSummary,
  CopyVersionsAnswer,
} from '../../../shared/console-api/copy';
import type { FieldError } from '../../../shared/console-api/errors';
import type { LanguageNote } from '../../../shared/console-api/languages';
import type { Change } from '../../../shared/console-api/versions';
import { changesText } from '../../kit/change-text';
import { atom } from '../../kit/stores/atom';
import { type Loaded, loadedFrom, refusalText } from '../../kit/stores/loaded';
import {
  checkCopy,
  fetchCopy,
  fetchCopyVersions,
  previewCopy,
  publishCopy,
  rollBackCopy,
} from '../copy-api';
import { type CopyEdits, draftDocument } from '../copy-text';

/**
 * The Copy area's stores and actions: the keys and overrides live, the marketer's edits, the
 * review and publish of them, and the copy versions the History lists and rolls back.
 */

export type CopyLoad = Loaded<{ state: CopyState }>;

export const $copy = atom<CopyLoad>({ kind: 'loading' });

/** Edits not yet published: language → key → text (null: back to the bundled text). */
export const $copyEdits = atom<CopyEdits>({});

/** The key open in the editor (its every language side by side); null: none picked yet. */
export const $copySelected = atom<string | null>(null);

export type CopyReview =
  | { kind: 'idle' }
  | { kind: 'checking' }
  | {
      kind: 'checked';
      document: string;
      diff: Change[];
      /** What visitors in each other language see of the draft's English changes (the worker's). */
      languages: LanguageNote[];
      publishing: boolean;
    }
  | { kind: 'invalid'; errors: FieldError[] }
  | { kind: 'conflict'; head: CopyVersionSummary; changes: Change[] }
  | { kind: 'failed'; message: string };

export const $copyReview = atom<CopyReview>({ kind: 'idle' });

export type CopyHistoryList = Loaded<{ versions: CopyVersionsAnswer['versions'] }>;

export const $copyHistory = atom<CopyHistoryList>({ kind: 'loading' });

export type CopyRollback =
  | { kind: 'idle' }
  | { kind: 'busy'; seq: number }
  | { kind: 'refused'; seq: number; message: string };

export const $copyRollback = atom<CopyRollback>({ kind: 'idle' });

/** The draft's preview: the links that show it, once the worker has taken it. */
export type CopyPreview =
  | { kind: 'idle' }
  | { kind: 'busy'; language: string }
  | { kind: 'ready'; language: string; url: string; document: string }
  | { kind: 'refused'; language: string; message: string };

export const $copyPreview = atom<CopyPreview>({ kind: 'idle' });

/** The Copy area's and the copy history's status lines. */
export const $copyStatus = atom('');
export const $copyHistoryStatus = atom('');
export const COPY_STATUS_ID = 'copy-status';
export const COPY_HISTORY_STATUS_ID = 'copy-history-status';

/** What a publish of the edits would put in effect, or null before the state is loaded. */
function draftCopy() {
  const copy = $copy.get();
  if (copy.kind !== 'ready') return null;
  const bundled = new Map(copy.state.keys.map((k) => [k.key, k.bundled]));
  return draftDocument(
    copy.state.live,
    $copyEdits.get(),
    (language, key) => bundled.get(key)?.[language],
  );
}

async function loadCopyHistory(): Promise<void> {
  const answer = await fetchCopyVersions();
  $copyHistory.set(loadedFrom(answer, ({ versions }) => ({ versions })));
}

/** Loads the keys, the live overrides and the copy history; the edits start afresh. */
export async function loadCopy(): Promise<void> {
  const [state] = await Promise.all([fetchCopy(), loadCopyHistory()]);
  $copyPreview.set({ kind: 'idle' });
  $copy.set(loadedFrom(state, (value) => ({ state: value })));
  $copyEdits.set({});
  $copyReview.set({ kind: 'idle' });
  $copyRollback.set({ kind: 'idle' });
}

/** One text of the draft: `text` (null: back to the bundled text). */
export function editText(language: string, key: string, text: string | null): void {
  const edits = $copyEdits.get();
  $copyEdits.set({ ...edits, [language]: { ...(edits[language] ?? {}), [key]: text } });
}

export function discardCopyEdits(): void {
  $copyEdits.set({});
  $copyReview.set({ kind: 'idle' });
  $copyStatus.set('Your copy changes were discarded.');
}

function baseSeq(): number | null {
  const copy = $copy.get();
  return copy.kind === 'ready' ? (copy.state.head?.seq ?? null) : null;
}

/** Asks the worker to check the draft's copy and say what a publish would change. */
export async function reviewCopy(): Promise<void> {
  const document = draftCopy();
  if (!document) return;
  $copyReview.set({ kind: 'checking' });
  $copyStatus.set('');
  const answer = await checkCopy({ base: baseSeq(), copy: document });
  if (!answer.ok) {
    const { refusal } = answer;
    $copyReview.set(
      refusal.kind === 'failed' ? { kind: 'failed', message: refusalText(refusal) } : refusal,
    );
    return;
  }
  const { diff, languages } = answer.value;
  $copyReview.set({
    kind: 'checked',
    document: JSON.stringify(document),
    diff,
    languages,
    publishing: false,
  });
  $copyStatus.set(`Reviewed: ${changesText(diff)}.`);
}

/** Whether the review still describes the draft (an edit after it needs a new review). */
export function copyReviewIsCurrent(review: CopyReview): boolean {
  return review.kind === 'checked' && review.document === JSON.stringify(draftCopy());
}

/** Publishes the reviewed copy; true when it is live. */
export async function publishCopyDraft(note: string, breakGlass = false): Promise<boolean> {
  const review = $copyReview.get();
  const document = draftCopy();
  if (!document || review.kind !== 'checked' || !copyReviewIsCurrent(review)) return false;
  $copyReview.set({ ...review, publishing: true });
  const answer = await publishCopy({
    base: baseSeq(),
    copy: document,
    note,
    ...(breakGlass ? { breakGlass } : {}),
  });
  if (!answer.ok) {
    const { refusal } = answer;
    $copyReview.set(
      refusal.kind === 'failed' ? { kind: 'failed', message: refusalText(refusal) } : refusal,
    );
    return false;
  }
  await loadCopy();
  $copyStatus.set(`Published ${answer.value.version.id}. Pages show it within the cache time.`);
  return true;
}

/** Publishes copy version `seq`'s overrides again, as a new copy version. */
export async function rollBackCopyTo(
  seq: number,
  versionId: string,
  note: string,
  breakGlass = false,
) {
  $copyRollback.set({ kind: 'busy', seq });
  $copyHistoryStatus.set('');
  const answer = await rollBackCopy({
    base: baseSeq(),
    seq,
    note,
    ...(breakGlass ? { breakGlass } : {}),
  });
  if (answer.ok) {
    await loadCopy();
    $copyHistoryStatus.set(
      `Rolled back: ${answer.value.version.id} publishes the copy of ${versionId} again.`,
    );
    return true;
  }
  const { refusal } = answer;
  const message =
    refusal.kind === 'conflict'
      ? `${refusal.head.id} was published meanwhile; nothing was rolled back. Reload the page.`
      : refusal.kind === 'invalid'
        ? `The copy of ${versionId} is refused now: ${refusal.errors.map((e) => `${e.path} ${e.message}`).join('; ')}`
        : refusalText(refusal);
  $copyRollback.set({ kind: 'refused', seq, message });
  return false;
}

/**
 * Hands the draft to the worker for this browser's preview pages (an hour, nothing published);
 * the link to open appears beside `language`'s field.
 */
export async function previewDraft(language: string): Promise<void> {
  const document = draftCopy();
  if (!document) return;
  $copyPreview.set({ kind: 'busy', language });
  const answer = await previewCopy(document);
  if (answer.ok) {
    const url = answer.value.pages[language] ?? Object.values(answer.value.pages)[0] ?? '/';
    $copyPreview.set({ kind: 'ready', language, url, document: JSON.stringify(document) });
    return;
  }
  const { refusal } = answer;
  const message =
    refusal.kind === 'invalid'
      ? `Not previewable: ${refusal.errors.map((e) => `${e.path.replace(/^copy\./, '')} ${e.message}`).join('; ')}`
      : refusalText(refusal);
  $copyPreview.set({ kind: 'refused', language, message });
}

/** Whether the preview set up still shows the draft as it is now. */
export function copyPreviewIsCurrent(preview: CopyPreview): boolean {
  return preview.kind === 'ready' && preview.document === JSON.stringify(draftCopy());
}
