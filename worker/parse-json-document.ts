import type { z } from 'zod';
import { issueTexts } from '../shared/validation-issues';

/** A document read from KV or a file: its value, or one line saying what is wrong with it. */
export type ParseResult<T> = { ok: true; value: T } | { ok: false; error: string };

/** Turns a zod error into one line a marketer can act on: `variants.a.weight: must not be negative`. */
function describeIssues(error: z.ZodError): string {
  return issueTexts(error, '(root)', 5).join('; ');
}

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
      return { ok: false, error: `larger than ${maxBytes} bytes` };
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
