import type { ConsoleState } from '../../shared/console-api/config';
import { rampBadge, rampLine } from '../kit/ramp-line';
import { isNoteworthy, routeStanding } from '../kit/route-standing';
import { timeText } from '../kit/time-text';
import { sharesOfTotal, totalWeight } from './shares';
import { VariantCard } from './VariantCard';

function LiveVersion({ head }: { head: ConsoleState['head'] }) {
  if (!head) {
    return (
      <p>
        Live config: <strong>not published from the console yet</strong> (the funnel reads what KV
        holds, or the defaults in code).
      </p>
    );
  }
  return (
    <p>
      Live version <strong>{head.id}</strong>, published by {head.author} on{' '}
      <time dateTime={head.at}>{timeText(head.at)}</time>.
    </p>
  );
}

/** Experiment statuses that give visitors something now, in the order the list shows them. */
const LIVE_ORDER = ['running', 'paused', 'shipped'] as const;

/**
 * Every live experiment in one list, each with its status and its guarded ramp as the engine's
 * state in the config has it (the same words as its card: ../kit/ramp-line.ts), and the holdout.
 */
function LiveExperiments({ experiments }: { experiments: ConsoleState['live']['experiments'] }) {
  const live = LIVE_ORDER.flatMap((status) =>
    Object.entries(experiments.experiments).filter(([, e]) => e.status === status),
  );
  const { holdout } = experiments;
  if (live.length === 0 && (holdout === undefined || holdout.status === 'ended')) {
    return <p className="muted">No experiment is live.</p>;
  }
  return (
    <ul aria-label="Live experiments">
      {live.map(([id, experiment]) => (
        <li key={id}>
          <strong>{experiment.name}</strong> ({id}):{' '}
          {(experiment.status === 'running' ? rampBadge(experiment.ramp) : null) ??
            experiment.status}
          {experiment.ramp ? `. ${rampLine(experiment.ramp, 'variant', experiment.startedAt)}` : ''}
        </li>
      ))}
      {holdout !== undefined && holdout.status !== 'ended' ? (
        <li>
          <strong>Holdout</strong> ({holdout.seed}): {holdout.status}, {holdout.percent}% of
          visitors held back since {holdout.startedAt.slice(0, 10)}
        </li>
      ) : null}
    </ul>
  );
}

/**
 * Every route that does anything but take its visitors, always: paused, on a guarded ramp (its
 * step, or held or rolled back and by whom), or scheduled, in the words of its card in the
 * traffic map (../kit/route-standing.ts).
 */
function RoutesStanding({ routes }: { routes: ConsoleState['live']['routing']['routes'] }) {
  const now = new Date();
  const listed = routes
    .map((route) => ({ id: route.id, standing: routeStanding(route, now) }))
    .filter(({ standing }) => isNoteworthy(standing));
  if (listed.length === 0) {
    return <p className="muted">Every route takes its visitors, always.</p>;
  }
  return (
    <ul aria-label="Routes paused, ramped or scheduled">
      {listed.map(({ id, standing }) => (
        <li key={id}>
          <strong>Route {id}</strong>: {standing.badge ?? 'live'}. {standing.lines.join(' ')}
        </li>
      ))}
    </ul>
  );
}

/**
 * What the funnel does now: the live version, the live experiments and their ramps, the routes
 * not simply live, and every variant of the split with its share and flow.
 */
export function Overview({ state }: { state: ConsoleState }) {
  const { variants, defaultVariant } = state.live.split;
  const shares = sharesOfTotal(variants);
  const total = totalWeight(variants);
  return (
    <section className="section" id="overview" aria-labelledby="overview-title">
      <h2 id="overview-title">Overview</h2>
      <LiveVersion head={state.head} />
      {state.drift ? (
        <p className="notice notice--warning">
          <strong>Warning:</strong> {state.drift}
        </p>
      ) : null}
      <LiveExperiments experiments={state.live.experiments} />
      <RoutesStanding routes={state.live.routing.routes} />
      <ul className="cards">
        {Object.entries(variants).map(([key, variant]) => (
          <li key={key}>
            <VariantCard
              variantKey={key}
              weight={variant.weight}
              total={total}
              share={shares[key] ?? 0}
              isDefault={key === defaultVariant}
              document={state.live}
              version={state.head?.id ?? 'none'}
              preview={state.previews[key]}
            />
          </li>
        ))}
      </ul>
    </section>
  );
}
