import * as z from 'zod';
import { atMostEntries, flowName, screenRef, version } from './fields';
import { CONFIG_MAX_BYTES, type ParseResult, parseJsonDocument } from './parse-document';

/**
 * The `flows` config section (KV key `flows`, SPEC.md §7's `flows.json`), declared once for the
 * worker, the console and the CLI: each named flow's screens, in the order a visitor walks them.
 */

const screenList = z
  .array(screenRef)
  .min(1, 'must list at least one screen')
  .max(50, 'must list at most 50 screens')
  .refine((ids) => new Set(ids).size === ids.length, 'must not list a screen twice');

const flowsSchema = z.strictObject({
  version,
  flows: atMostEntries(
    z.record(flowName, screenList).refine((f) => 'default' in f, 'must contain the "default" flow'),
    100,
    'flows',
  ),
});

export type FlowsDocument = z.output<typeof flowsSchema>;
/** The flows as the console drafts them: screen ids it has not checked, a publish checks. */
export type FlowsDraft = z.input<typeof flowsSchema>;

export function parseFlows(raw: unknown): ParseResult<FlowsDocument> {
  return parseJsonDocument(flowsSchema, raw, CONFIG_MAX_BYTES);
}
