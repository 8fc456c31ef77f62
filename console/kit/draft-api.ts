import {
  type ApproveRequest,
  CONSOLE_DRAFT_API,
  type DraftAnswer,
  type DraftReviewAnswer,
  type DraftSavedAnswer,
  type DraftSaveRequest,
  type RestoreRequest,
  type ReviewRequest,
  type SharedDraft,
  type TakeChangeSetRequest,
} from '../../shared/console-api/draft';
import { type Answer, consoleCall } from './api';

/**
 * The shared draft's calls (shared/console-api/draft.ts). A conflict names the draft as it is
 * now (`head`), what the others changed since your revision (`changes`) and where both of you
 * changed the same place (`clashes`).
 */

/** The draft as the worker keeps it, and whether approval is required. */
export function fetchSharedDraft(): Promise<Answer<DraftAnswer, SharedDraft>> {
  return consoleCall(CONSOLE_DRAFT_API.draft);
}

/** Saves this tab's draft as the next revision, or merges or refuses it (a conflict). */
export function saveSharedDraft(
  request: DraftSaveRequest,
): Promise<Answer<DraftSavedAnswer, SharedDraft>> {
  return consoleCall(CONSOLE_DRAFT_API.draft, request, 'PUT');
}

/** Asks a second person to approve a revision. */
export function askForReview(
  request: ReviewRequest,
): Promise<Answer<DraftReviewAnswer, SharedDraft>> {
  return consoleCall(CONSOLE_DRAFT_API.review, request);
}

/** Approves a revision, as whoever this browser is signed in as. */
export function approveRevision(
  request: ApproveRequest,
): Promise<Answer<DraftReviewAnswer, SharedDraft>> {
  return consoleCall(CONSOLE_DRAFT_API.approve, request);
}

/** An earlier version's document as the draft's next revision, to review before it publishes. */
export function restoreToDraft(
  request: RestoreRequest,
): Promise<Answer<DraftSavedAnswer, SharedDraft>> {
  return consoleCall(CONSOLE_DRAFT_API.restore, request);
}

/** A console token's change set as the draft's next revision, by this person, to review. */
export function takeChangeSetIntoDraft(
  request: TakeChangeSetRequest,
): Promise<Answer<DraftSavedAnswer, SharedDraft>> {
  return consoleCall(`${CONSOLE_DRAFT_API.changeSets}/take`, request);
}
