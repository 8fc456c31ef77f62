import type { ContentDocument, ScreenContent } from '../../shared/config/content';
import type { ComposedScreenChoice } from '../../shared/console-api/content';
import { PLURAL_SUFFIX } from '../../shared/copy-placeholders';

/**
 * The content editor's edits of a screen's sections and copy, as pure functions over the
 * config's `content` section (shared/config/content.ts): each returns a new document and leaves
 * the one it was given alone. A screen whose sections are back to code's, with no copy of its
 * own, leaves the document, so undoing every edit leaves no change to publish. The worker's
 * check (worker/content/check.ts) says again what a publish may hold.
 */

/** One row of the editor's section list. */
export interface SectionRow {
  id: string;
  visible: boolean;
  required: boolean;
}

/** The screen's sections as the content lists them, else as code composes them (all shown). */
export function arrangementOf(
  content: ContentDocument,
  screen: ComposedScreenChoice,
): SectionRow[] {
  const listed = content.screens[screen.id as keyof ContentDocument['screens']]?.sections;
  const rows = listed ?? screen.composition.map((id) => ({ id, visible: true }));
  return rows.map(({ id, visible }) => ({
    id,
    visible,
    required: screen.sections[id]?.required === true,
  }));
}

/** The sections the screen's slot has that the screen does not list. */
export function addableSections(content: ContentDocument, screen: ComposedScreenChoice): string[] {
  const listed = new Set(arrangementOf(content, screen).map((row) => row.id));
  return Object.keys(screen.sections).filter((id) => !listed.has(id));
}

type ScreenKey = keyof ContentDocument['screens'];

/** `content` with `screen`'s own content changed, and dropped when it says nothing of its own. */
export function withScreen(
  content: ContentDocument,
  screen: string,
  change: (own: ScreenContent) => ScreenContent,
): ContentDocument {
  const key = screen as ScreenKey;
  const next = change(content.screens[key] ?? {});
  const { [key]: _old, ...others } = content.screens;
  // Whatever else a screen's content holds is kept: only a screen with nothing left goes.
  const empty = Object.values(next).every((value) => value === undefined);
  return { ...content, screens: empty ? others : { ...others, [key]: next } };
}

function withRows(
  content: ContentDocument,
  screen: ComposedScreenChoice,
  rows: readonly SectionRow[],
): ContentDocument {
  const asCode =
    rows.length === screen.composition.length &&
    rows.every((row, index) => row.visible && row.id === screen.composition[index]);
  return withScreen(content, screen.id, ({ sections: _old, ...own }) =>
    asCode ? own : { ...own, sections: rows.map(({ id, visible }) => ({ id, visible })) },
  );
}

/** The section at `from` moved to `to` (both indexes of the list as it is). */
export function withSectionMovedTo(
  content: ContentDocument,
  screen: ComposedScreenChoice,
  from: number,
  to: number,
): ContentDocument {
  const rows = arrangementOf(content, screen);
  if (from === to || !rows[from] || to < 0 || to >= rows.length) return content;
  const moved = [...rows];
  const [row] = moved.splice(from, 1);
  if (row) moved.splice(to, 0, row);
  return withRows(content, screen, moved);
}

/**
 * The screen's sections as `change` makes them from the section `id`; the content as it was
 * when the screen lacks that section or `change` refuses the edit (null).
 */
function withSectionChanged(
  content: ContentDocument,
  screen: ComposedScreenChoice,
  id: string,
  change: (row: SectionRow, rows: SectionRow[]) => SectionRow[] | null,
): ContentDocument {
  const rows = arrangementOf(content, screen);
  const row = rows.find((r) => r.id === id);
  const changed = row ? change(row, rows) : null;
  return changed ? withRows(content, screen, changed) : content;
}

/** Shows or hides a section; a required one is never hidden. */
export function withSectionVisible(
  content: ContentDocument,
  screen: ComposedScreenChoice,
  id: string,
  visible: boolean,
): ContentDocument {
  return withSectionChanged(content, screen, id, (row, rows) =>
    row.required && !visible ? null : rows.map((r) => (r.id === id ? { ...r, visible } : r)),
  );
}

/**
 * Adds a section the slot has and the screen lacks, shown: before a required last section (the
 * support links that close a landing), else at the end.
 */
export function withSectionAdded(
  content: ContentDocument,
  screen: ComposedScreenChoice,
  id: string,
): ContentDocument {
  const choice = screen.sections[id];
  const rows = arrangementOf(content, screen);
  if (!choice || rows.some((row) => row.id === id)) return content;
  const at = rows.at(-1)?.required ? rows.length - 1 : rows.length;
  const added = [...rows];
  added.splice(at, 0, { id, visible: true, required: choice.required });
  return withRows(content, screen, added);
}

/** Takes an optional section off the screen; a required one stays. */
export function withSectionRemoved(
  content: ContentDocument,
  screen: ComposedScreenChoice,
  id: string,
): ContentDocument {
  return withSectionChanged(content, screen, id, (row, rows) =>
    row.required ? null : rows.filter((r) => r.id !== id),
  );
}

/** The text the screen's content gives `key` in `language`, if it gives one. */
export function ownText(
  content: ContentDocument,
  screen: string,
  language: string,
  key: string,
): string | undefined {
  const texts = content.screens[screen as ScreenKey]?.copy?.[language];
  return texts && Object.hasOwn(texts, key) ? texts[key] : undefined;
}

/**
 * `key`'s text in `language` on `screen`: `text`, or, with `text` undefined or the text the page
 * shows anyway (`base`), no override of the content's.
 */
export function withCopy(
  content: ContentDocument,
  screen: string,
  change: { language: string; key: string; text: string | undefined; base: string | undefined },
): ContentDocument {
  const { language, key, text, base } = change;
  return withScreen(content, screen, ({ copy: _old, ...own }) => {
    const copy = { ...(content.screens[screen as ScreenKey]?.copy ?? {}) };
    const { [key]: _text, ...texts } = copy[language] ?? {};
    const next = text === undefined || text === base ? texts : { ...texts, [key]: text };
    if (Object.keys(next).length > 0) copy[language] = next;
    else delete copy[language];
    return Object.keys(copy).length > 0 ? { ...own, copy } : own;
  });
}

/**
 * A section's keys (English's) as `language` has them: a counted text takes that language's own
 * plural forms (`_few`, `_many` in Russian), as its bundled file lists them.
 */
export function keysInLanguage(
  englishKeys: readonly string[],
  texts: Readonly<Record<string, string>>,
): string[] {
  const keys: string[] = [];
  for (const key of englishKeys) {
    if (!PLURAL_SUFFIX.test(key)) {
      keys.push(key);
      continue;
    }
    const base = key.replace(PLURAL_SUFFIX, '');
    const forms = Object.keys(texts).filter(
      (k) => PLURAL_SUFFIX.test(k) && k.replace(PLURAL_SUFFIX, '') === base,
    );
    for (const form of forms.length > 0 ? forms : [key]) if (!keys.includes(form)) keys.push(form);
  }
  return keys;
}
