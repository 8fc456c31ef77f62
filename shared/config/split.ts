import * as z from 'zod';
import { RESULT_METRICS } from '../console-api/results';
import { atMostEntries, flowName, instant, version } from './fields';
import { CONFIG_MAX_BYTES, type ParseResult, parseJsonDocument } from './parse-document';

/**
 * The `split` config section (KV key `split`, SPEC.md §7's `config.json`), declared once for the
 * worker, the console and the CLI: the split test's variants and their weights.
 */

/** `type` or `type/subtype` (SPEC.md §4). */
const variantKey = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]*(\/[a-z0-9][a-z0-9_-]*)?$/, 'must be "type" or "type/subtype"');

/** A variant as the split document holds it. */
const variant = z.strictObject({
  weight: z.number().finite('must be a finite number').nonnegative('must not be negative'),
  /** Named flow; absent, the variant key with '/' read as '_' (lp11ch8/vc → lp11ch8_vc). */
  flow: flowName.optional(),
});

const experimentSettings = z.strictObject({
  /** Purchase conversion unless said. */
  primaryMetric: z.enum(RESULT_METRICS).optional(),
  /** The visitors per variant expected at decision time (tunes the intervals). */
  plannedPerArm: z.number().int().min(100).max(100_000_000).optional(),
});

export const splitSchema = z
  .strictObject({
    version,
    defaultVariant: variantKey,
    /**
     * The experiment phase the weights belong to; set by each publish
     * (worker/experiments/config/phases.ts).
     */
    phase: z.number().int().positive().optional(),
    /**
     * ISO instant its phase began, the setup its visitors are drawn under; set by each publish
     * that starts one (worker/experiments/holdout/holdout-issues.ts). Absent: from before the holdout.
     */
    since: instant.optional(),
    /**
     * How the experiment is read (the console's results): the metric its verdict is about
     * (purchase conversion unless said) and the visitors per variant expected at decision time,
     * which the always-valid intervals are tuned for (worker/experiments/statistics/statistics.ts).
     */
    experiment: experimentSettings.optional(),
    /**
     * The routes whose visitors the split test draws (shared/config/routing.ts); absent, only the
     * `default` route's. A visitor on another route walks that route's flow, undrawn. Empty: the
     * split draws no one and every visitor walks their route's flow (a winner made the default of
     * `default` takes the route out of the split, docs/routes.md "The split test and routes").
     */
    routes: z
      .array(z.string().regex(/^[a-z0-9][a-z0-9_-]{0,47}$/, 'must be a route id'))
      .max(100, 'must name at most 100 routes')
      .refine((ids) => new Set(ids).size === ids.length, 'must not name a route twice')
      .optional(),
    variants: atMostEntries(
      z
        .record(variantKey, variant)
        .refine((v) => Object.keys(v).length > 0, 'must list at least one variant'),
      100,
      'variants',
    ),
  })
  .superRefine((split, ctx) => {
    const total = Object.values(split.variants).reduce((sum, v) => sum + v.weight, 0);
    if (!(total > 0) || !Number.isFinite(total)) {
      ctx.addIssue({
        code: 'custom',
        path: ['variants'],
        message: 'weights must add up to a positive finite number',
      });
    }
    if (!Object.hasOwn(split.variants, split.defaultVariant)) {
      ctx.addIssue({
        code: 'custom',
        path: ['defaultVariant'],
        message: `"${split.defaultVariant}" is not one of the variants`,
      });
    }
  });

export type VariantDocument = z.output<typeof variant>;
export type ExperimentSettings = z.output<typeof experimentSettings>;
export type SplitDocument = z.output<typeof splitSchema>;

export function parseSplit(raw: unknown): ParseResult<SplitDocument> {
  return parseJsonDocument(splitSchema, raw, CONFIG_MAX_BYTES);
}
