import type { ExperimentResultsAnswer } from '../../../shared/console-api/experiment-results';
import { type ExperimentResultsQuery, fetchExperimentResults } from '../../kit/api';
import { atom } from '../../kit/stores/atom';
import { resultsFailureText } from '../../kit/stores/results';
import { clearedOnPublish } from '../../kit/stores/status';

/**
 * The experiments area's results: one experiment's at a time, by phase and segment, and what the
 * last status change or decision did, for its status line.
 */

export interface ExperimentResultsView extends ExperimentResultsQuery {
  /** The experiment shown; null: none picked. */
  id: string | null;
  answer: ExperimentResultsAnswer | null;
  loading: boolean;
  failure: string | null;
}

/** No experiment's results picked: the view before any, and after a test's reset. */
export const NO_EXPERIMENT_RESULTS: ExperimentResultsView = {
  id: null,
  phase: null,
  segment: null,
  answer: null,
  loading: false,
  failure: null,
};

export const $experimentResults = atom<ExperimentResultsView>(NO_EXPERIMENT_RESULTS);

/** What the last action of the experiments area did (role=status). */
export const $experimentsStatus = clearedOnPublish(atom(''));
export const EXPERIMENTS_STATUS_ID = 'experiments-status';

let latest = 0;

/**
 * Loads `id`'s results for the phase and segment asked (the current ones where not said); a
 * later call wins over an earlier one still on its way.
 */
export async function loadExperimentResults(
  id: string,
  query: Partial<ExperimentResultsQuery> = {},
): Promise<ExperimentResultsAnswer | null> {
  const asked = ++latest;
  const current = $experimentResults.get();
  const same = current.id === id;
  const phase = query.phase !== undefined ? query.phase : same ? current.phase : null;
  const segment = query.segment !== undefined ? query.segment : same ? current.segment : null;
  $experimentResults.set({
    id,
    phase,
    segment,
    answer: same ? current.answer : null,
    loading: true,
    failure: null,
  });
  const answer = await fetchExperimentResults(id, { phase, segment });
  if (asked !== latest) return null;
  $experimentResults.set({
    id,
    phase,
    segment,
    answer: answer.ok ? answer.value : same ? current.answer : null,
    loading: false,
    failure: answer.ok ? null : resultsFailureText(answer.refusal),
  });
  return answer.ok ? answer.value : null;
}

/** An experiment's results for a dialog, without touching what the results view shows. */
export async function resultsForDecision(id: string): Promise<ExperimentResultsAnswer | null> {
  const shown = $experimentResults.get();
  if (shown.id === id && shown.answer && shown.phase === null) return shown.answer;
  const answer = await fetchExperimentResults(id, { phase: null, segment: null });
  return answer.ok ? answer.value : null;
}
