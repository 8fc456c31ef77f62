import { useId, useState } from 'react';
import type { HoldoutDocument } from '../../shared/config/holdout';
import type { RoutingDocument } from '../../shared/config/routing';
import type { SplitDocument } from '../../shared/config/split';
import { coversSince, type HoldoutMove } from '../../shared/holdout';
import { DEFAULT_ROUTE_ID } from '../../shared/routing';
import { moveHoldout } from '../kit/stores/draft';
import { $experimentsStatus, EXPERIMENTS_STATUS_ID } from './stores/experiments';

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
 * Started, moved to analysis and ended here (HoldoutMoves) or with `npm run experiments --
 * holdout`: each a draft edit, published as any other (a second person's approval where
 * PUBLISH_APPROVAL asks for one: it changes who sees what).
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
          No holdout. One measures what all the winners shipped from its start did together.
        </p>
      )}
      <HoldoutMoves holdout={holdout} />
    </div>
  );
}

/** What each move puts in the draft, said once it is there. */
const MOVED_TEXT: Record<HoldoutMove, string> = {
  start: 'A holdout start is in the draft',
  analysis: "The holdout's move to analysis is in the draft",
  end: "The holdout's end is in the draft",
};

/** The share a new holdout holds back, as the config allows it (shared/config/holdout.ts). */
const PERCENT = { min: 1, max: 10, initial: '5' };

/**
 * The moves the holdout takes now: a start (with its share) where none runs, analysis while it
 * runs, an end while it runs or is analysed. Each edits the draft; the Experiments status says so.
 */
function HoldoutMoves({ holdout }: { holdout: HoldoutDocument | undefined }) {
  const [percent, setPercent] = useState(PERCENT.initial);
  const id = useId();
  const holding = holdout !== undefined && holdout.status !== 'ended';
  const move = (kind: HoldoutMove) => {
    const share = Number(percent);
    if (kind === 'start' && !(share >= PERCENT.min && share <= PERCENT.max)) {
      $experimentsStatus.set(
        `The holdout holds back from ${PERCENT.min} to ${PERCENT.max}% of visitors.`,
      );
    } else {
      const moved = moveHoldout(kind, kind === 'start' ? share : null, new Date());
      $experimentsStatus.set(
        moved.ok
          ? `${MOVED_TEXT[kind]}: publish it in Edit and publish (it changes who sees what).`
          : `The holdout did not move: ${moved.error}.`,
      );
    }
    requestAnimationFrame(() => document.getElementById(EXPERIMENTS_STATUS_ID)?.focus());
  };
  if (!holding) {
    return (
      <div className="row__fields">
        <div className="field">
          <label htmlFor={`${id}-percent`}>Held back, % of visitors</label>
          <input
            id={`${id}-percent`}
            className="input input--number"
            type="number"
            min={PERCENT.min}
            max={PERCENT.max}
            value={percent}
            onChange={(event) => setPercent(event.target.value)}
          />
        </div>
        <div className="actions">
          <button type="button" className="button" onClick={() => move('start')}>
            Start a holdout
          </button>
        </div>
      </div>
    );
  }
  return (
    <div className="actions">
      {holdout.status === 'running' ? (
        <button type="button" className="button" onClick={() => move('analysis')}>
          Move the holdout to analysis
        </button>
      ) : null}
      <button type="button" className="button" onClick={() => move('end')}>
        End the holdout
      </button>
    </div>
  );
}
