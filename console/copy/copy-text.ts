import type { CopyDocument } from '../../shared/config/copy';
import type { CopyKey } from '../../shared/console-api/copy';
import { holdsEveryWord } from '../kit/search-words';

/**
 * The Copy area's pure parts: finding keys by their name or English text, grouping them by area,
 * the document a draft publishes, and a text as it shows with its placeholders filled in.
 */

/** A language's edits of the draft: key → text, or null for "back to the bundled text". */
export type CopyEdits = Record<string, Record<string, string | null>>;

/**
 * The keys whose name, English text or any language's text (bundled or overridden) holds every
 * word of `query`, English matches first; all keys for an empty query.
 */
export function findKeys(keys: readonly CopyKey[], query: string, live: CopyDocument): CopyKey[] {
  const holds = holdsEveryWord(query);
  if (!holds) return [...keys];
  const inEnglish = keys.filter((k) => holds(k.english) || holds(k.key.replaceAll('.', ' ')));
  const found = new Set(inEnglish);
  const elsewhere = keys.filter(
    (k) =>
      !found.has(k) &&
      Object.entries(k.bundled).some(
        ([language, text]) => holds(text) || holds(live[language]?.[k.key] ?? ''),
      ),
  );
  return [...inEnglish, ...elsewhere];
}

/** `keys` by area, in the order the areas are given, areas without a key left out. */
export function byArea<T extends { area: string }>(
  areas: readonly { id: string }[],
  keys: readonly T[],
): { area: string; keys: T[] }[] {
  return areas
    .map(({ id }) => ({ area: id, keys: keys.filter((k) => k.area === id) }))
    .filter((group) => group.keys.length > 0);
}

/**
 * The overrides a publish of the draft puts in effect: the live ones with the edits laid over.
 * An edit back to the bundled text (or null) removes the override rather than storing a copy of it.
 */
export function draftDocument(
  live: CopyDocument,
  edits: CopyEdits,
  bundled: (language: string, key: string) => string | undefined,
): CopyDocument {
  const next: CopyDocument = {};
  for (const [language, texts] of Object.entries(live)) next[language] = { ...texts };
  for (const [language, texts] of Object.entries(edits)) {
    const target = { ...(next[language] ?? {}) };
    for (const [key, text] of Object.entries(texts)) {
      if (text === null || text === bundled(language, key)) delete target[key];
      else target[key] = text;
    }
    if (Object.keys(target).length > 0) next[language] = target;
    else delete next[language];
  }
  return next;
}

/** How many texts the edits change against what is live. */
export function editCount(
  live: CopyDocument,
  edits: CopyEdits,
  bundled: (language: string, key: string) => string | undefined,
): number {
  const next = draftDocument(live, edits, bundled);
  let count = 0;
  for (const language of new Set([...Object.keys(live), ...Object.keys(next)])) {
    const before = live[language] ?? {};
    const after = next[language] ?? {};
    for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
      if (before[key] !== after[key]) count += 1;
    }
  }
  return count;
}

/** What the page fills a placeholder with, shown as an example (the worker's values vary). */
const SAMPLES: Record<string, string> = {
  price: '€9.99',
  introPrice: '€0.99',
  amount: '€9.99',
  count: '3',
  percent: '50',
  app: 'Geozilla',
  brand: 'Geozilla',
  title: 'Geozilla',
  support_email: 'support@geozilla.com',
  step: '2',
  steps: '4',
};

/** A text as a visitor reads it, split so each filled placeholder can be marked. */
export function renderedParts(text: string): { text: string; placeholder?: string }[] {
  const parts: { text: string; placeholder?: string }[] = [];
  let last = 0;
  for (const match of text.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}/g)) {
    if (match.index > last) parts.push({ text: text.slice(last, match.index) });
    const name = match[1]!;
    parts.push({ text: SAMPLES[name] ?? name, placeholder: name });
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
}
