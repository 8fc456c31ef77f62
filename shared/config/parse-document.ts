import type { z } from 'zod';
import { issueTexts } from '../validation-issues';

/** KV documents larger than this are refused before parsing (a marketer pasting a wrong file). */
export const CONFIG_MAX_BYTES = 64 * 1024;

/** What is wrong at one place of a document: `variants.a.weight`, or '' for the whole of it. */
export interface DocumentIssue {
  path: string;
  message: string;
}

/**
 * A document read from KV or a file: its value, or one line saying what is wrong with it and,
 * from a schema's check, the same as issues that name their field (the console puts each beside
 * its field).
 */
export type ParseResult<T> =
  | { ok: true; value: T }
  | { ok: false; error: string; issues?: DocumentIssue[] };

/** At most this many of a document's problems are told; the first ones are enough to act on. */
const MAX_ISSUES = 5;

/** Turns a zod error into one line a marketer can act on: `variants.a.weight: must not be negative`. */
function describeIssues(error: z.ZodError): string {
  return issueTexts(error, '(root)', MAX_ISSUES).join('; ');
}

const wholeDocument = (message: string): { ok: false; error: string; issues: DocumentIssue[] } => ({
  ok: false,
  error: message,
  issues: [{ path: '', message }],
});

/**
 * Parses JSON text (refused over `maxBytes` before parsing, so a wrong file pasted into KV
 * costs nothing) or an already-parsed value, and validates it with `schema`. Never throws.
 */
export function parseJsonDocument<T>(
  schema: z.ZodType<T>,
  raw: unknown,
  maxBytes: number,
): ParseResult<T> {
  let value = raw;
  if (typeof raw === 'string') {
    if (new TextEncoder().encode(raw).byteLength > maxBytes) {
      return wholeDocument(`larger than ${maxBytes} bytes`);
    }
    try {
      value = JSON.parse(raw);
    } catch (error) {
      return wholeDocument(`not JSON: ${(error as Error).message}`);
    }
  }
  const parsed = schema.safeParse(value);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : {
        ok: false,
        error: describeIssues(parsed.error),
        issues: parsed.error.issues.slice(0, MAX_ISSUES).map((issue) => ({
          path: issue.path.map(String).join('.'),
          message: issue.message,
        })),
      };
}
