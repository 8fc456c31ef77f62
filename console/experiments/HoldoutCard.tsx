import type { HoldoutDocument } from '../../shared/config/holdout';
import type { RoutingDocument } from '../../shared/config/routing';
import type { SplitDocument } from '../../shared/config/split';
import { coversSince } from '../../shared/holdout';
import { DEFAULT_ROUTE_ID } from '../../shared/routing';

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
 * What the holdout covers beyond the experiments (docs/experiments.md, "What it covers"): the
 * routes first published since its start, which the held out never get, and the split test when
 * its phase began since; none while it is ended.
 */
function coveredSetup(
  holdout: HoldoutDocument,
  routing: RoutingDocument,
  split: SplitDocument,
): string[] {
  const routes = routing.routes
    .filter((route) => route.id !== DEFAULT_ROUTE_ID && coversSince(holdout, route.since))
    .map((route) => route.id);
  const lines: string[] = [];
  if (routes.length > 0)
    lines.push(
      `Routes added since its start, which the held out do not get: ${routes.join(', ')}.`,
    );
  if (coversSince(holdout, split.since))
    lines.push(
      `The split test's current phase began since its start (${split.since?.slice(0, 10)}): the held out get its default variant, ${split.defaultVariant}, and so does the measured sample while it draws several.`,
    );
  return lines;
}

/**
 * The holdout (docs/experiments.md, "The holdout"): who it holds back and since when, what it
 * costs, and its results (the held out against the measured sample) in the results view below.
 * Started, analysed and ended with `npm run experiments -- holdout`, never from a draft by
 * mistake.
 */
export function HoldoutCard({
  holdout,
  routing,
  split,
  onResults,
}: {
  holdout: HoldoutDocument | undefined;
  /** The live routes and split, whose starts say which of them it covers. */
  routing: RoutingDocument;
  split: SplitDocument;
  onResults(): void;
}) {
  return (
    <div className="block">
      <h3 id="holdout-title">Holdout{holdout ? ` ${holdout.seed} (${holdout.status})` : ''}</h3>
      {holdout ? (
        <>
          <p>{holdoutText(holdout)}</p>
          {coveredSetup(holdout, routing, split).map((line) => (
            <p key={line}>{line}</p>
          ))}
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
