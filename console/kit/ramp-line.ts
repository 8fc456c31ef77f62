import type { RampDocument } from '../../shared/config/ramp';
import { ENGINE_REASON_PREFIX, rampMover } from '../../shared/ramps';
import { utcMinuteText } from '../../shared/utc-minute';
import { percentText } from './result-texts';

/**
 * A guarded ramp's standing from its state in the live config, the engine's own record (moved
 * by the cron or a person, shared/config/ramp.ts), as the experiment's card and badge say it:
 * the same state the results' ramp section reads (RampStatus.tsx), so the two never disagree.
 */

/** The badge of a running experiment whose ramp is held or rolled back; null otherwise. */
export function rampBadge(ramp: RampDocument | undefined): string | null {
  if (ramp?.state.status === 'rolled_back') return 'rolled back';
  if (ramp?.state.status === 'held') return 'ramp held';
  return null;
}

/** "rolled back by guardrail: declines (…)", "held by a person: tickets up". */
function byWhom(verb: string, reason: string | undefined): string {
  if (reason === undefined) return verb;
  return rampMover(reason) === 'guardrail'
    ? `${verb} by guardrail: ${reason.slice(ENGINE_REASON_PREFIX.length)}`
    : `${verb} by a person: ${reason}`;
}

/** The ramp in one sentence, for the experiment's card. */
export function rampLine(ramp: RampDocument): string {
  const { state } = ramp;
  const step = `step ${state.step + 1} of ${ramp.steps.length}`;
  const since = utcMinuteText(state.since);
  switch (state.status) {
    case 'rolled_back':
      return `Guarded ramp ${byWhom('rolled back', state.reason)} (at ${step}, ${since}): the variant reaches no one.`;
    case 'held':
      return `Guarded ramp ${byWhom('held', state.reason)} (at ${step}, ${since}).`;
    case 'done':
      return `Guarded ramp done (${since}): the variant gets its full share.`;
    case 'running': {
      const coverage = ramp.steps[state.step]?.coverage ?? 0;
      return `Guarded ramp running, ${step} since ${since}: ${percentText(coverage)} of its visitors get the variant.`;
    }
  }
}
