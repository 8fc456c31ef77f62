import * as z from 'zod';
import { isComposedScreenId } from '../composed-screens';
import { questionBranches } from '../quiz/branches';
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

/**
 * A flow's branches (shared/quiz/branches.ts), by the question they follow (`q_who`): where a
 * visitor goes after it, by their answers. Held to the flow's screens and the content's questions
 * by worker/content/check.ts.
 */
const flowBranches = atMostEntries(
  z.record(
    z.string().refine(isComposedScreenId, {
      error: (issue) => `"${String(issue.input)}" must be a question's id such as "q_who"`,
    }),
    questionBranches,
  ),
  50,
  'questions with branches',
);

const flowsSchema = z.strictObject({
  version,
  flows: atMostEntries(
    z.record(flowName, screenList).refine((f) => 'default' in f, 'must contain the "default" flow'),
    100,
    'flows',
  ),
  /** Per flow, where its questions lead by answer; a flow absent here walks its list in order. */
  branches: atMostEntries(z.record(flowName, flowBranches), 100, 'flows').optional(),
});

export type FlowsDocument = z.output<typeof flowsSchema>;
/** The flows as the console drafts them: screen ids it has not checked, a publish checks. */
export type FlowsDraft = z.input<typeof flowsSchema>;

export function parseFlows(raw: unknown): ParseResult<FlowsDocument> {
  return parseJsonDocument(flowsSchema, raw, CONFIG_MAX_BYTES);
}
