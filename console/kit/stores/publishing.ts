import {
  checkDocument,
  fetchState,
  fetchVersions,
  publishDocument,
  type Refusal,
  rollBack,
} from '../api';
import { changesText } from '../change-text';
import { linkPlanNotices } from '../link-plans';
import { $draft, startDraft } from './draft';
import { $history, $rollback } from './history';
import { $live } from './live';
import { loadedFrom, refusalText } from './loaded';
import { loadResults } from './results';
import { $review, type Review } from './review';
import {
  $sharedDraft,
  flushSave,
  loadSharedDraft,
  publishedRevision,
  refreshSharedDraft,
  restoreVersion,
} from './shared-draft';
import { $editStatus, $historyStatus, settleDraftStatuses } from './status';
import { loadRouteVisits } from './traffic';

/**
 * The console's calls to the worker, as actions on the stores: loading what is live, checking
 * and publishing the draft, rolling back. Components call these and render the stores.
 */

function reviewOf(refusal: Refusal): Review {
  if (refusal.kind === 'failed') return { kind: 'failed', message: refusalText(refusal) };
  return refusal;
}

async function loadHistory(): Promise<void> {
  const answer = await fetchVersions();
  $history.set(loadedFrom(answer, ({ versions }) => ({ versions })));
}

/**
 * Loads what is live, the history and the results, and starts a fresh draft of it: on opening
 * the console, after a publish or a roll back (either may start a new phase), and when the
 * marketer takes the live config after a conflict.
 */
export async function loadConsole(): Promise<void> {
  const [state] = await Promise.all([
    fetchState(),
    loadHistory(),
    loadResults(),
    loadRouteVisits(),
  ]);
  if (!state.ok) {
    $live.set({ kind: 'failed', message: refusalText(state.refusal) });
    return;
  }
  startDraft(state.value);
  // The team's draft over the fresh one, where the worker keeps it (docs/marketers.md), before
  // the console shows either: a review or an edit begun on the fresh draft while the shared one
  // loads would be of a draft about to be replaced, and the reset below would close it.
  await loadSharedDraft();
  $live.set({ kind: 'ready', state: state.value });
  $review.set({ kind: 'idle' });
  $rollback.set({ kind: 'idle' });
}

/** The review under way, which a Publish pressed meanwhile waits for. */
let reviewing: Promise<void> | null = null;

/** Asks the worker what publishing the draft would change, and whether it would take it. */
export function reviewDraft(): Promise<void> {
  // Checking from the press on: the last review's Publish goes at once, so a press on it while
  // the draft is fetched again cannot publish the old review or be lost.
  $review.set({ kind: 'checking' });
  $editStatus.set('');
  const review = checkDraft().finally(() => {
    if (reviewing === review) reviewing = null;
  });
  reviewing = review;
  return review;
}

async function checkDraft(): Promise<void> {
  // The review is of the saved draft, with its approval as the worker has it now.
  await refreshSharedDraft();
  const draft = $draft.get();
  if (!draft) {
    $review.set({ kind: 'idle' });
    return;
  }
  const checked = JSON.stringify(draft.document);
  const answer = await checkDocument({ base: draft.base, document: draft.document });
  if (!answer.ok) {
    $review.set(reviewOf(answer.refusal));
    return;
  }
  const { diff, phase, experimentPhases = [], warnings = [], languages = [] } = answer.value;
  const { screens = [] } = answer.value;
  $review.set({
    kind: 'checked',
    document: checked,
    diff,
    phase,
    experimentPhases,
    warnings,
    languages,
    screens,
    approval: answer.value.approval ?? { required: false, reasons: [] },
    linkPlans: linkPlanNotices(draft.document.routing),
    publishing: false,
  });
  // Said in the status line too, so a screen reader hears the outcome without the whole diff.
  const changes = changesText(diff);
  $editStatus.set(
    `Reviewed: ${changes}${phase || experimentPhases.length > 0 ? ', starting a new phase' : ''}.`,
  );
}

/** Publishes the reviewed draft; true when it is live. */
export async function publishDraft(note: string): Promise<boolean> {
  // What is published is the saved revision: an edit still waiting would not be the one approved.
  await flushSave();
  // Publish pressed while a review is checked again publishes that review once it is in.
  await reviewing;
  const draft = $draft.get();
  const review = $review.get();
  if (!draft || review.kind !== 'checked') return false;
  if (review.document !== JSON.stringify(draft.document)) {
    // Others' edits came in with the save: what would publish is not what was reviewed.
    $review.set({ kind: 'idle' });
    $editStatus.set(
      'The draft changed since you reviewed it (edits saved by others came in): review it again before publishing.',
    );
    return false;
  }
  $review.set({ ...review, publishing: true });
  const revision = publishedRevision();
  const answer = await publishDocument({
    base: draft.base,
    document: draft.document,
    note,
    ...(revision === undefined ? {} : { draft: revision }),
  });
  if (!answer.ok) {
    $review.set(reviewOf(answer.refusal));
    return false;
  }
  await loadConsole();
  settleDraftStatuses();
  $editStatus.set(`Published ${answer.value.version.id}. It is live now.`);
  return true;
}

/** Takes the live config after a conflict; the draft's edits are dropped. */
export async function takeLiveConfig(): Promise<void> {
  await loadConsole();
  const live = $live.get();
  if (live.kind === 'ready') {
    // The shared draft too starts again from what is live (saved like any edit).
    if ($sharedDraft.get().kind === 'shared') startDraft(live.state);
    const version = live.state.head?.id ?? 'the live config';
    $editStatus.set(`Loaded ${version}. Your edits were discarded.`);
  }
}

function versionId(seq: number): string {
  const history = $history.get();
  const found = history.kind === 'ready' ? history.versions.find((v) => v.seq === seq) : null;
  return found?.id ?? `version ${seq}`;
}

/**
 * Puts version `seq`'s document in the shared draft for a second person's approval (a roll back
 * where one is required); true once it is the draft.
 */
export async function toReviewDraft(seq: number): Promise<boolean> {
  const restored = versionId(seq);
  $historyStatus.set('');
  const refused = await restoreVersion(seq);
  if (refused !== null) {
    $rollback.set({ kind: 'failed', message: refused });
    return false;
  }
  $review.set({ kind: 'idle' });
  $historyStatus.set(
    `${restored} is in the draft now: review its changes and send them for review; once another person approves, publish it.`,
  );
  return true;
}

/**
 * Publishes version `seq`'s document again, as a new version; `breakGlass`: without a second
 * person's approval where one is required, the note its reason.
 */
export async function rollBackTo(seq: number, note: string, breakGlass = false): Promise<boolean> {
  const live = $live.get();
  if (live.kind !== 'ready') return false;
  const restored = versionId(seq);
  $rollback.set({ kind: 'busy', seq });
  $historyStatus.set('');
  await flushSave();
  const revision = publishedRevision();
  const answer = await rollBack({
    base: live.state.head?.seq ?? null,
    seq,
    note,
    ...(revision === undefined ? {} : { draft: revision }),
    ...(breakGlass ? { breakGlass } : {}),
  });
  if (answer.ok) {
    await loadConsole();
    $historyStatus.set(
      `Rolled back: ${answer.value.version.id} publishes the document of ${restored} again.`,
    );
    return true;
  }
  const { refusal } = answer;
  if (refusal.kind === 'invalid') $rollback.set({ kind: 'invalid', seq, errors: refusal.errors });
  else if (refusal.kind === 'conflict') $rollback.set(refusal);
  else $rollback.set({ kind: 'failed', message: refusalText(refusal) });
  return false;
}
