import type { RampAction, RampGuardrail } from '../ramps';
import { CONSOLE_EXPERIMENTS_PATH } from './experiment-results';

/**
 * A guarded ramp as the experiment's results show it (docs/experiments.md, "Guarded ramps"):
 * where it stands, what its next step waits for, and each guardrail's state at this look, as
 * the cron's engine reads them (worker/experiments/ramps/ramp-status.ts). The `ramp` field of
 * an experiment's results (experiment-results.ts) in its live phase; absent without a ramp.
 */
export interface RampStatusAnswer {
  status: 'running' | 'held' | 'rolled_back' | 'done';
  /** The step in effect, from 0, of `steps`. */
  step: number;
  steps: number;
  /** The variant's share now (the control gets as much); 0 once rolled back. */
  coverage: number;
  since: string;
  reason: string | null;
  /** What the next step waits for; null unless running. */
  gate: {
    /** Null from the last step: it is then done. */
    nextStep: number | null;
    nextCoverage: number | null;
    /** ISO instant when the step's hours are up. */
    holdUntil: string;
    minPerArm: number;
    exposedPerArm: number;
  } | null;
  /** Each tested guardrail's α (the ramp's shared among those that act). */
  alpha: number;
  guardrails: { guardrail: RampGuardrail; action: RampAction; broken: boolean; detail: string }[];
}

/** What a marketer does to a live ramp from the console: the CLI's `ramp hold|resume|rollback`. */
export const RAMP_PERSON_MOVES = ['hold', 'resume', 'rollback'] as const;
export type RampPersonMove = (typeof RAMP_PERSON_MOVES)[number];

/** The most characters of a move's reason: the ramp's `reason` (shared/config/ramp.ts). */
export const RAMP_REASON_MAX = 500;

/** The path of an experiment's ramp moves: POST a RampMoveRequest, answered a PublishAnswer. */
export const rampMovePath = (experiment: string) =>
  `${CONSOLE_EXPERIMENTS_PATH}/${encodeURIComponent(experiment)}/ramp`;

/**
 * POST rampMovePath(id): hold, resume or roll back the ramp of a running experiment, published at
 * once as a config version with the reason as its note (worker/console/ramp-move-route.ts). `seen`
 * is the ramp's state as the console showed it (`status` and `since` of RampStatusAnswer): a ramp
 * moved since, by the cron or another marketer, is refused `ramp_changed` (409) and nothing is
 * written, so a resend or a stale page never undoes a newer move.
 */
export interface RampMoveRequest {
  move: RampPersonMove;
  reason: string;
  seen: { status: RampStatusAnswer['status']; since: string };
  /**
   * A resume where PUBLISH_APPROVAL is `required`: it gives visitors back to the variant, so it
   * goes out only as a break-glass, the reason its reason (worker/config/gate.ts). A hold or a
   * roll back only takes visitors away and needs none.
   */
  breakGlass?: boolean;
}
