import type { ExperimentDocument, ExperimentsDocument } from '../../../shared/config/experiments';
import type { ExperimentPhaseChange, PhaseChange } from '../../../shared/console-api/config';
import type { ExperimentStatus } from '../../../shared/experiments';
import { sameValue } from './edits';
import { phaseChange } from './phase';

/**
 * Phases and the instants a publish stamps on each experiment, never typed by a marketer: like the
 * split's phase (worker/experiments/config/phase.ts, worker/config/publish.ts), what the console
 * sends for them is replaced by what follows from the live document and this publish.
 */

/** Statuses in which visitors are drawn, or will be again on resuming: where weights matter. */
const DRAWING: ReadonlySet<ExperimentStatus> = new Set(['running', 'paused']);

/**
 * The experiments whose publish starts a new phase: a running or paused one whose drawn shares
 * change (worker/experiments/config/phase.ts, per experiment). Visitors assigned under other shares
 * are not comparable, so its results count each phase apart. An experiment that starts running
 * starts in phase 1, which is no change; one that stops draws no one more.
 */
export function experimentPhaseChanges(
  live: ExperimentsDocument | null | undefined,
  next: ExperimentsDocument,
): Map<string, PhaseChange> {
  const changes = new Map<string, PhaseChange>();
  for (const [id, experiment] of Object.entries(next.experiments)) {
    const was = live && Object.hasOwn(live.experiments, id) ? live.experiments[id] : undefined;
    const rollOut = was ? rollOutPhase(was, experiment) : null;
    if (rollOut) changes.set(id, rollOut);
    if (!was || !DRAWING.has(was.status) || !DRAWING.has(experiment.status)) continue;
    const change = phaseChange(was, experiment, was.phase ?? 1);
    if (change) changes.set(id, change);
  }
  return changes;
}

/**
 * A roll-out that starts on a ramp (docs/experiments.md, "A ramped roll-out") counts its two
 * bands in a phase of their own, so its guardrails compare only them, never the test's visitors.
 */
function rollOutPhase(was: ExperimentDocument, next: ExperimentDocument): PhaseChange | null {
  if (was.status === 'draft' || next.decision?.ramp === undefined) return null;
  if (was.decision?.ramp !== undefined) return null;
  const from = was.phase ?? 1;
  return { from, to: from + 1, reason: 'its roll-out starts on a ramp, counted apart' };
}

/**
 * The experiments of the `experiments` section whose publish starts a new phase, by the same
 * rule as the split's (worker/experiments/config/phase.ts), in document order: what the
 * console's review shows (CheckAnswer.experimentPhases) and the publish stamps.
 */
export function experimentPhases(
  before: ExperimentsDocument | null,
  after: ExperimentsDocument,
): ExperimentPhaseChange[] {
  return [...experimentPhaseChanges(before, after)].map(([experiment, change]) => ({
    experiment,
    ...change,
  }));
}

/**
 * The document as it is stored: each experiment's `phase` (1 when it first runs, one more when its
 * shares change), `startedAt` when it first runs, `endedAt` when it stops or ships, carried over
 * from the live document otherwise; and a decision that is new or changed dated `now` and signed by
 * `author`, whoever the console said made it (one published before keeps its own date and name). Run on a document the validator accepted.
 */
export function stampPublish(
  next: ExperimentsDocument,
  live: ExperimentsDocument | null | undefined,
  now: Date,
  author: string,
): ExperimentsDocument {
  const at = now.toISOString();
  const changes = experimentPhaseChanges(live, next);
  const experiments: Record<string, ExperimentDocument> = {};
  for (const [id, experiment] of Object.entries(next.experiments)) {
    const was = live && Object.hasOwn(live.experiments, id) ? live.experiments[id] : undefined;
    const { phase: _phase, startedAt: _started, endedAt: _ended, ...rest } = experiment;
    const stamped: ExperimentDocument = { ...rest };
    if (experiment.status !== 'draft') {
      const ran = was !== undefined && was.status !== 'draft';
      const phase = ran ? (changes.get(id)?.to ?? was.phase ?? 1) : 1;
      const startedAt = ran ? was.startedAt : at;
      const ends = experiment.status === 'stopped' || experiment.status === 'shipped';
      const endedAt = ends && (!ran || DRAWING.has(was.status)) ? at : was?.endedAt;
      stamped.phase = phase;
      if (startedAt !== undefined) stamped.startedAt = startedAt;
      if (endedAt !== undefined) stamped.endedAt = endedAt;
    }
    if (experiment.decision) {
      const kept = sameDecision(experiment.decision, was?.decision) ? was?.decision : undefined;
      stamped.decision = { ...experiment.decision, at: kept?.at ?? at, by: kept?.by ?? author };
    }
    experiments[id] = stamped;
  }
  return { ...next, experiments };
}

/**
 * The same decision, whenever and by whoever it was written down; its roll-out's ramp moving on
 * (a step, a hold, a rollback) keeps who decided and when.
 */
function sameDecision(
  a: NonNullable<ExperimentDocument['decision']>,
  b: ExperimentDocument['decision'],
): boolean {
  if (b === undefined) return false;
  const { at: _a, by: _b, ramp: _r, ...first } = a;
  const { at: _c, by: _d, ramp: _s, ...second } = b;
  return sameValue(first, second);
}
