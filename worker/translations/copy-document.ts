import { type CopyDocument, copyDocumentSchema } from '../../shared/config/copy';
import { DICTIONARY_MAX_BYTES } from '../../shared/config/translations';
import type { FieldError } from '../../shared/console-api/errors';
import type { Change } from '../../shared/console-api/versions';
import { logWarning } from '../../shared/log';
import { isShippedLanguage, textProblems } from './check';

/**
 * The copy document a publish stores (every language's overrides, flat keys to texts): its
 * checks, the one form it is kept in, and the diff between two of them. Pure: the console's
 * review, its publish and `npm run translations` all come here.
 */

const byKey = ([a]: [string, unknown], [b]: [string, unknown]) => (a < b ? -1 : a > b ? 1 : 0);

/** The bytes a language's override takes in KV (its flat JSON). */
export const serializedCopy = (texts: Record<string, string>) => JSON.stringify(texts);

/**
 * A copy document read back from where a publish or a draft stored it (KV, the versions table),
 * or null when that text is no longer one (edited by hand, cut short): logged as
 * `stored_copy_unreadable` with `where`, never thrown, so a reader falls back to the bundled copy.
 */
export function storedCopy(raw: string, where: string): CopyDocument | null {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    value = undefined;
  }
  const parsed = copyDocumentSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  logWarning('stored_copy_unreadable', { where });
  return null;
}

type CopyCheck = { ok: true; copy: CopyDocument } | { ok: false; errors: FieldError[] };

/**
 * `value` as a copy document its schema (shared/config/copy.ts) and every rule pass
 * (worker/translations/check.ts, and the size the worker reads), its languages and keys sorted
 * and languages without a key left out; else every refusal, each at `copy.<language>.<key>`.
 * The rules are checked once the shape holds, as the config's cross-checks are.
 */
export function checkCopyDocument(value: unknown): CopyCheck {
  const shape = copyDocumentSchema.safeParse(value);
  if (!shape.success) {
    const errors = shape.error.issues.map((issue) => ({
      path: ['copy', ...issue.path].join('.'),
      message: issue.message,
    }));
    return { ok: false, errors };
  }
  const errors: FieldError[] = [];
  const copy: CopyDocument = {};
  for (const [language, texts] of Object.entries(shape.data).sort(byKey)) {
    const at = `copy.${language}`;
    if (!isShippedLanguage(language)) {
      errors.push({ path: at, message: 'is not a shipped language' });
      continue;
    }
    const kept: Record<string, string> = {};
    for (const [key, text] of Object.entries(texts).sort(byKey)) {
      for (const message of textProblems(language, key, text)) {
        errors.push({ path: `${at}.${key}`, message });
      }
      kept[key] = text;
    }
    if (new TextEncoder().encode(serializedCopy(kept)).length > DICTIONARY_MAX_BYTES) {
      errors.push({ path: at, message: `must be at most ${DICTIONARY_MAX_BYTES / 1024} KiB` });
    }
    if (Object.keys(kept).length > 0) copy[language] = kept;
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, copy };
}

/** The keys either object has, sorted. */
const keysOfBoth = (a: object, b: object) => Object.keys({ ...a, ...b }).sort();

/** What publishing `after` over `before` changes, text by text (`copy.es.landing.title`). */
export function diffCopy(before: CopyDocument | null, after: CopyDocument): Change[] {
  const changes: Change[] = [];
  const languages = keysOfBoth(before ?? {}, after);
  for (const language of languages) {
    const old = before?.[language] ?? {};
    const next = after[language] ?? {};
    for (const key of keysOfBoth(old, next)) {
      const path = `copy.${language}.${key}`;
      const was = old[key];
      const is = next[key];
      if (was === is) continue;
      if (was === undefined) changes.push({ path, kind: 'added', after: is });
      else if (is === undefined) changes.push({ path, kind: 'removed', before: was });
      else changes.push({ path, kind: 'changed', before: was, after: is });
    }
  }
  return changes;
}
