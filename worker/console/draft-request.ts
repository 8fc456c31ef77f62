import { CONFIG_MAX_BYTES } from '../../shared/config/parse-document';
import type { ConfigDocument } from '../../shared/console-api/config';
import { SECTIONS } from '../config/document';
import { baseOf, isObject } from './publish-request';

/**
 * What a save of the shared draft sends (shared/console-api/draft.ts DraftSaveRequest), read
 * without trusting it: a draft is a document being edited, so it is not validated as a publish
 * is (that is the review's work), only held to a publish's shape and size, so nothing is stored
 * that no publish could take.
 */

/** The pauses a draft remembers: a variant key to its weight, a few dozen at most. */
const MAX_PAUSED = 100;

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

/** Each of the document's sections an object no larger than a publish takes (CONFIG_MAX_BYTES). */
function documentOf(value: unknown): ConfigDocument | 'bad_request' | 'draft_too_large' {
  if (!isObject(value)) return 'bad_request';
  const keys = Object.keys(value);
  if (keys.length !== SECTIONS.length || !SECTIONS.every((section) => keys.includes(section))) {
    return 'bad_request';
  }
  for (const section of SECTIONS) {
    const part = value[section];
    if (!isObject(part)) return 'bad_request';
    if (BYTES.encode(JSON.stringify(part)).byteLength > CONFIG_MAX_BYTES) return 'draft_too_large';
  }
  return value as unknown as ConfigDocument;
}

function pausedOf(value: unknown): Record<string, number> | undefined {
  if (!isObject(value)) return undefined;
  const entries = Object.entries(value);
  if (entries.length > MAX_PAUSED) return undefined;
  const weights = entries.every(
    ([key, weight]) => key.length <= 64 && typeof weight === 'number' && Number.isFinite(weight),
  );
  return weights ? (value as Record<string, number>) : undefined;
}

/** A revision as sent: 0 (none saved yet) or a saved one's number. */
export function revisionOf(value: unknown): number | undefined {
  return Number.isSafeInteger(value) && (value as number) >= 0 ? (value as number) : undefined;
}

/** A save's body as the worker takes it, or why not (400 bad_request, 413 draft_too_large). */
export function draftSaveOf(body: unknown): DraftSave {
  if (!isObject(body)) return { ok: false, error: 'bad_request' };
  const revision = revisionOf(body.revision);
  const base = baseOf(body.base);
  const pausedWeights = pausedOf(body.pausedWeights ?? {});
  const document = documentOf(body.document);
  if (typeof document === 'string') return { ok: false, error: document };
  if (revision === undefined || base === undefined || pausedWeights === undefined) {
    return { ok: false, error: 'bad_request' };
  }
  return { ok: true, revision, base, document, pausedWeights, keepMine: body.keepMine === true };
}
