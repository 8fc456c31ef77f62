import { useEffect, useId, useState } from 'react';
import type { RouteDocument } from '../../shared/config/routing';
import type { RampStatusAnswer } from '../../shared/console-api/ramp-status';
import { RampStatus } from '../experiments/RampStatus';
import { RampSteer } from '../experiments/RampSteer';
import { fetchExperimentResults } from '../kit/api';
import { StatusLine } from '../kit/StatusLine';
import { type Loaded, loadedFrom } from '../kit/stores/loaded';

/**
 * A new route on a guarded ramp (docs/routes.md, "A new route on a ramp"), on its card: where the
 * ramp stands, its next gate and each guardrail, as the cron's engine judges them every 15
 * minutes, read from the route's results (`route:<id>` at the experiments' results API), with
 * Hold, Resume and Roll back as on an experiment's results (RampSteer.tsx), each published at once
 * and said on the card's own status line. A ramp only in the draft has nothing to read or steer
 * until it is published.
 */
type RampLoad = Loaded<{ ramp: RampStatusAnswer | null }>;

/** The ramp of route `unit`'s results (`route:<id>`), or null when it is not live. */
async function readRamp(unit: string): Promise<RampLoad> {
  const answer = await fetchExperimentResults(unit, { phase: null, segment: null });
  // Not ramped in the live config (the ramp is the draft's only): nothing to read yet.
  const notLive =
    !answer.ok &&
    answer.refusal.kind === 'failed' &&
    answer.refusal.failure === 'unknown_experiment';
  return notLive
    ? { kind: 'ready', ramp: null }
    : loadedFrom(answer, (results) => ({ ramp: results.ramp ?? null }));
}

export function RouteRamp({ route }: { route: RouteDocument }) {
  const [loaded, setLoaded] = useState<RampLoad>({ kind: 'loading' });
  const [status, setStatus] = useState('');
  const statusId = `${useId()}-ramp-status`;
  const live = route.ramp?.state.since;
  const unit = `route:${route.id}`;
  useEffect(() => {
    if (live === undefined) return;
    let current = true;
    setLoaded({ kind: 'loading' });
    void readRamp(unit).then((read) => {
      if (current) setLoaded(read);
    });
    return () => {
      current = false;
    };
  }, [unit, live]);
  if (route.ramp === undefined) return null;
  const title = `Guarded ramp of route ${route.id}`;
  if (loaded.kind === 'ready' && loaded.ramp !== null)
    return (
      <RampStatus ramp={loaded.ramp} subject="route" title={title}>
        <RampSteer
          id={unit}
          name={`route ${route.id}`}
          ramp={loaded.ramp}
          subject="route"
          statusId={statusId}
          onMoved={async (done) => {
            // Read again before the dialog closes, as the experiments' results are: the draft
            // shown here may not have changed, and the buttons change with the ramp's status.
            setLoaded(await readRamp(unit));
            setStatus(done);
          }}
        />
        <StatusLine id={statusId} status={status} />
      </RampStatus>
    );
  const text =
    loaded.kind === 'loading'
      ? 'Reading its guardrails…'
      : loaded.kind === 'failed'
        ? `Its guardrails could not be read: ${loaded.message}`
        : 'Not live yet: the ramp starts when the draft is published.';
  return (
    <section className="ramp-status" aria-label={title}>
      <h4>{title}</h4>
      <p className="muted">{text}</p>
    </section>
  );
}
