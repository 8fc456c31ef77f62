import { type FormEvent, useId } from 'react';
import type { ResultsAnswer } from '../../shared/console-api/results';
import { resultsUrl } from '../kit/api';
import { useStore } from '../kit/stores/atom';
import { $results, loadResults } from '../kit/stores/results';
import { $resultsStatus } from '../kit/stores/status';

/** The phases to pick from, newest first: those with results, and the one shown. */
function phasesOf(answer: ResultsAnswer): number[] {
  return [...new Set([answer.phase, ...answer.phases])].sort((a, b) => b - a);
}

/**
 * Which phase to show (a form, so nothing loads while the marketer is still choosing), and the
 * shown phase as CSV and JSON. The page's address says the phase (`?phase=N`), so a link to it
 * opens the same results.
 */
export function PhasePicker({ answer, livePhase }: { answer: ResultsAnswer; livePhase: number }) {
  const id = useId();
  const { loading } = useStore($results);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (loading) return;
    const picked = Number(new FormData(event.currentTarget).get('phase'));
    const phase = picked === livePhase ? null : picked;
    if (!(await loadResults(phase))) return;
    history.replaceState(
      null,
      '',
      `${location.pathname}${phase === null ? '' : `?phase=${phase}`}`,
    );
    $resultsStatus.set(`Showing phase ${picked}.`);
  }

  return (
    <div className="phase-bar">
      <form className="phase-picker" onSubmit={onSubmit}>
        <label htmlFor={`${id}-phase`}>Phase</label>
        <select id={`${id}-phase`} name="phase" key={answer.phase} defaultValue={answer.phase}>
          {phasesOf(answer).map((phase) => (
            <option key={phase} value={phase}>
              Phase {phase}
              {phase === livePhase ? ' (live)' : ''}
            </option>
          ))}
        </select>
        <button type="submit" className="button" aria-disabled={loading || undefined}>
          Show
        </button>
      </form>
      <p className="downloads">
        <a className="downloads__link" href={resultsUrl(answer.phase, 'csv')} download>
          Download CSV<span className="visually-hidden"> of phase {answer.phase}</span>
        </a>{' '}
        <a className="downloads__link" href={resultsUrl(answer.phase)}>
          JSON<span className="visually-hidden"> of phase {answer.phase}</span>
        </a>
      </p>
    </div>
  );
}
