import type { DraftReview, DraftSavedAnswer, SharedDraft } from '../../../shared/console-api/draft';
import type { Change } from '../../../shared/console-api/versions';
import type { Answer } from '../api';
import {
  approveRevision,
  askForReview,
  fetchSharedDraft,
  restoreToDraft,
  saveSharedDraft,
  takeChangeSetIntoDraft,
} from '../draft-api';
import { atom } from './atom';
import { $draft, type Draft } from './draft';
import { refusalText } from './loaded';

/**
 * The draft as the team shares it (shared/console-api/draft.ts): loaded from the worker when the
 * console opens, saved a second after each edit with the revision it started from, and its
 * review. A save refused because someone saved meanwhile on the same places waits here for the
 * marketer's choice: take theirs, or keep yours where both changed. A worker that keeps no draft
 * (or cannot be read) leaves the draft in this tab, as before (docs/marketers.md).
 */

/** Someone else's save came first and changed the places you changed too. */
export interface DraftClash {
  draft: SharedDraft;
  /** What they changed since your revision. */
  theirs: Change[];
  /** Paths both of you changed. */
  clashes: string[];
}

/** Whether this tab's edits are saved: yes, soon (after the delay), now, or refused. */
export type SaveState = 'saved' | 'waiting' | 'saving' | 'failed';

/** The draft kept in this tab only, or the team's with its revision, review and save state. */
export type SharedDraftState =
  | { kind: 'local' }
  | {
      kind: 'shared';
      /** The revision this tab's draft started from (0: none saved yet). */
      revision: number;
      editors: string[];
      editedBy: string | null;
      at: string | null;
      review: DraftReview | null;
      approvalRequired: boolean;
      saving: SaveState;
      /** Why the last save or review call failed, for the marketer. */
      failure: string | null;
      clash: DraftClash | null;
      /** What others changed that the last save merged in. */
      merged: Change[];
    };

/** Where this tab's draft stands with the worker's shared draft. */
export const $sharedDraft = atom<SharedDraftState>({ kind: 'local' });

/** How long after the last edit the draft is saved. */
export const SAVE_DELAY_MS = 1000;

type Shared = Extract<SharedDraftState, { kind: 'shared' }>;

/** What a save sends of a draft, as text: equal text, nothing to save. */
const keyOf = (draft: Draft | null) =>
  draft ? JSON.stringify([draft.base, draft.document, draft.pausedWeights]) : '';

let saved = '';
let timer: ReturnType<typeof setTimeout> | undefined;
let inFlight: Promise<void> | null = null;

function shared(): Shared | null {
  const state = $sharedDraft.get();
  return state.kind === 'shared' ? state : null;
}

function update(fields: Partial<Shared>): void {
  const state = shared();
  if (state) $sharedDraft.set({ ...state, ...fields });
}

/** The worker's revision as this tab's draft and its facts. */
function adopt(draft: SharedDraft): void {
  const next: Draft = {
    base: draft.base,
    document: draft.document,
    pausedWeights: draft.pausedWeights,
  };
  saved = keyOf(next);
  $draft.set(next);
  update(factsOf(draft));
}

function factsOf(draft: SharedDraft): Partial<Shared> {
  const { revision, editors, editedBy, at, review } = draft;
  return { revision, editors, editedBy, at, review };
}

/** Loads the shared draft over the fresh draft of what is live; none kept: this tab's alone. */
export async function loadSharedDraft(): Promise<void> {
  clearTimeout(timer);
  const answer = await fetchSharedDraft();
  if (!answer.ok || answer.value?.ok !== true) {
    $sharedDraft.set({ kind: 'local' });
    return;
  }
  const { draft, approvalRequired } = answer.value;
  $sharedDraft.set({
    kind: 'shared',
    revision: 0,
    editors: [],
    editedBy: null,
    at: null,
    review: null,
    approvalRequired,
    saving: 'saved',
    failure: null,
    clash: null,
    merged: [],
  });
  saved = keyOf($draft.get());
  if (draft) adopt(draft);
}

function scheduleSave(): void {
  const state = shared();
  if (!state || state.clash || keyOf($draft.get()) === saved) return;
  clearTimeout(timer);
  if (state.saving !== 'waiting') update({ saving: 'waiting' });
  timer = setTimeout(() => void saveNow(), SAVE_DELAY_MS);
}

$draft.subscribe(scheduleSave);

/** Saves the draft now if it has unsaved edits; resolves once no save is on its way. */
export async function flushSave(): Promise<void> {
  clearTimeout(timer);
  while (inFlight) await inFlight;
  if (shared() && !shared()?.clash && keyOf($draft.get()) !== saved) {
    inFlight = save(false).finally(() => {
      inFlight = null;
    });
    await inFlight;
  }
}

function saveNow(): Promise<void> {
  return flushSave();
}

