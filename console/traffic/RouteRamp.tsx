import { useEffect, useState } from 'react';
import type { RouteDocument } from '../../shared/config/routing';
import type { RampStatusAnswer } from '../../shared/console-api/ramp-status';
import { RampStatus } from '../experiments/RampStatus';
import { fetchExperimentResults } from '../kit/api';
import { type Loaded, loadedFrom } from '../kit/stores/loaded';

/**
 * A new route on a guarded ramp (docs/routes.md, "A new route on a ramp"), on its card: where the
 * ramp stands, its next gate and each guardrail, as the cron's engine judges them every 15
 * minutes, read from the route's results (`route:<id>` at the experiments' results API).
 * Read-only: a route's ramp is held, resumed or rolled back with `npm run experiments -- ramp …
 * --route <id>`. A ramp only in the draft has nothing to read until it is published.
 */
export function RouteRamp({ route }: { route: RouteDocument }) {
  const [loaded, setLoaded] = useState<Loaded<{ ramp: RampStatusAnswer | null }>>({
    kind: 'loading',
  });
  const live = route.ramp?.state.since;
  useEffect(() => {
    if (live === undefined) return;
    let current = true;
    setLoaded({ kind: 'loading' });
    void fetchExperimentResults(`route:${route.id}`, { phase: null, segment: null }).then(
      (answer) => {
        if (!current) return;
        // Not ramped in the live config (the ramp is the draft's only): nothing to read yet.
        const notLive =
          !answer.ok &&
          answer.refusal.kind === 'failed' &&
          answer.refusal.failure === 'unknown_experiment';
        setLoaded(
          notLive
            ? { kind: 'ready', ramp: null }
            : loadedFrom(answer, (results) => ({ ramp: results.ramp ?? null })),
        );
      },
    );
    return () => {
      current = false;
    };
  }, [route.id, live]);
  if (route.ramp === undefined) return null;
  const title = `Guarded ramp of route ${route.id}`;
  if (loaded.kind === 'ready' && loaded.ramp !== null)
    return <RampStatus ramp={loaded.ramp} subject="route" title={title} />;
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
