import * as z from 'zod';
import {
  DECISION_ACTIONS,
  DECISION_RESULTS,
  EXPERIMENT_METRICS,
  EXPERIMENT_STATUSES,
  type ExperimentsDocument,
  LAYERS,
  SLOTS,
} from '../../../shared/experiments';
import { isScreenId } from '../../../shared/screens';
import { type ParseResult, parseJsonDocument } from '../../parse-json-document';
import { planLists } from '../../routing/plan-schema';
import { condition, instant, slug } from '../../routing/schema';

/**
 * The shape of the `experiments` config section (shared/experiments.ts): every field of every
 * experiment on its own. What an experiment names elsewhere (flows, routes, audiences), the
 * triggers, the layers' overlaps and what a running experiment may change are the validator's
 * (validate.ts), which sees the whole config.
 */

/** Like the other sections (worker/config/schema.ts CONFIG_MAX_BYTES). */
const EXPERIMENTS_MAX_BYTES = 64 * 1024;

/** Experiments kept in the document, archived ones included; archive and delete old ones. */
const MAX_EXPERIMENTS = 50;

const version = z
  .union([z.string().min(1).max(64), z.number().int().nonnegative()])
  .transform(String);

const variantKey = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]*(\/[a-z0-9][a-z0-9_-]*)?$/, 'must be "type" or "type/subtype"')
  .max(48, 'must be at most 48 characters');

const seed = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9:_-]{0,63}$/, 'must be letters, digits, :, - or _ (at most 64)');

const screenId = z
  .string()
  .refine(isScreenId, { error: (issue) => `unknown screen id "${String(issue.input)}"` });

const change = z.strictObject({
  flow: z
    .string()
    .regex(/^[a-z0-9][a-z0-9_-]*$/, 'must be a lower-case flow name')
    .optional(),
  screens: z.partialRecord(z.enum(SLOTS), screenId).optional(),
  ...planLists,
});

const variant = z.strictObject({
  name: z.string().min(1).max(80).optional(),
  weight: z.number().finite('must be a finite number').nonnegative('must not be negative'),
  change,
});

const share = z.number().min(0, 'must be from 0 to 1').max(1, 'must be from 0 to 1');

const evidence = z.strictObject({
  phase: z.number().int().positive(),
  metric: z.enum(EXPERIMENT_METRICS),
  relativeLift: z.number().finite().nullable(),
  interval: z.tuple([z.number(), z.number()]).nullable(),
  verdict: z.string().max(40).nullable(),
  srmAlarm: z.boolean(),
});

const decision = z.strictObject({
  result: z.enum(DECISION_RESULTS),
  action: z.enum(DECISION_ACTIONS),
  variant: variantKey.optional(),
  reason: z.string().min(1).max(500).optional(),
  at: instant,
  by: z.string().min(1).max(200),
  evidence,
});

const experiment = z
  .strictObject({
    name: z.string().min(1, 'must not be empty').max(120),
    hypothesis: z.string().max(1000).optional(),
    status: z.enum(EXPERIMENT_STATUSES),
    layer: z.enum(LAYERS),
    range: z
      .tuple([share, share])
      .refine(([from, to]) => from < to, 'must run from a smaller share to a larger one')
      .optional(),
    audience: z.strictObject({
      routes: z
        .array(slug)
        .min(1, 'must name at least one route')
        .max(100)
        .refine((ids) => new Set(ids).size === ids.length, 'must not name a route twice')
        .optional(),
      audience: slug.optional(),
      groups: z.array(z.array(condition).min(1).max(20)).min(1).max(20).optional(),
    }),
    coverage: z.number().gt(0, 'must be above 0').max(1, 'must be at most 1'),
    seed,
    phase: z.number().int().positive().optional(),
    control: variantKey,
    variants: z
      .record(variantKey, variant)
      .refine((v) => Object.keys(v).length >= 2, 'must list at least 2 variants')
      .refine((v) => Object.keys(v).length <= 5, 'must list at most 5 variants'),
    metrics: z
      .strictObject({
        primary: z.enum(EXPERIMENT_METRICS).optional(),
        plannedPerArm: z.number().int().min(100).max(100_000_000).optional(),
      })
      .optional(),
    startedAt: instant.optional(),
    endedAt: instant.optional(),
    drainDays: z.number().int().min(0).max(90).optional(),
    notes: z.string().max(2000).optional(),
    decision: decision.optional(),
  })
  .superRefine((exp, ctx) => {
    if (!Object.hasOwn(exp.variants, exp.control)) {
      ctx.addIssue({
        code: 'custom',
        path: ['control'],
        message: `"${exp.control}" is not one of the variants`,
      });
      return;
    }
    const control = exp.variants[exp.control]!;
    if (Object.keys(control.change).length > 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['variants', exp.control, 'change'],
        message: 'the control changes nothing: it is the route as it is',
      });
    }
    const total = Object.values(exp.variants).reduce((sum, v) => sum + v.weight, 0);
    if (!(total > 0)) {
      ctx.addIssue({
        code: 'custom',
        path: ['variants'],
        message: 'weights must add up to more than 0',
      });
      return;
    }
    for (const [key, v] of Object.entries(exp.variants)) {
      if (v.weight > 0 && v.weight / total < 0.01) {
        ctx.addIssue({
          code: 'custom',
          path: ['variants', key, 'weight'],
          message: 'a variant drawn gets at least 1% of the total (or 0 to pause it)',
        });
      }
    }
    if (exp.decision?.variant !== undefined && !Object.hasOwn(exp.variants, exp.decision.variant)) {
      ctx.addIssue({
        code: 'custom',
        path: ['decision', 'variant'],
        message: `"${exp.decision.variant}" is not one of the variants`,
      });
    }
  });

const experimentsSchema = z.strictObject({
  version,
  layers: z.partialRecord(z.enum(LAYERS), z.strictObject({ seed })).optional(),
  experiments: z
    .record(slug, experiment)
    .refine(
      (all) => Object.keys(all).length <= MAX_EXPERIMENTS,
      `must list at most ${MAX_EXPERIMENTS} experiments`,
    ),
  alerts: z
    .strictObject({
      // Which addresses may take the alerts depends on where the worker runs: the validator's
      // (validate.ts, worker/alerts/webhook-address.ts). Here, only that it is a web address.
      webhook: z
        .url({ protocol: /^https?$/, error: 'must be an https:// address' })
        .max(500)
        .optional(),
    })
    .optional(),
});

export type ExperimentsConfig = ExperimentsDocument;

export function parseExperiments(raw: unknown): ParseResult<ExperimentsConfig> {
  return parseJsonDocument(
    experimentsSchema as unknown as z.ZodType<ExperimentsConfig>,
    raw,
    EXPERIMENTS_MAX_BYTES,
  );
}
