import { z } from 'zod';
import { isScreenId } from '../../shared/screens';

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

export const flowsSchema = z.strictObject({
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

export type ParseResult<T> = { ok: true; value: T } | { ok: false; error: string };

/** Turns a zod error into one line a marketer can act on: `variants.a.weight: must not be negative`. */
function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`)
    .join('; ');
}

function parseDocument<T>(schema: z.ZodType<T>, raw: unknown): ParseResult<T> {
  let value = raw;
  if (typeof raw === 'string') {
    if (new TextEncoder().encode(raw).byteLength > CONFIG_MAX_BYTES) {
      return { ok: false, error: `larger than ${CONFIG_MAX_BYTES} bytes` };
    }
    try {
      value = JSON.parse(raw);
    } catch (error) {
      return { ok: false, error: `not JSON: ${(error as Error).message}` };
    }
  }
  const parsed = schema.safeParse(value);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, error: describeIssues(parsed.error) };
}

export function parseSplit(raw: unknown): ParseResult<SplitConfig> {
  return parseDocument(splitSchema, raw);
}

export function parseFlows(raw: unknown): ParseResult<FlowsConfig> {
  return parseDocument(flowsSchema as z.ZodType<FlowsConfig>, raw);
}
