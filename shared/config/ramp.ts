import * as z from 'zod';
import {
  FORGEABLE_GUARDRAILS,
  MAX_RAMP_COVERAGE,
  RAMP_ACTIONS,
  RAMP_GUARDRAILS,
  RAMP_STATUSES,
} from '../ramps';
import { instant } from './fields';

/**
 * An experiment's `ramp` (docs/experiments.md, "Guarded ramps"; the design is GrowthBook's ramp
 * schedules with an equal-size control, /work/shared/research/guarded-experiments.md §B.2): its
 * steps, what each guardrail does, and where it stands. The state lives in the config, so the
 * edge reads it with the rest and every advance or rollback is a published version.
 */

const step = z.strictObject({
  /** The variant's share of the matching visitors, above 0 and at most 0.5; the control gets as many. */
  coverage: z
    .number()
    .gt(0, 'must be above 0')
    .max(MAX_RAMP_COVERAGE, 'must be at most 0.5 (the variant and an equal control: everyone)'),
  /** Hours the step lasts at least before the next. */
  holdHours: z
    .number()
    .min(0, 'must not be negative')
    .max(24 * 90, 'must be at most 2160 (90 days)'),
  /** Visitors exposed in each arm (since the phase began) before the next step. */
  minPerArm: z.number().int('must be a whole number').min(0).max(10_000_000),
});

const state = z.strictObject({
  /** The step in effect, from 0. */
  step: z.number().int().nonnegative(),
  /** When it began: the hold counts from here. */
  since: instant,
  status: z.enum(RAMP_STATUSES),
  /** Why it is held, rolled back or was resumed: the engine's or a person's words. */
  reason: z.string().min(1).max(500).optional(),
});

/** The `ramp` field of an experiment (shared/config/experiments.ts). */
export const ramp = z
  .strictObject({
    steps: z.array(step).min(1, 'must list at least 1 step').max(10, 'must list at most 10 steps'),
    /** Per guardrail, what it does when broken; absent ones do shared/ramps.ts DEFAULT_RAMP_ACTIONS. */
    guardrails: z.partialRecord(z.enum(RAMP_GUARDRAILS), z.enum(RAMP_ACTIONS)).optional(),
    /** Hours before `no_traffic` is judged; 24 unless said. */
    noTrafficHours: z
      .number()
      .min(1)
      .max(24 * 30)
      .optional(),
    /** The chance a sound variant is rolled or held back at all, shared among the guardrails. */
    alpha: z
      .number()
      .min(0.001, 'must be at least 0.001')
      .max(0.2, 'must be at most 0.2')
      .optional(),
    state,
  })
  .superRefine((value, ctx) => {
    value.steps.forEach((current, index) => {
      const before = value.steps[index - 1];
      if (before !== undefined && !(current.coverage > before.coverage))
        ctx.addIssue({
          code: 'custom',
          path: ['steps', index, 'coverage'],
          message: `must be above the step before's ${before.coverage}: a ramp only grows (raising it only adds visitors)`,
        });
    });
    if (value.state.step >= value.steps.length)
      ctx.addIssue({
        code: 'custom',
        path: ['state', 'step'],
        message: `names step ${value.state.step}, but the steps are 0 to ${value.steps.length - 1}`,
      });
    for (const [guardrail, action] of Object.entries(value.guardrails ?? {}))
      if (action === 'rollback' && FORGEABLE_GUARDRAILS.has(guardrail as never))
        ctx.addIssue({
          code: 'custom',
          path: ['guardrails', guardrail],
          message:
            'may hold or warn, not roll back: a page speed is a beacon a visitor could forge',
        });
  });

/** A ramp as the config holds it. */
export type RampDocument = z.output<typeof ramp>;

/**
 * What a ramped experiment must be, beside its ramp: one variant against its control at equal
 * weights (the ramp draws them half and half: unequal weights would make the sample-ratio check
 * expect another split), and a coverage of 1 (the ramp's step says who enters). Each a path
 * within the experiment and why.
 */
export function rampedExperimentIssues(experiment: {
  coverage: number;
  variants: Record<string, { weight: number }>;
}): { path: (string | number)[]; message: string }[] {
  const issues: { path: (string | number)[]; message: string }[] = [];
  const weights = Object.values(experiment.variants).map((variant) => variant.weight);
  if (weights.length !== 2)
    issues.push({
      path: ['variants'],
      message: 'a ramp takes one variant against its control: list exactly 2 variants',
    });
  else if (weights[0] !== weights[1])
    issues.push({
      path: ['variants'],
      message: 'a ramp draws its arms half and half: give both variants the same weight',
    });
  if (experiment.coverage !== 1)
    issues.push({
      path: ['coverage'],
      message: "must be 1 with a ramp: the ramp's step says who enters",
    });
  return issues;
}