async function save(keepMine: boolean): Promise<void> {
  const state = shared();
  const draft = $draft.get();
  if (!state || !draft) return;
  const sent = keyOf(draft);
  update({ saving: 'saving', failure: null });
  const answer = await saveSharedDraft({
    revision: state.revision,
    base: draft.base,
    document: draft.document,
    pausedWeights: draft.pausedWeights,
    ...(keepMine ? { keepMine } : {}),
  });
  if (!answer.ok) {
    const { refusal } = answer;
    if (refusal.kind === 'conflict') {
      const clash = {
        draft: refusal.head,
        theirs: refusal.changes,
        clashes: refusal.clashes ?? [],
      };
      update({ saving: 'failed', clash });
    } else update({ saving: 'failed', failure: refusalText(refusal) });
    return;
  }
  const { draft: stored, merged = [] } = answer.value;
  const edited = keyOf($draft.get()) !== sent;
  // Merged with others' edits: theirs come into this tab, unless you edited meanwhile; then the
  // next save starts from the same revision again, and merges again.
  if (merged.length > 0 && edited) update({ saving: 'waiting', merged });
  else if (merged.length > 0) {
    adopt(stored);
    update({ saving: 'saved', merged, clash: null });
  } else {
    saved = sent;
    update({ ...factsOf(stored), saving: 'saved', clash: null, merged: [] });
  }
  if (keyOf($draft.get()) !== saved) scheduleSave();
}

/** After a clash: the draft as the others saved it; your edits are dropped. */
export function takeTheirs(): void {
  const clash = shared()?.clash;
  if (!clash) return;
  adopt(clash.draft);
  update({ clash: null, saving: 'saved', merged: [] });
}

/** After a clash: their edits merged with yours, yours kept where both of you changed. */
export async function keepMine(): Promise<void> {
  if (!shared()?.clash) return;
  inFlight = save(true).finally(() => {
    inFlight = null;
  });
  await inFlight;
}

/**
 * The draft's review and revision as the worker has them now: an approval given in another
 * browser shows; a newer revision comes in unless this tab has edits of its own to save.
 */
export async function refreshSharedDraft(): Promise<void> {
  await flushSave();
  const state = shared();
  if (!state || state.clash) return;
  const answer = await fetchSharedDraft();
  if (!answer.ok || !answer.value.draft) return;
  const { draft } = answer.value;
  if (draft.revision === state.revision) update(factsOf(draft));
  else if (keyOf($draft.get()) === saved) adopt(draft);
}

// Back on this tab: what colleagues saved or approved meanwhile.
if (typeof document !== 'undefined') {
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') void refreshSharedDraft();
  });
}

/** Asks another console user to approve the saved draft, with a note. */
export async function requestReview(note: string): Promise<boolean> {
  await flushSave();
  const state = shared();
  if (!state || state.clash || state.revision === 0) return false;
  return reviewed(await askForReview({ revision: state.revision, note }));
}

/** Approves the draft's revision as this tab shows it. */
export async function approveDraft(): Promise<boolean> {
  const state = shared();
  if (!state || state.revision === 0) return false;
  return reviewed(await approveRevision({ revision: state.revision }));
}

function reviewed(answer: Awaited<ReturnType<typeof approveRevision>>): boolean {
  if (answer.ok) {
    update({ ...factsOf(answer.value.draft), failure: null });
    return true;
  }
  const { refusal } = answer;
  if (refusal.kind === 'conflict') {
    update({ clash: { draft: refusal.head, theirs: refusal.changes, clashes: [] } });
  } else update({ failure: refusalText(refusal) });
  return false;
}

/**
 * Puts version `seq`'s document in the shared draft as its next revision (a roll back that waits
 * for a second person's approval); the worker's refusal, as the marketer reads it, or null.
 */
export function restoreVersion(seq: number): Promise<string | null> {
  return putInDraft((revision) => restoreToDraft({ revision, seq }));
}

/**
 * Puts a console token's change set (what a tool or an agent prepared) in the shared draft as its
 * next revision, by this person, to review and publish as any edit; the refusal, or null.
 */
export function takeChangeSet(owner: string): Promise<string | null> {
  return putInDraft((revision) => takeChangeSetIntoDraft({ revision, owner }));
}

/** A document the worker puts in the draft as its next revision, named from this tab's. */
async function putInDraft(
  call: (revision: number) => Promise<Answer<DraftSavedAnswer, SharedDraft>>,
): Promise<string | null> {
  await flushSave();
  const state = shared();
  if (!state) return 'The draft is kept in this tab only: this worker cannot hold it for review.';
  const answer = await call(state.revision);
  if (!answer.ok) {
    const { refusal } = answer;
    if (refusal.kind === 'conflict') {
      update({
        clash: { draft: refusal.head, theirs: refusal.changes, clashes: refusal.clashes ?? [] },
      });
      return 'Someone saved the draft meanwhile on the same places: resolve that first.';
    }
    return refusalText(refusal);
  }
  adopt(answer.value.draft);
  update({ saving: 'saved', clash: null, merged: [], failure: null });
  return null;
}

/** The revision a publish names: the shared draft's, once saved; undefined in a local draft. */
export function publishedRevision(): number | undefined {
  const state = shared();
  return state && state.revision > 0 ? state.revision : undefined;
}
