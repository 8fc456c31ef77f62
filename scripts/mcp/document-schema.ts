import * as z from 'zod';

/**
 * The config document as the tools take it (shared/console-api/config.ts ConfigDocument): its
 * five sections as objects, whose fields the worker checks, and answers invalid_config for with
 * each field's path. Checking them here too would be a second copy of the worker's rules.
 */
const section = (what: string) => z.record(z.string(), z.unknown()).describe(what);

export const configDocument = z
  .object({
    split: section('variants and their weights'),
    flows: section('each flow: the screens a visitor walks'),
    routing: section('the routes: which visitors get which flow'),
    experiments: section('the experiments and their variants'),
    content: section('what the screens show: sections and copy'),
  })
  .describe(
    'The whole config document, every section: take it from draft_get (draft.document) or, with no draft, from state (live), and change only what the edit needs.',
  );

/** A published version's seq the edit started from; null before the first publish. */
export const base = z
  .number()
  .int()
  .positive()
  .nullable()
  .describe(
    'The published version the edit starts from: draft.base, or state head.seq (null when nothing was published).',
  );
