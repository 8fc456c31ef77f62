import type { ExperimentDocument } from '../../../shared/config/experiments';
import type { RampDocument } from '../../../shared/config/ramp';
import type { ConfigDocument } from '../../../shared/console-api/config';
import { routeRampUnit } from './route-ramp';

/**
 * What a guarded ramp can ramp (docs/experiments.md, "Guarded ramps" and "A ramped roll-out";
 * docs/routes.md, "A new route on a ramp"): an experiment's variant (its `ramp`), a shipped
 * experiment's roll-out (its decision's `ramp`), a new route (the route's `ramp`). The cron
 * (worker/alerts/run-ramps.ts) and the CLI (scripts/ramp-cli.ts) find, read and write each one's
 * ramp here, so both move every kind the same way.
 */
export type RampSubject =
  | { kind: 'variant'; experiment: string }
  | { kind: 'roll_out'; experiment: string }
  | { kind: 'route'; route: string };

/** The sections a ramp lives in. */
type RampSections = Pick<ConfigDocument, 'experiments' | 'routing'>;

/** The subject as the history's notes, the logs and the CLI name it. */
export function subjectName(subject: RampSubject): string {
  if (subject.kind === 'route') return `route ${subject.route}`;
  return subject.kind === 'roll_out' ? `the roll-out of ${subject.experiment}` : subject.experiment;
}

function experimentOf(sections: RampSections, id: string): ExperimentDocument | undefined {
  const { experiments } = sections.experiments;
  return Object.hasOwn(experiments, id) ? experiments[id] : undefined;
}

/** The ramp `subject` has in `sections`; undefined when it has none (or is not there). */
export function rampAt(sections: RampSections, subject: RampSubject): RampDocument | undefined {
  if (subject.kind === 'route')
    return sections.routing.routes.find((route) => route.id === subject.route)?.ramp;
  const experiment = experimentOf(sections, subject.experiment);
  return subject.kind === 'roll_out' ? experiment?.decision?.ramp : experiment?.ramp;
}

/** `document` with `subject`'s ramp replaced by `ramp` (the subject is there). */
export function withRamp<D extends RampSections>(
  document: D,
  subject: RampSubject,
  ramp: RampDocument,
): D {
  if (subject.kind === 'route') {
    const routes = document.routing.routes.map((route) =>
      route.id === subject.route ? { ...route, ramp } : route,
    );
    return { ...document, routing: { ...document.routing, routes } };
  }
  const current = experimentOf(document, subject.experiment)!;
  const next: ExperimentDocument =
    subject.kind === 'roll_out' && current.decision !== undefined
      ? { ...current, decision: { ...current.decision, ramp } }
      : { ...current, ramp };
  const { experiments } = document;
  return {
    ...document,
    experiments: {
      ...experiments,
      experiments: { ...experiments.experiments, [subject.experiment]: next },
    },
  };
}

/** A ramp the cron looks at, and what its engine and alerts need of it. */
export interface WatchedRamp {
  subject: RampSubject;
  /** The results' id: the experiment's, or the route's unit (`route:<id>`). */
  id: string;
  /** What the alerts call it, and the phase its counts are in. */
  name: string;
  phase: number;
  ramp: RampDocument;
  /** When its visitors began to be drawn (ramp-status.ts rampOf); undefined: its step's start. */
  since: string | undefined;
  plannedPerArm: number | undefined;
}

const ramping = (ramp: RampDocument | undefined): ramp is RampDocument =>
  ramp?.state.status === 'running' || ramp?.state.status === 'held';

/**
 * The ramps the engine looks at: a running experiment's not rolled back (done included: its
 * guardrails are still watched), a shipped experiment's roll-out and a route's still ramping
 * (running or held; once done, everyone has the variant or the route, and there is no control
 * to compare with).
 */
export function watchedRamps(sections: RampSections): WatchedRamp[] {
  const watched: WatchedRamp[] = [];
  for (const [id, experiment] of Object.entries(sections.experiments.experiments)) {
    const { status, name, phase = 1, ramp, decision } = experiment;
    const common = { id, name, phase, plannedPerArm: experiment.metrics?.plannedPerArm };
    if (status === 'running' && ramp !== undefined && ramp.state.status !== 'rolled_back')
      watched.push({
        subject: { kind: 'variant', experiment: id },
        ...common,
        ramp,
        since: experiment.startedAt,
      });
    const rollOut = decision?.action === 'roll_out' ? decision.ramp : undefined;
    if (status === 'shipped' && ramping(rollOut))
      watched.push({
        subject: { kind: 'roll_out', experiment: id },
        ...common,
        ramp: rollOut,
        since: experiment.endedAt,
      });
  }
  for (const route of sections.routing.routes)
    if (ramping(route.ramp))
      watched.push({
        subject: { kind: 'route', route: route.id },
        id: routeRampUnit(route.id),
        name: `Route ${route.id} on a ramp`,
        phase: 1,
        ramp: route.ramp,
        since: undefined,
        plannedPerArm: undefined,
      });
  return watched;
}
