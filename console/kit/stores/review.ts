import { useMemo } from 'react';
import type {
  ExperimentPhaseChange,
  PhaseChange,
  ScreenChange,
} from '../../../shared/console-api/config';
import type { ApprovalReason } from '../../../shared/console-api/draft';
import type { FieldError } from '../../../shared/console-api/errors';
import type { LanguageNote } from '../../../shared/console-api/languages';
import type { Change, VersionSummary } from '../../../shared/console-api/versions';
import { errorAnchors, placeErrors } from '../field-errors';
import type { LinkPlanNotice } from '../link-plans';
import { atom, useStore } from './atom';
import { $draft, type Draft } from './draft';

/** Where the draft stands with the worker: unchecked, checked (with its diff), refused… */
export type Review =
  | { kind: 'idle' }
  | { kind: 'checking' }
  | {
      kind: 'checked';
      /** The document that was checked (JSON): an edit after the check makes the review stale. */
      document: string;
      diff: Change[];
      phase: PhaseChange | null;
      /** The experiments whose publish starts a new phase (CheckAnswer.experimentPhases). */
      experimentPhases: ExperimentPhaseChange[];
      /** What publishes but is likely a mistake (CheckAnswer.warnings). */
      warnings: FieldError[];
      /** What other languages' visitors see of the content's English changes (CheckAnswer.languages). */
      languages: LanguageNote[];
      /** The screens the publish changes for whom, as the worker served them (CheckAnswer.screens). */
      screens: ScreenChange[];
      /** The routes whose plans go to whoever opens a link (console/kit/link-plans.ts). */
      linkPlans: LinkPlanNotice[];
      /** Whether a second person must approve, and the changes that need it (CheckAnswer). */
      approval: { required: boolean; reasons: ApprovalReason[] };
      publishing: boolean;
    }
  | { kind: 'invalid'; errors: FieldError[] }
  | { kind: 'conflict'; head: VersionSummary; changes: Change[] }
  | { kind: 'failed'; message: string };

export const $review = atom<Review>({ kind: 'idle' });

/** The refusals of the last check or publish, by the place in the form that shows each. */
export function usePlacedErrors(): Map<string, FieldError[]> {
  const review = useStore($review);
  const draft = useStore($draft);
  return useMemo(
    () =>
      review.kind === 'invalid' && draft
        ? placeErrors(review.errors, errorAnchors(draft.document))
        : new Map<string, FieldError[]>(),
    [review, draft],
  );
}

/** Whether a check answered for the draft exactly as it is now. */
export function reviewIsCurrent(review: Review, draft: Draft | null): boolean {
  return Boolean(
    review.kind === 'checked' && draft && review.document === JSON.stringify(draft.document),
  );
}
