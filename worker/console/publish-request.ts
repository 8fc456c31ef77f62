import type { FieldError } from '../../shared/console-api/errors';
import type { Change } from '../../shared/console-api/versions';
import type { Answer } from '../http/answer';

/**
 * What the console's publishes and rollbacks send and are refused with, the config's
 * (routes.ts) and the copy's (copy-route.ts) alike: a base version, a note, and the 400 or 409
 * that names why nothing was written.
 */

/** A note is a sentence or two; longer is cut, not refused. */
const MAX_NOTE_CHARS = 500;

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const noteOf = (value: unknown): string =>
  typeof value === 'string' ? value.trim().slice(0, MAX_NOTE_CHARS) : '';

/** `base` as sent: a version's seq, or null before the first publish. */
export function baseOf(value: unknown): number | null | undefined {
  if (value === null) return null;
  return Number.isSafeInteger(value) && (value as number) > 0 ? (value as number) : undefined;
}

/** A rollback's body: the version it starts from, the one to restore, a note; else null. */
export function rollbackRequestOf(
  body: unknown,
): { base: number | null; seq: number; note: string } | null {
  if (!isObject(body)) return null;
  const base = baseOf(body.base);
  const seq = baseOf(body.seq);
  if (base === undefined || typeof seq !== 'number') return null;
  return { base, seq, note: noteOf(body.note) };
}

/** A publish or rollback refused: invalid (400) or on top of another's version (409). */
export type Refused<Head> =
  | { kind: 'invalid'; errors: FieldError[] }
  | { kind: 'conflict'; head: Head; changes: Change[] };

/** The answer of a refused publish or rollback, logged as its error. */
export function refusedAnswer<Head>(c: Answer, outcome: Refused<Head>): Response {
  if (outcome.kind === 'invalid') {
    c.get('logFields').error = 'invalid_config';
    return c.json({ ok: false, error: 'invalid_config', errors: outcome.errors }, 400);
  }
  c.get('logFields').error = 'version_conflict';
  const { head, changes } = outcome;
  return c.json({ ok: false, error: 'version_conflict', head, changes }, 409);
}
