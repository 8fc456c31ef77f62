import * as z from 'zod';
import { instant } from './fields';

/**
 * The holdout (docs/experiments.md, "The holdout"): a share of visitors kept on the control of
 * every experiment started while it runs, so what all the winners shipped since did together can
 * be measured against an equal share of everyone else, as GrowthBook's, Statsig's and Eppo's
 * holdouts are. Declared here
 * for the worker, the console and the CLI; what may change while it runs is the validator's
 * (worker/experiments/holdout/holdout-issues.ts).
 */

/** Its states: covering new experiments, analysed (covering no new one), released. */
export const HOLDOUT_STATUSES = ['running', 'analysis', 'ended'] as const;
export type HoldoutStatus = (typeof HOLDOUT_STATUSES)[number];

export const holdoutSchema = z
  .strictObject({
    /** Hashed with the visitor id (`<seed>#holdout`); a new holdout takes a new one. */
    seed: z
      .string()
      .regex(
        /^[A-Za-z0-9][A-Za-z0-9:_-]{0,63}$/,
        'must be letters, digits, :, - or _ (at most 64)',
      ),
    /** The share held out, 1–10%; as many visitors again are the measured sample. */
    percent: z.number().min(1, 'must be from 1 to 10').max(10, 'must be from 1 to 10'),
    status: z.enum(HOLDOUT_STATUSES),
    /** ISO instant: experiments started from then on are held back from its visitors. */
    startedAt: instant,
    /** ISO instant its analysis period began: experiments started from then on are not covered. */
    analysisFrom: instant.optional(),
    /** ISO instant it ended: no one is held out any more. */
    endedAt: instant.optional(),
    /**
     * Visitors per group expected when it is read: its intervals are tuned to it (absent:
     * worker/experiments/answer/holdout-results.ts HOLDOUT_PLANNED_PER_ARM).
     */
    plannedPerArm: z.number().int().min(1000).max(100_000_000).optional(),
    notes: z.string().max(2000).optional(),
  })
  .superRefine((holdout, ctx) => {
    if (holdout.status === 'analysis' && holdout.analysisFrom === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['analysisFrom'],
        message: 'is required in analysis: when the analysis period began',
      });
    if (holdout.status === 'ended' && holdout.endedAt === undefined)
      ctx.addIssue({ code: 'custom', path: ['endedAt'], message: 'is required once it ended' });
    for (const field of ['analysisFrom', 'endedAt'] as const) {
      const at = holdout[field];
      if (at !== undefined && Date.parse(at) < Date.parse(holdout.startedAt))
        ctx.addIssue({ code: 'custom', path: [field], message: 'must not come before startedAt' });
    }
  });

/** The `experiments.holdout` config field. */
export type HoldoutDocument = z.output<typeof holdoutSchema>;
