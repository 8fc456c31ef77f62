import { BUNDLED_TRANSLATIONS, EN } from '../../locales';
import type { ContentChoices, ContentDocument, ScreenBody } from '../../shared/config/content';
import type { CopyDocument } from '../../shared/config/copy';
import type { LanguageNote, LanguageNoteKind } from '../../shared/console-api/languages';
import { contentOfRef } from '../../shared/content-body';
import { PLURAL_SUFFIX } from '../../shared/copy-placeholders';
import { flattenDictionary } from '../translations/check';
import { languageName } from '../translations/copy-catalogue';

/**
 * Copy in one language at a time (docs/marketers.md, "One language at a time"): an English
 * text may change, on a screen, in a content variant or in the Copy area, without the other
 * languages. Nothing is refused for it; what each other language's visitors get is said here,
 * once, for the validator, the console and the edge:
 *
 * - a text the English of a screen (or the Copy area) changes, and a language does not give at
 *   the same place, is **outdated** in that language: its visitors keep the text they had, the
 *   translation of the English before, until the language is updated;
 * - a content variant whose English differs from its screen's, and which does not give that text
 *   in a language, is **untested** there: a test showing the variant is not shown to the
 *   language's visitors and does not count them (worker/experiments/config/evaluate.ts).
 *
 * Nothing is stored for it: a language is up to date for a text once it gives the text at the
 * place the English changed (the screen, the variant, the Copy area), and outdated while it does
 * not. So the to-do clears itself when the language is written, and is computed afresh from the
 * documents wherever it is asked.
 */

const bundledEnglish = flattenDictionary(EN);

/** Every shipped language but English, each with its keys (its own plural forms). */
const otherLanguages = Object.entries(BUNDLED_TRANSLATIONS)
  .filter(([language]) => language !== 'en')
  .sort(([a], [b]) => (a < b ? -1 : 1))
  .map(([language, dictionary]) => ({
    language,
    keys: [...flattenDictionary(dictionary).keys()],
  }));

/** A key a language writes for `key`: a counted text in each plural form the language has. */
function formsIn(keys: readonly string[], key: string): string[] {
  if (!PLURAL_SUFFIX.test(key)) return [key];
  const base = key.replace(PLURAL_SUFFIX, '');
  return keys.filter((k) => PLURAL_SUFFIX.test(k) && k.replace(PLURAL_SUFFIX, '') === base);
}

/**
 * The texts `english` changes (against `before`, the English shown without it) that a language
 * does not give in `given`, each once, at `<copyAt>.<language>.<key>`.
 */
function gaps(
  copyAt: string,
  english: Readonly<Record<string, string>>,
  before: (key: string) => string | undefined,
  given: (language: string) => Readonly<Record<string, string>>,
  kind: LanguageNoteKind,
): LanguageNote[] {
  const changed = Object.entries(english)
    .filter(([key, text]) => bundledEnglish.has(key) && before(key) !== text)
    .map(([key]) => key);
  const notes = new Map<string, LanguageNote>();
  for (const { language, keys } of otherLanguages) {
    const own = given(language);
    for (const key of changed) {
      for (const form of formsIn(keys, key).filter((k) => !Object.hasOwn(own, k))) {
        const path = `${copyAt}.${language}.${form}`;
        notes.set(path, { path, language, key: form, kind, message: noteMessage(kind, language) });
      }
    }
  }
  return [...notes.values()];
}

/** What a note says a language's visitors see. */
function noteMessage(kind: LanguageNoteKind, language: string): string {
  const name = languageName(language);
  return kind === 'outdated'
    ? `visitors reading ${name} see their current text, outdated until the ${name} text is updated`
    : `visitors reading ${name} are not shown a test of this variant and are not counted, until it has its ${name} text`;
}

/** The screen's own English changes, and each of its variants' against the screen's. */
function screenNotes(at: string, own: ScreenBody & { variants?: Record<string, ScreenBody> }) {
  const shown = (key: string) => own.copy?.en?.[key] ?? bundledEnglish.get(key);
  const notes = gaps(
    `${at}.copy`,
    own.copy?.en ?? {},
    (key) => bundledEnglish.get(key),
    (language) => own.copy?.[language] ?? {},
    'outdated',
  );
  for (const [name, variant] of Object.entries(own.variants ?? {})) {
    notes.push(
      ...gaps(
        `${at}.variants.${name}.copy`,
        variant.copy?.en ?? {},
        shown,
        (language) => variant.copy?.[language] ?? {},
        'untested',
      ),
    );
  }
  return notes;
}

/** What every other language's visitors see of the content's English changes. */
export function contentLanguageNotes(content: ContentDocument): LanguageNote[] {
  const notes: LanguageNote[] = [];
  for (const [screen, own] of Object.entries(content.screens)) {
    if (own) notes.push(...screenNotes(`content.screens.${screen}`, own));
  }
  for (const [id, own] of Object.entries(content.composed ?? {})) {
    notes.push(...screenNotes(`content.composed.${id}`, own));
  }
  return notes;
}

/** What every other language's visitors see of the Copy area's English changes (`copy.de.…`). */
export function copyLanguageNotes(copy: CopyDocument): LanguageNote[] {
  return gaps(
    'copy',
    copy.en ?? {},
    (key) => bundledEnglish.get(key),
    (language) => copy[language] ?? {},
    'outdated',
  );
}

/**
 * The languages whose visitors a test showing `choices` (screen → content variant) is not
 * shown to: a variant it names has no text in them for an English it changes.
 */
export function languagesWithoutText(
  content: ContentDocument,
  choices: ContentChoices,
): Set<string> {
  const languages = new Set<string>();
  for (const [screen, variant] of Object.entries(choices)) {
    const own = contentOfRef(content, screen);
    const laid = variant === undefined ? undefined : own?.variants?.[variant];
    if (!own || !laid) continue;
    const shown = (key: string) => own.copy?.en?.[key] ?? bundledEnglish.get(key);
    const lacking = gaps(
      'copy',
      laid.copy?.en ?? {},
      shown,
      (l) => laid.copy?.[l] ?? {},
      'untested',
    );
    for (const note of lacking) languages.add(note.language);
  }
  return languages;
}
