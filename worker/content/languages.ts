import { EN, LANGUAGES } from '../../locales';
import type { ContentChoices, ContentDocument, ScreenBody } from '../../shared/config/content';
import type { CopyDocument } from '../../shared/config/copy';
import type { LanguageNote, LanguageNoteKind } from '../../shared/console-api/languages';
import { contentOfRef } from '../../shared/content-body';
import { PLURAL_SUFFIX } from '../../shared/copy-placeholders';
import { flattenDictionary, shippedKeys } from '../translations/check';
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
 * documents (and their versions) wherever it is asked.
 *
 * Given the documents before (the live one, then older versions), a text a language gives is
 * also outdated when the English at its place changed after the text was written: its visitors
 * keep a translation of the English before (staleTranslations; docs/marketers.md, "One language
 * at a time").
 */

const bundledEnglish = flattenDictionary(EN);

/** Every shipped language but English, each with its keys (its own plural forms). */
const otherLanguages = LANGUAGES.filter((language) => language !== 'en')
  .sort()
  .map((language) => ({ language, keys: shippedKeys(language) }));

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

/** A place's copy in one document, and the English it shows where its own gives none. */
interface Place {
  copy: PlacedCopy;
  english: (key: string) => string | undefined;
}

const bundled = (key: string) => bundledEnglish.get(key);

/**
 * The translations at the places of `now` written for an English their place no longer shows.
 * `history` holds the places as earlier documents had them, newest first (the live one first,
 * then the versions before it): a language's text was written in the oldest document of the
 * unbroken run that gives it unchanged, and is outdated when the English shown there then
 * differs from the English shown now. Beyond the history given, a text counts as written in its
 * oldest document.
 */
function staleTranslations(
  now: ReadonlyMap<string, Place>,
  history: readonly ReadonlyMap<string, Place>[],
): LanguageNote[] {
  const notes: LanguageNote[] = [];
  for (const [at, place] of now) {
    for (const { language } of otherLanguages) {
      for (const [key, text] of Object.entries(place.copy[language] ?? {})) {
        if (!bundledEnglish.has(key)) continue;
        let written = place;
        for (const earlier of history) {
          const then = earlier.get(at);
          if (then?.copy[language]?.[key] !== text) break;
          written = then;
        }
        const shown = (from: Place) => from.copy.en?.[key] ?? from.english(key);
        if (shown(written) === shown(place)) continue;
        const path = `${at}.${language}.${key}`;
        const message = noteMessage('outdated', language);
        notes.push({ path, language, key, kind: 'outdated', message });
      }
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

/** The screen's own English changes, and each of its variants' against the screen's. */
function screenNotes(at: string, own: PlacedScreen) {
  const shown = (key: string) => own.copy?.en?.[key] ?? bundledEnglish.get(key);
  const notes = gaps(
    `${at}.copy`,
    own.copy?.en ?? {},
    bundled,
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

/** Each place of `content` that holds copy, by its path (`content.screens.one_pager.copy`). */
function contentPlaces(content: ContentDocument): Map<string, Place> {
  const places = new Map<string, Place>();
  const add = (at: string, own: PlacedScreen) => {
    const shown = (key: string) => own.copy?.en?.[key] ?? bundledEnglish.get(key);
    places.set(`${at}.copy`, { copy: own.copy ?? {}, english: bundled });
    for (const [name, variant] of Object.entries(own.variants ?? {})) {
      places.set(`${at}.variants.${name}.copy`, { copy: variant.copy ?? {}, english: shown });
    }
  };
  for (const [screen, own] of Object.entries(content.screens)) {
    if (own) add(`content.screens.${screen}`, own);
  }
  for (const [id, own] of Object.entries(content.composed ?? {}))
    add(`content.composed.${id}`, own);
  return places;
}

/**
 * What every other language's visitors see of the content's English changes; given the content
 * before it (`history`: the live content, then older versions, newest first), also the
 * translations written for an English their place no longer shows.
 */
export function contentLanguageNotes(
  content: ContentDocument,
  history: readonly ContentDocument[] = [],
): LanguageNote[] {
  const notes: LanguageNote[] = [];
  for (const [screen, own] of Object.entries(content.screens)) {
    if (own) notes.push(...screenNotes(`content.screens.${screen}`, own));
  }
  for (const [id, own] of Object.entries(content.composed ?? {})) {
    notes.push(...screenNotes(`content.composed.${id}`, own));
  }
  if (history.length === 0) return notes;
  return [...notes, ...staleTranslations(contentPlaces(content), history.map(contentPlaces))];
}

const copyPlaces = (copy: CopyDocument) =>
  new Map<string, Place>([['copy', { copy, english: bundled }]]);

/**
 * What every other language's visitors see of the Copy area's English changes (`copy.de.…`);
 * given the copy before it (`history`, newest first), also the translations written for an
 * English the Copy area no longer shows.
 */
export function copyLanguageNotes(
  copy: CopyDocument,
  history: readonly CopyDocument[] = [],
): LanguageNote[] {
  const notes = gaps(
    'copy',
    copy.en ?? {},
    bundled,
    (language) => copy[language] ?? {},
    'outdated',
  );
  if (history.length === 0) return notes;
  return [...notes, ...staleTranslations(copyPlaces(copy), history.map(copyPlaces))];
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
