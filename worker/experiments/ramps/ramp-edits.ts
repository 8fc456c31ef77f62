import type { ExperimentDocument } from '../../../shared/config/experiments';
import type { DocumentIssue } from '../../../shared/config/parse-document';
import type { RampPersonMove } from '../../../shared/console-api/ramp-status';
import { compileRamp } from './ramp-arm';
import { movedRamp, type RampMove } from './ramp-engine';

/**
 * What a publish may change of a live experiment's ramp (docs/experiments.md, "Guarded ramps"),
 * beside what edits.ts holds every live experiment to. The ramp's bands draw its visitors, so:
 * a ramp is set before the experiment runs and stays while it is live (added or taken away, the
 * draw would change and visitors flip arm); its coverage only rises (a smaller band would drop
 * visitors it took), except to roll it back; and a rolled-back ramp stays rolled back, since the
 * visitors it moved to the control would be drawn into the variant again: duplicate it (a new
 * seed) to try again, as LaunchDarkly re-randomises a restarted guarded rollout.
 */
export function rampEditIssues(
  path: string,
  next: ExperimentDocument,
  live: ExperimentDocument,
): DocumentIssue[] {
  if (live.status !== 'running' && live.status !== 'paused') return [];
  const at = `${path}.ramp`;
  if (live.ramp === undefined && next.ramp === undefined) return [];
  if (live.ramp === undefined)
    return [
      {
        path: at,
        message: `cannot be added while it is ${live.status}: its visitors were drawn without one; duplicate it with a ramp`,
      },
    ];
  if (next.ramp === undefined)
    return [
      {
        path: at,
        message: `cannot be taken away while it is ${live.status}: its visitors would be drawn again; let the ramp reach its last step, or stop it`,
      },
    ];
  const was = compileRamp(live)!;
  const now = compileRamp(next)!;
  if (was.rolledBack && !now.rolledBack)
    return [
      {
        path: `${at}.state.status`,
        message:
          'stays rolled_back: its variant was taken from its visitors; duplicate the experiment (a new seed) to ramp it again',
      },
    ];
  if (!now.rolledBack && now.coverage < was.coverage)
    return [
      {
        path: `${at}.state.step`,
        message: `the coverage can only rise (from ${was.coverage}, now ${now.coverage}): roll it back instead, or hold it`,
      },
    ];
  return [];
}

/**
 * The experiment with a person's move made to its ramp at `now`, or why it cannot be (docs/
 * experiments.md, "Guarded ramps"): the CLI's `ramp hold|resume|rollback` and the console's
 * buttons alike, through the engine's own movedRamp. Only a running or done ramp is held, only a
 * held one resumed, and a rolled-back one stays so.
 */
export function personRampMove(
  experiment: ExperimentDocument,
  name: RampPersonMove,
  reason: string,
  now: number,
): ExperimentDocument | string {
  const { ramp } = experiment;
  if (ramp === undefined) return 'it has no ramp';
  const status = ramp.state.status;
  if (status === 'rolled_back') return 'the ramp is rolled_back already: nothing to do';
  if (name === 'resume' && status !== 'held')
    return `the ramp is ${status}, not held: nothing to resume`;
  if (name === 'hold' && status === 'held') return 'the ramp is held already: nothing to hold';
  const move: RampMove = { kind: name, reason };
  return { ...experiment, ramp: movedRamp(ramp, move, now) };
}
