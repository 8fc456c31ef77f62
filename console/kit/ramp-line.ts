import type { RampDocument } from '../../shared/config/ramp';
import {
  ENGINE_REASON_PREFIX,
  type RampAction,
  rampMover,
  stepHoldUntil,
} from '../../shared/ramps';
import { utcMinuteText } from '../../shared/utc-minute';
import { countText, percentText } from './result-texts';

/**
 * A guarded ramp's standing from its state in the live config, the engine's own record (moved
 * by the cron or a person, shared/config/ramp.ts), as the experiment's card and badge say it:
 * the same state the results' ramp section reads (RampStatus.tsx), so the two never disagree.
 */

/**
 * The share of a ramp's visitors that enters at a step of `coverage`, as the ramp's fields type
 * it ("Step 1: % of the audience that enters"): the subject's share and an equal band compared
 * with it, so a coverage of 0.05 is 10% entering, half in each.
 */
export function enteringText(coverage: number): string {
  return percentText(Math.min(1, coverage * 2));
}

/**
 * What a ramp grows and what it is compared with: an experiment's variant against its control,
 * or a new route against the route its visitors would get without it (docs/routes.md, "A new
 * route on a ramp").
 */
export type RampSubject = 'variant' | 'route';

export const SUBJECT_WORDS: Record<RampSubject, { gets: string; against: string; none: string }> = {
  variant: { gets: 'the variant', against: 'the control', none: 'the variant reaches no one' },
  route: {
    gets: 'the route',
    against: 'the route they would get without it',
    none: 'the route takes no one (its visitors get the route they would get without it)',
  },
};

/** What a guardrail does when it breaks, as the results' table and the review say it. */
export const RAMP_ACTION_WORDS: Record<RampAction, string> = {
  rollback: 'rolls back',
  hold: 'holds',
  warn: 'warns',
};

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

/** What the next step of a running ramp waits for; `exposedPerArm` where the results know it. */
export interface GateWords {
  /** Null from the last step: it is then done. */
  nextStep: number | null;
  nextCoverage: number | null;
  /** ISO instant when the step's hours are up. */
  holdUntil: string;
  minPerArm: number;
  exposedPerArm?: number;
}

/** The next gate in a sentence, the same on the results (RampStatus.tsx) and the card. */
export function gateText(gate: GateWords): string {
  const next =
    gate.nextStep === null
      ? 'Done (its last step)'
      : `Step ${gate.nextStep + 1} (${enteringText(gate.nextCoverage ?? 0)} enter)`;
  const now = gate.exposedPerArm === undefined ? '' : ` (now ${countText(gate.exposedPerArm)})`;
  return `${next} once ${utcMinuteText(gate.holdUntil)} has passed and each arm has ${countText(gate.minPerArm)} exposed${now}, with no guardrail that holds or rolls back broken.`;
}

/**
 * A running ramp's next gate from the config alone: the step's hours from its start, or from
 * `startedAt` (when its visitors began to be drawn) when later, as the engine counts them.
 */
function configGate(ramp: RampDocument, startedAt: string | undefined): GateWords {
  const { state, steps } = ramp;
  const last = state.step >= steps.length - 1;
  const began = Date.parse(startedAt ?? state.since);
  return {
    nextStep: last ? null : state.step + 1,
    nextCoverage: last ? null : (steps[state.step + 1]?.coverage ?? null),
    holdUntil: new Date(stepHoldUntil(ramp, Number.isNaN(began) ? 0 : began)).toISOString(),
    minPerArm: steps[state.step]?.minPerArm ?? 0,
  };
}

/**
 * The ramp in one sentence, for the experiment's card and the overview's lists; running, with its
 * next gate. `startedAt`: when its visitors began to be drawn (an experiment's start; a route's
 * ramp counts from its step).
 */
export function rampLine(
  ramp: RampDocument,
  subject: RampSubject = 'variant',
  startedAt?: string,
): string {
  const words = SUBJECT_WORDS[subject];
  const { state } = ramp;
  const step = `step ${state.step + 1} of ${ramp.steps.length}`;
  const since = utcMinuteText(state.since);
  switch (state.status) {
    case 'rolled_back':
      return `Guarded ramp ${byWhom('rolled back', state.reason)} (at ${step}, ${since}): ${words.none}.`;
    case 'held':
      return `Guarded ramp ${byWhom('held', state.reason)} (at ${step}, ${since}).`;
    case 'done':
      return `Guarded ramp done (${since}): ${words.gets} gets its full share.`;
    case 'running': {
      const coverage = ramp.steps[state.step]?.coverage ?? 0;
      return `Guarded ramp running, ${step} since ${since}: ${enteringText(coverage)} of its visitors enter, half of them getting ${words.gets}. Next gate: ${gateText(configGate(ramp, startedAt))}`;
    }
  }
}
