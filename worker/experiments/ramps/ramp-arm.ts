import type { ExperimentDocument } from '../../../shared/config/experiments';
import type { RampDocument } from '../../../shared/config/ramp';
import { hashShare } from '../assignment/assign';

/**
 * Which arm of a ramped experiment a visitor is in (docs/experiments.md, "Guarded ramps"): the
 * equal-size-control design of GrowthBook's ramp schedules
 * (/work/shared/research/guarded-experiments.md §B.2). The visitor's share for the experiment's
 * seed (hashShare, the share a variant is drawn by) falls in the variant's band [0, c), the
 * control's band [0.5, 0.5 + c), or neither, c the step's coverage (at most 0.5). As the steps
 * raise c both bands only grow: whoever was in an arm stays in it, and the arms stay the same
 * size, so their days and campaigns match at every step and the whole phase is compared at once.
 * A visitor in neither band gets the route as it is and is not exposed or counted.
 *
 * Rolled back, c is 0: no one is drawn, and a visitor pinned to the variant gets the control's
 * route too (evaluate.ts), while every exposure already recorded stays.
 */
export interface CompiledRamp {
  /** The variant's share now, 0 once rolled back. */
  coverage: number;
  treatment: string;
  control: string;
  rolledBack: boolean;
}

/** A ramp's bands at its step, `treatment` against `control`: 0 once rolled back. */
export function compileRampOf(
  ramp: RampDocument,
  treatment: string,
  control: string,
): CompiledRamp {
  const rolledBack = ramp.state.status === 'rolled_back';
  const coverage = rolledBack ? 0 : (ramp.steps[ramp.state.step]?.coverage ?? 0);
  return { coverage, treatment, control, rolledBack };
}

/** The ramp of an experiment as the edge draws it; null for an experiment without one. */
export function compileRamp(experiment: ExperimentDocument): CompiledRamp | null {
  const { ramp, control } = experiment;
  if (ramp === undefined) return null;
  const treatment = Object.keys(experiment.variants).find((key) => key !== control) ?? control;
  return compileRampOf(ramp, treatment, control);
}

/**
 * What a shipped experiment rolls out (docs/experiments.md, "A ramped roll-out"): the variant to
 * everyone its audience takes (`rolledOut`), or, while its decision's ramp runs or is held, the
 * ramp's bands (`ramp`: the variant in one, the control in the other, both exposed and counted,
 * the rest on the control); once the ramp is done, the variant to everyone; rolled back, to no
 * one. Both null for an experiment that rolls nothing out.
 */
export function compileRollOut(experiment: ExperimentDocument): {
  rolledOut: string | null;
  ramp: CompiledRamp | null;
} {
  const { decision, control } = experiment;
  const variant = decision?.variant;
  if (experiment.status !== 'shipped' || decision?.action !== 'roll_out' || variant === undefined)
    return { rolledOut: null, ramp: null };
  const status = decision.ramp?.state.status;
  if (decision.ramp === undefined || status === 'done') return { rolledOut: variant, ramp: null };
  return { rolledOut: null, ramp: compileRampOf(decision.ramp, variant, control) };
}

const HALF = 0.5;

/** The arm a visitor's share in [0, 1) falls in at coverage c; null in neither band. */
function armAt(ramp: CompiledRamp, share: number): string | null {
  if (share < HALF) return share < ramp.coverage ? ramp.treatment : null;
  // share − 0.5 is exact (both within a factor of 2), so the band's end is compared exactly.
  return share - HALF < ramp.coverage ? ramp.control : null;
}

/** The visitor's (or account's) arm in a ramped experiment seeded `seed`; null in neither band. */
export function rampArm(ramp: CompiledRamp, seed: string, unit: string): string | null {
  return armAt(ramp, hashShare(seed, unit));
}
