import { CONFIG_MAX_BYTES } from '../../shared/config/parse-document';
import type { ConfigDocument } from '../../shared/console-api/config';
import type { FieldError } from '../../shared/console-api/errors';
import { draftSaveRequest } from '../../shared/console-api/request-schemas';
import type { Change } from '../../shared/console-api/versions';
import { SECTIONS } from '../config/document';
import type { Clearance, GateRefusal } from '../config/gate';
import type { Answer } from '../http/answer';

/**
 * What the console's publishes and rollbacks send and are refused with, the config's
 * (routes.ts) and the copy's (copy-route.ts) alike: a base version, a note, and the 400 or 409
 * that names why nothing was written.
 */

/** A note is a sentence or two; longer is cut, not refused. */
const MAX_NOTE_CHARS = 500;

export const noteOf = (value: unknown): string =>
  typeof value === 'string' ? value.trim().slice(0, MAX_NOTE_CHARS) : '';

/**
 * What lets a console publish through the gate (worker/config/gate.ts): `breakGlass: true` makes
 * its note the break-glass reason; else the shared draft's revision it names, if any.
 */
export function clearanceOf(
  body: { breakGlass?: unknown; draft?: unknown },
  note: string,
): Clearance {
  if (body.breakGlass === true) return { kind: 'break_glass', reason: note };
  return { kind: 'draft', revision: revisionOf(body.draft) };
}

/**
 * A publish or rollback refused: invalid (400), on top of another's version (409), or held at
 * the gate (403, worker/config/gate.ts).
 */
export type Refused<Head> =
  | { kind: 'invalid'; errors: FieldError[] }
  | { kind: 'conflict'; head: Head; changes: Change[] }
  | GateRefusal;

/** The answer of a refused publish or rollback, logged as its error. */
export function refusedAnswer<Head>(c: Answer, outcome: Refused<Head>): Response {
  if (outcome.kind === 'invalid') {
    c.get('logFields').error = 'invalid_config';
    return c.json({ ok: false, error: 'invalid_config', errors: outcome.errors }, 400);
  }
  if (outcome.kind === 'approval_required') {
    c.get('logFields').error = 'approval_required';
    c.get('logFields').approval = outcome.reasons.map((reason) => reason.path).join(',');
    return c.json({ ok: false, error: 'approval_required', reasons: outcome.reasons }, 403);
  }
  if (outcome.kind === 'break_glass_refused') {
    c.get('logFields').error = 'break_glass_refused';
    return c.json({ ok: false, error: 'break_glass_refused', message: outcome.why }, 403);
  }
  c.get('logFields').error = 'version_conflict';
  const { head, changes } = outcome;
  return c.json({ ok: false, error: 'version_conflict', head, changes }, 409);
}

/**
 * What a save of the shared draft sends (shared/console-api/draft.ts DraftSaveRequest), read
 * without trusting it: a draft is a document being edited, so it is not validated as a publish
 * is (that is the review's work), only held to a publish's shape and size, so nothing is stored
 * that no publish could take.
 */

/** A save's fields, or why it is refused: not the call's JSON, or a section over the limit. */
export type DraftSave =
  | {
      ok: true;
      revision: number;
      base: number | null;
      document: ConfigDocument;
      pausedWeights: Record<string, number>;
      /** Where both changed the same place, keep this save's values (the "keep mine" choice). */
      keepMine: boolean;
    }
  | { ok: false; error: 'bad_request' | 'draft_too_large' };

const BYTES = new TextEncoder();

/** A revision as sent: 0 (none saved yet) or a saved one's number. */
function revisionOf(value: unknown): number | undefined {
  return Number.isSafeInteger(value) && (value as number) >= 0 ? (value as number) : undefined;
}

/**
 * A save's body as the worker takes it (shared/console-api/request-schemas.ts draftSaveRequest,
 * the schema the OpenAPI document gives), or why not: 400 bad_request, or 413 draft_too_large for
 * a section larger than a publish takes (CONFIG_MAX_BYTES).
 */
export function draftSaveOf(body: unknown): DraftSave {
  const parsed = draftSaveRequest.safeParse(body);
  if (!parsed.success) return { ok: false, error: 'bad_request' };
  const { revision, base, document, pausedWeights, keepMine } = parsed.data;
  for (const section of SECTIONS) {
    if (BYTES.encode(JSON.stringify(document[section])).byteLength > CONFIG_MAX_BYTES) {
      return { ok: false, error: 'draft_too_large' };
    }
  }
  return {
    ok: true,
    revision,
    base,
    document: document as unknown as ConfigDocument,
    pausedWeights,
    keepMine: keepMine === true,
  };
}
