import type { ExperimentDocument } from '../../../shared/config/experiments';
import type { RampDocument } from '../../../shared/config/ramp';
import type { ExperimentResultsAnswer } from '../../../shared/console-api/experiment-results';
import type { RampStatusAnswer } from '../../../shared/console-api/ramp-status';
import { guardrailAlpha, type RampClock, type RampReading, readRamp } from './ramp-engine';
import { rampObservation } from './ramp-observation';

/** The sample the mixture is tuned to when the experiment plans none (per arm). */
export const DEFAULT_TUNED_PER_ARM = 2_000;

/**
 * The ramp of an experiment the engine reads and the results show, with when its visitors began
 * to be drawn: its roll-out's once shipped on one (from the shipping: docs/experiments.md, "A
 * ramped roll-out"), else its own (from its start); null for neither.
 */
export function rampOf(
  experiment: ExperimentDocument,
): { ramp: RampDocument; since: string | undefined } | null {
  const { ramp, decision } = experiment;
  if (experiment.status === 'shipped' && decision?.action === 'roll_out' && decision.ramp)
    return { ramp: decision.ramp, since: experiment.endedAt };
  return ramp === undefined ? null : { ramp, since: experiment.startedAt };
}

/**
 * The experiment as its roll-out's phase is read: the control and the variant rolled out, drawn
 * half and half by the ramp's equal bands, whatever the test's weights and other variants were.
 * Any other experiment, or phase, as it is.
 */
export function asRead(experiment: ExperimentDocument): ExperimentDocument {
  const { decision, control, variants } = experiment;
  const shipped = decision?.variant;
  if (decision?.ramp === undefined || shipped === undefined || !Object.hasOwn(variants, shipped))
    return experiment;
  const arm = (key: string) => ({ ...variants[key]!, weight: 1 });
  return { ...experiment, variants: { [control]: arm(control), [shipped]: arm(shipped) } };
}

/**
 * The engine's clock at `now`: `no_traffic` and a ramp set on a draft count from when its
 * visitors began to be drawn (else from its ramp's step), and the tests are tuned to its planned
 * sample. The cron (worker/alerts/run-ramps.ts) and the results read it alike.
 */
function rampClock(
  live: { ramp: RampDocument; since: string | undefined },
  plannedPerArm: number | undefined,
  now: number,
): RampClock {
  const startedAt = Date.parse(live.since ?? live.ramp.state.since);
  return {
    now,
    startedAt: Number.isNaN(startedAt) ? now : startedAt,
    plannedPerArm: plannedPerArm ?? DEFAULT_TUNED_PER_ARM,
  };
}

/** The engine's reading of a ramped experiment's results at `now`; null without a ramp or arms. */
function rampReading(
  experiment: ExperimentDocument,
  results: ExperimentResultsAnswer,
  now: number,
): RampReading | null {
  const live = rampOf(experiment);
  if (live === null) return null;
  return rampReadingOf(live, experiment.metrics?.plannedPerArm, results, now);
}

/**
 * The engine's reading of `live.ramp` on `results` at `now` (an experiment's, a roll-out's or a
 * route's: ramp-subjects.ts); null when the results have no two arms.
 */
export function rampReadingOf(
  live: { ramp: RampDocument; since: string | undefined },
  plannedPerArm: number | undefined,
  results: ExperimentResultsAnswer,
  now: number,
): RampReading | null {
  const seen = rampObservation(results);
  if (seen === null) return null;
  return readRamp(live.ramp, seen, rampClock(live, plannedPerArm, now));
}

/** What the results show of the ramp (shared/console-api/ramp-status.ts); null without one. */
export function rampStatus(
  experiment: ExperimentDocument,
  results: ExperimentResultsAnswer,
  now: number,
): RampStatusAnswer | null {
  const live = rampOf(experiment);
  const reading = rampReading(experiment, results, now);
  if (live === null || reading === null) return null;
  return rampStatusOf(live.ramp, reading);
}

/** A ramp's status as the results and the CLI show it, from the engine's reading. */
export function rampStatusOf(ramp: RampDocument, reading: RampReading): RampStatusAnswer {
  const { gate } = reading;
  const { state } = ramp;
  return {
    status: state.status,
    step: state.step,
    steps: ramp.steps.length,
    coverage: state.status === 'rolled_back' ? 0 : ramp.steps[state.step]!.coverage,
    since: state.since,
    reason: state.reason ?? null,
    gate: gate === null ? null : { ...gate, holdUntil: new Date(gate.holdUntil).toISOString() },
    alpha: guardrailAlpha(ramp),
    guardrails: reading.guardrails,
  };
}
