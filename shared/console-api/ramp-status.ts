import type { RampAction, RampGuardrail } from '../ramps';

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
