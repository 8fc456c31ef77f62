import type { ExperimentDocument } from '../../../shared/config/experiments';
import type { DocumentIssue } from '../../../shared/config/parse-document';
import { compileRamp } from './ramp-arm';

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
