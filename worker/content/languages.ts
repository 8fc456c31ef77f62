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
 *
 * Before a publish the live documents are known too, so the review also says where the English
 * changes again at a place whose other languages keep the text they had: theirs was written for
 * the English before, and their visitors keep it. Once published, that is no longer told apart
 * from an up-to-date translation (docs/marketers.md, "One language at a time").
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

/** A place's copy: each language's texts by key (`copy` of a screen, a variant, the Copy area). */
type PlacedCopy = Readonly<Record<string, Readonly<Record<string, string>> | undefined>>;

/**
 * The texts whose English `after` changes against `before` at one place (the English shown
 * there: the place's own, else `english`'s) while a language keeps the very text it gave there
 * before: a translation of the English before, each at `<copyAt>.<language>.<key>`.
 */
function keptTranslations(
  copyAt: string,
  before: PlacedCopy,
  after: PlacedCopy,
  english: (key: string) => string | undefined,
): LanguageNote[] {
  const shown = (copy: PlacedCopy, key: string) => copy.en?.[key] ?? english(key);
  const keys = new Set([...Object.keys(before.en ?? {}), ...Object.keys(after.en ?? {})]);
  const changed = [...keys].filter(
    (key) => bundledEnglish.has(key) && shown(before, key) !== shown(after, key),
  );
  const notes: LanguageNote[] = [];
  for (const { language } of otherLanguages) {
    for (const key of changed) {
      const kept = after[language]?.[key];
      if (kept === undefined || before[language]?.[key] !== kept) continue;
      const path = `${copyAt}.${language}.${key}`;
      notes.push({
        path,
        language,
        key,
        kind: 'outdated',
        message: noteMessage('outdated', language),
      });
    }
  }
  return notes;
}

/** What a note says a language's visitors see. */
function noteMessage(kind: LanguageNoteKind, language: string): string {
  const name = languageName(language);
  return kind === 'outdated'
    ? `visitors reading ${name} see their current text, outdated until the ${name} text is updated`
    : `visitors reading ${name} are not shown a test of this variant and are not counted, until it has its ${name} text`;
}

type PlacedScreen = ScreenBody & { variants?: Record<string, ScreenBody> };

/**
 * The screen's own English changes, and each of its variants' against the screen's; given the
 * screen as it was (`before`), also the translations its English changes leave behind.
 */
function screenNotes(at: string, own: PlacedScreen, before?: PlacedScreen) {
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
  if (before === undefined) return notes;
  const bundled = (key: string) => bundledEnglish.get(key);
  notes.push(...keptTranslations(`${at}.copy`, before.copy ?? {}, own.copy ?? {}, bundled));
  for (const [name, variant] of Object.entries(own.variants ?? {})) {
    const was = before.variants?.[name];
    if (was === undefined) continue;
    notes.push(
      ...keptTranslations(`${at}.variants.${name}.copy`, was.copy ?? {}, variant.copy ?? {}, shown),
    );
  }
  return notes;
}

/**
 * What every other language's visitors see of the content's English changes; given the live
 * content (`before`), also where the draft changes an English its translations were written for.
 */
export function contentLanguageNotes(
  content: ContentDocument,
  before?: ContentDocument,
): LanguageNote[] {
  const notes: LanguageNote[] = [];
  const was: Readonly<Record<string, PlacedScreen | undefined>> = before?.screens ?? {};
  for (const [screen, own] of Object.entries(content.screens)) {
    if (own) notes.push(...screenNotes(`content.screens.${screen}`, own, was[screen]));
  }
  for (const [id, own] of Object.entries(content.composed ?? {})) {
    notes.push(...screenNotes(`content.composed.${id}`, own, before?.composed?.[id]));
  }
  return notes;
}

/**
 * What every other language's visitors see of the Copy area's English changes (`copy.de.…`);
 * given the live copy (`before`), also the translations a changed English leaves behind.
 */
export function copyLanguageNotes(copy: CopyDocument, before?: CopyDocument): LanguageNote[] {
  const bundled = (key: string) => bundledEnglish.get(key);
  const notes = gaps(
    'copy',
    copy.en ?? {},
    bundled,
    (language) => copy[language] ?? {},
    'outdated',
  );
  return before === undefined
    ? notes
    : [...notes, ...keptTranslations('copy', before, copy, bundled)];
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
