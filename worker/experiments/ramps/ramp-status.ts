import type { ExperimentDocument } from '../../../shared/config/experiments';
import type { ExperimentResultsAnswer } from '../../../shared/console-api/experiment-results';
import type { RampStatusAnswer } from '../../../shared/console-api/ramp-status';
import { compileRamp } from './ramp-arm';
import { guardrailAlpha, type RampClock, type RampReading, readRamp } from './ramp-engine';
import { rampObservation } from './ramp-observation';

/** The sample the mixture is tuned to when the experiment plans none (per arm). */
const DEFAULT_TUNED_PER_ARM = 2_000;

/**
 * The engine's clock for an experiment at `now`: `no_traffic` and a ramp set on a draft count
 * from when it started running (else from its ramp's step), and the tests are tuned to its
 * planned sample. The cron (worker/alerts/run-ramps.ts) and the results read it alike.
 */
function rampClock(experiment: ExperimentDocument, now: number): RampClock {
  const startedAt = Date.parse(experiment.startedAt ?? experiment.ramp?.state.since ?? '');
  return {
    now,
    startedAt: Number.isNaN(startedAt) ? now : startedAt,
    plannedPerArm: experiment.metrics?.plannedPerArm ?? DEFAULT_TUNED_PER_ARM,
  };
}

/** The engine's reading of a ramped experiment's results at `now`; null without a ramp or arms. */
export function rampReading(
  experiment: ExperimentDocument,
  results: ExperimentResultsAnswer,
  now: number,
): RampReading | null {
  const seen = rampObservation(results);
  if (experiment.ramp === undefined || seen === null) return null;
  return readRamp(experiment.ramp, seen, rampClock(experiment, now));
}

/** What the results show of the ramp (shared/console-api/ramp-status.ts); null without one. */
export function rampStatus(
  experiment: ExperimentDocument,
  results: ExperimentResultsAnswer,
  now: number,
): RampStatusAnswer | null {
  const { ramp } = experiment;
  const reading = rampReading(experiment, results, now);
  if (ramp === undefined || reading === null) return null;
  const { gate } = reading;
  return {
    status: ramp.state.status,
    step: ramp.state.step,
    steps: ramp.steps.length,
    coverage: compileRamp(experiment)!.coverage,
    since: ramp.state.since,
    reason: ramp.state.reason ?? null,
    gate: gate === null ? null : { ...gate, holdUntil: new Date(gate.holdUntil).toISOString() },
    alpha: guardrailAlpha(ramp),
    guardrails: reading.guardrails,
  };
}
