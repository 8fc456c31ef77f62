import { DICTIONARY_MAX_BYTES } from '../../shared/config/translations';
import type { CopyDocument } from '../../shared/console-api/copy';
import type { FieldError } from '../../shared/console-api/errors';
import type { Change } from '../../shared/console-api/versions';
import { isShippedLanguage, textProblems } from './check';

/**
 * The copy document a publish stores (every language's overrides, flat keys to texts): its
 * checks, the one form it is kept in, and the diff between two of them. Pure: the console's
 * review, its publish and `npm run translations` all come here.
 */

/** Each text at most this long, as the worker's schema reads an override (shared/config/translations.ts). */
const TEXT_MAX_CHARS = 4000;

const byKey = ([a]: [string, unknown], [b]: [string, unknown]) => (a < b ? -1 : a > b ? 1 : 0);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The bytes a language's override takes in KV (its flat JSON). */
export const serializedCopy = (texts: Record<string, string>) => JSON.stringify(texts);

/**
 * `value` as a copy document every rule passes (worker/translations/check.ts, and the size the
 * worker reads), its languages and keys sorted and languages without a key left out; else every
 * refusal, each at `copy.<language>.<key>`.
 */
export function checkCopyDocument(
  value: unknown,
): { ok: true; copy: CopyDocument } | { ok: false; errors: FieldError[] } {
  if (!isObject(value))
    return { ok: false, errors: [{ path: 'copy', message: 'must be an object' }] };
  const errors: FieldError[] = [];
  const copy: CopyDocument = {};
  for (const [language, texts] of Object.entries(value).sort(byKey)) {
    const at = `copy.${language}`;
    if (!isShippedLanguage(language)) {
      errors.push({ path: at, message: 'is not a shipped language' });
      continue;
    }
    if (!isObject(texts)) {
      errors.push({ path: at, message: 'must map keys to texts' });
      continue;
    }
    const kept: Record<string, string> = {};
    for (const [key, text] of Object.entries(texts).sort(byKey)) {
      if (typeof text !== 'string') {
        errors.push({ path: `${at}.${key}`, message: 'must be a text' });
        continue;
      }
      const problems = textProblems(language, key, text);
      if (text.length > TEXT_MAX_CHARS)
        problems.push(`must be at most ${TEXT_MAX_CHARS} characters`);
      for (const message of problems) errors.push({ path: `${at}.${key}`, message });
      kept[key] = text;
    }
    if (new TextEncoder().encode(serializedCopy(kept)).length > DICTIONARY_MAX_BYTES) {
      errors.push({ path: at, message: `must be at most ${DICTIONARY_MAX_BYTES / 1024} KiB` });
    }
    if (Object.keys(kept).length > 0) copy[language] = kept;
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, copy };
}

/** What publishing `after` over `before` changes, text by text (`copy.es.landing.title`). */
export function diffCopy(before: CopyDocument | null, after: CopyDocument): Change[] {
  const changes: Change[] = [];
  const languages = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after)])].sort();
  for (const language of languages) {
    const old = before?.[language] ?? {};
    const next = after[language] ?? {};
    const keys = [...new Set([...Object.keys(old), ...Object.keys(next)])].sort();
    for (const key of keys) {
      const path = `copy.${language}.${key}`;
      const [was, is] = [old[key], next[key]];
      if (was === is) continue;
      if (was === undefined) changes.push({ path, kind: 'added', after: is });
      else if (is === undefined) changes.push({ path, kind: 'removed', before: was });
      else changes.push({ path, kind: 'changed', before: was, after: is });
    }
  }
  return changes;
}
