import { FailureNotice } from '../kit/FailureNotice';
import { useStore } from '../kit/stores/atom';
import { $results } from '../kit/stores/results';
import { $resultsStatus } from '../kit/stores/status';
import { PhasePicker } from './PhasePicker';
import { PhaseResults } from './PhaseResults';

function HowToRead() {
  return (
    <div className="block how-to-read">
      <h3>How to read this</h3>
      <ul>
        <li>
          A verdict, <em>better</em> or <em>worse</em>, appears only when it is earned: when the
          interval of a variant's lift against the control no longer includes zero. Until then it
          says <em>no difference yet</em>.
        </li>
        <li>
          The intervals are always valid: look every day if you like, and stop when a verdict
          appears. Looking often does not make a false winner more likely (at most 5%).
        </li>
        <li>
          <em>Not enough data</em> until the variant and the control each have 100 exposed visitors
          and 25 conversions of the metric.
        </li>
        <li>
          Decide on the primary metric; the secondary ones explain it. When the split is broken,
          every verdict of the phase is <em>withheld (SRM)</em>.
        </li>
        <li>
          Each phase counts only the visitors first exposed in it: changing the weights starts a new
          phase.
        </li>
      </ul>
    </div>
  );
}

/** The experiment's results per phase: the split's health, each variant against the control. */
export function Results({ livePhase }: { livePhase: number }) {
  const { answer, loading, failure } = useStore($results);
  const status = useStore($resultsStatus);
  return (
    <section className="section" id="results" aria-labelledby="results-title">
      <h2 id="results-title">Results</h2>
      <p className="status" role="status">
        {status}
      </p>
      {answer ? <PhasePicker answer={answer} livePhase={livePhase} /> : null}
      {failure ? <FailureNotice message={failure} /> : null}
      {!answer && !failure && loading ? <p className="muted">Loading the results…</p> : null}
      {answer && !failure ? (
        <div aria-busy={loading || undefined}>
          <PhaseResults answer={answer} />
        </div>
      ) : null}
      <HowToRead />
    </section>
  );
}
