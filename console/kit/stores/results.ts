import type { ResultsAnswer } from '../../../shared/console-api/results';
import { fetchResults, type Refusal } from '../api';
import { failureText } from '../error-texts';
import { atom } from './atom';
import { $resultsStatus } from './status';

/** The results page: the last answer, kept on screen while another phase loads. */
export interface ResultsView {
  answer: ResultsAnswer | null;
  loading: boolean;
  /** Why the last load failed; null when it did not. */
  failure: string | null;
}

export const $results = atom<ResultsView>({ answer: null, loading: true, failure: null });

/** The phase the marketer picked (the page's `?phase=N`); null for the live one. */
export const $resultsPhase = atom<number | null>(null);

/** The phase a page address asks for: `?phase=3` → 3; anything else → null (the live one). */
export function phaseOfSearch(search: string): number | null {
  const phase = Number(new URLSearchParams(search).get('phase') ?? '');
  return Number.isInteger(phase) && phase > 0 ? phase : null;
}

/**
 * Why results (the split's, an experiment's) are not shown. The worker answers a store it cannot
 * read 503 config_store_failed, whose general text speaks of publishing; here nothing was published.
 */
export function resultsFailureText(refusal: Refusal): string {
  const failure = refusal.kind === 'failed' ? refusal.failure : 'unreadable';
  return failure === 'config_store_failed'
    ? 'The results could not be read from their store. Try again in a minute.'
    : failureText(failure);
}

let latest = 0;

/** Loads the results of `phase` (null: the live one); true when they are on screen. */
export async function loadResults(phase = $resultsPhase.get()): Promise<boolean> {
  const asked = ++latest;
  $resultsPhase.set(phase);
  $results.set({ ...$results.get(), loading: true });
  // What the status line said of the last pick is no longer what is shown.
  $resultsStatus.set('');
  const answer = await fetchResults(phase);
  // A later pick is on its way or answered first: this answer is not what is asked for now.
  if (asked !== latest) return false;
  $results.set(
    answer.ok
      ? { answer: answer.value, loading: false, failure: null }
      : {
          answer: $results.get().answer,
          loading: false,
          failure: resultsFailureText(answer.refusal),
        },
  );
  return answer.ok;
}
