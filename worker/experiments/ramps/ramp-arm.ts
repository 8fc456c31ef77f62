import type { ExperimentDocument } from '../../../shared/config/experiments';
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

/** The ramp of an experiment as the edge draws it; null for an experiment without one. */
export function compileRamp(experiment: ExperimentDocument): CompiledRamp | null {
  const { ramp, control } = experiment;
  if (ramp === undefined) return null;
  const treatment = Object.keys(experiment.variants).find((key) => key !== control) ?? control;
  const rolledBack = ramp.state.status === 'rolled_back';
  const coverage = rolledBack ? 0 : (ramp.steps[ramp.state.step]?.coverage ?? 0);
  return { coverage, treatment, control, rolledBack };
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
