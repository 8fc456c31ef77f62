import * as z from 'zod';
import { RESULT_METRICS } from '../../shared/console-api';
import { isScreenId } from '../../shared/screens';
import { type ParseResult, parseJsonDocument } from '../parse-json-document';

/** KV documents larger than this are refused before parsing (a marketer pasting a wrong file). */
export const CONFIG_MAX_BYTES = 64 * 1024;

/** `type` or `type/subtype` (SPEC.md §4). */
const variantKey = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]*(\/[a-z0-9][a-z0-9_-]*)?$/, 'must be "type" or "type/subtype"');

const flowName = z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, 'must be a lower-case flow name');

const version = z
  .union([z.string().min(1).max(64), z.number().int().nonnegative()])
  .transform(String);

const variant = z.strictObject({
  weight: z.number().finite('must be a finite number').nonnegative('must not be negative'),
  /** Named flow; defaults to the variant key with '/' read as '_' (lp11ch8/vc → lp11ch8_vc). */
  flow: flowName.optional(),
});

export const splitSchema = z
  .strictObject({
    version,
    defaultVariant: variantKey,
    /** The experiment phase the weights belong to; set by each publish (worker/config/phase.ts). */
    phase: z.number().int().positive().optional(),
    /**
     * How the experiment is read (the console's results): the metric its verdict is about
     * (purchase conversion unless said) and the visitors per variant expected at decision time,
     * which the always-valid intervals are tuned for (worker/experiments/statistics.ts).
     */
    experiment: z
      .strictObject({
        primaryMetric: z.enum(RESULT_METRICS).optional(),
        plannedPerArm: z.number().int().min(100).max(100_000_000).optional(),
      })
      .optional(),
    /**
     * The routes whose visitors the split test draws (shared/routing.ts); absent, only the
     * `default` route's. A visitor on another route walks that route's flow, undrawn.
     */
    routes: z
      .array(z.string().regex(/^[a-z0-9][a-z0-9_-]{0,47}$/, 'must be a route id'))
      .min(1, 'must name at least one route')
      .max(100, 'must name at most 100 routes')
      .refine((ids) => new Set(ids).size === ids.length, 'must not name a route twice')
      .optional(),
    variants: z
      .record(variantKey, variant)
      .refine((v) => Object.keys(v).length > 0, 'must list at least one variant')
      .refine((v) => Object.keys(v).length <= 100, 'must list at most 100 variants'),
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

const screenList = z
  .array(
    z
      .string()
      .refine(isScreenId, { error: (issue) => `unknown screen id "${String(issue.input)}"` }),
  )
  .min(1, 'must list at least one screen')
  .max(50, 'must list at most 50 screens')
  .refine((ids) => new Set(ids).size === ids.length, 'must not list a screen twice');

const flowsSchema = z.strictObject({
  version,
  flows: z
    .record(flowName, screenList)
    .refine((f) => 'default' in f, 'must contain the "default" flow')
    .refine((f) => Object.keys(f).length <= 100, 'must list at most 100 flows'),
});

export type SplitConfig = z.output<typeof splitSchema>;
export type FlowsConfig = {
  version: string;
  flows: Record<string, readonly import('../../shared/screens').ScreenId[]>;
};

export type { ParseResult };

export function parseSplit(raw: unknown): ParseResult<SplitConfig> {
  return parseJsonDocument(splitSchema, raw, CONFIG_MAX_BYTES);
}

export function parseFlows(raw: unknown): ParseResult<FlowsConfig> {
  return parseJsonDocument(flowsSchema as z.ZodType<FlowsConfig>, raw, CONFIG_MAX_BYTES);
}
