import * as z from 'zod';
import { isScreenRef, type ScreenRef } from '../composed-screens';
import { isScreenId } from '../screens';

/**
 * The fields several config documents share, declared once so a rule reads the same in each
 * (shared/config/split.ts, flows.ts, routing.ts, experiments.ts).
 */

/** A document's version as written: text, or a whole number read as text. */
export const version = z
  .union([z.string().min(1).max(64), z.number().int().nonnegative()])
  .transform(String);

/** A record that lists at most `max` entries, refused as "must list at most 100 flows". */
export function atMostEntries<Schema extends z.ZodType<Record<string, unknown>>>(
  schema: Schema,
  max: number,
  entries: string,
): Schema {
  return schema.refine(
    (record) => Object.keys(record).length <= max,
    `must list at most ${max} ${entries}`,
  );
}

export const flowName = z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, 'must be a lower-case flow name');

/** The shape of a route's, an audience's or an experiment's id. */
export const SLUG = /^[a-z0-9][a-z0-9_-]{0,47}$/;

/** A route's, an audience's or an experiment's id. */
export const slug = z
  .string()
  .regex(SLUG, 'must be lower-case letters, digits, - or _ (at most 48)');

export const screenId = z
  .string()
  .refine(isScreenId, { error: (issue) => `unknown screen id "${String(issue.input)}"` });

export const instant = z
  .string()
  .regex(
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?Z$/,
    'must be a UTC time like 2026-11-27T00:00Z',
  )
  .refine((text) => !Number.isNaN(Date.parse(text)), 'is not a real date');

/**
 * A screen a flow, a route's content or an experiment names: one in code, or a composed one
 * (shared/composed-screens.ts); whether the content declares it is checked across sections
 * (worker/config/document.ts crossCheck).
 */
export const screenRef = z
  .string()
  .refine(isScreenRef, { error: (issue) => `unknown screen id "${String(issue.input)}"` })
  .transform((id) => id as ScreenRef);
