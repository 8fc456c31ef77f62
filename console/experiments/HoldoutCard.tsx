import type { HoldoutDocument } from '../../shared/config/holdout';

/** The day of an ISO instant, as the console writes dates (UTC). */
const dayOf = (instant: string) => instant.slice(0, 10);

/** What the holdout is doing now, in a marketer's words. */
function holdoutText(holdout: HoldoutDocument): string {
  const share = `${holdout.percent}% of visitors`;
  const since = dayOf(holdout.startedAt);
  if (holdout.status === 'ended')
    return `Ended on ${dayOf(holdout.endedAt ?? holdout.startedAt)}: no one is held back any more. It held ${share} back from the experiments started from ${since}.`;
  const covered =
    holdout.status === 'analysis'
      ? `started from ${since} to ${dayOf(holdout.analysisFrom ?? since)} (its analysis period: newer ones are not covered)`
      : `started since ${since}`;
  return `${share} see the control of every experiment, split test phase and new route ${covered}; as many others, the measured sample, see each winner once it is rolled out, and the new routes. It costs about ${holdout.percent}% of the revenue those winners add.`;
}

/**
 * The holdout (docs/experiments.md, "The holdout"): who it holds back and since when, what it
 * costs, and its results (the held out against the measured sample) in the results view below.
 * Started, analysed and ended with `npm run experiments -- holdout`, never from a draft by
 * mistake.
 */
export function HoldoutCard({
  holdout,
  onResults,
}: {
  holdout: HoldoutDocument | undefined;
  onResults(): void;
}) {
  return (
    <div className="block">
      <h3 id="holdout-title">Holdout{holdout ? ` ${holdout.seed} (${holdout.status})` : ''}</h3>
      {holdout ? (
        <>
          <p>{holdoutText(holdout)}</p>
          <button type="button" className="button" onClick={onResults}>
            Results of the holdout
          </button>
        </>
      ) : (
        <p className="muted">
          No holdout. One measures what all the winners shipped from its start did together: start
          it with <code>npm run experiments -- holdout start --percent 5</code>.
        </p>
      )}
    </div>
  );
}
