import { EN, LANGUAGES } from '../../locales';
import type { Dictionary } from '../../shared/config/translations';
import { PLURAL_SUFFIX, placeholderProblems } from '../../shared/copy-placeholders';
import { copyRuleProblems, sellingCopyKey } from '../../shared/copy-rules';
import { overlayDictionary } from './merge';

/**
 * The rules every copy override is held to, whichever tool sends it (`npm run translations`,
 * the console's Copy area): a shipped language, only keys English has (a typo in a key would
 * never show), and each text's interpolation variables ({{count}}, {{price}}) kept (a lost
 * variable would show a sentence without its number). i18next plural forms (`_one`, `_few`…)
 * are taken for the plural categories the language has.
 */

/** One language's override as flat dotted keys to texts (`landing.phone.locate`). */
export type FlatCopy = Record<string, string>;

/** Keys to texts, dotted, in the order the dictionary holds them. */
export function flattenDictionary(dictionary: Dictionary, prefix = ''): Map<string, string> {
  const entries = new Map<string, string>();
  for (const [key, value] of Object.entries(dictionary)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') entries.set(path, value);
    else for (const [k, v] of flattenDictionary(value, path)) entries.set(k, v);
  }
  return entries;
}

/** An override as read from a file or KV, nested or dotted, as flat keys in key order. */
export function flatOverride(dictionary: Dictionary): FlatCopy {
  // Laid over nothing, dotted keys land where nested ones would, as in the worker.
  const entries = [...flattenDictionary(overlayDictionary({}, dictionary))];
  return Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

const english = flattenDictionary(EN);

export function isShippedLanguage(language: string): boolean {
  return LANGUAGES.includes(language);
}

const PLURAL_ORDER = ['zero', 'one', 'two', 'few', 'many', 'other'];

/**
 * The keys `language`'s shipped file has, in English's order (plural forms in CLDR's): English's, each counted text in
 * the plural forms the language's rules use (test/unit/i18n/completeness.test.ts holds every
 * file to exactly these), known without the file, which the worker loads only when a page needs
 * it (./source.ts).
 */
export function shippedKeys(language: string): string[] {
  const used = new Intl.PluralRules(language).resolvedOptions().pluralCategories as string[];
  // In CLDR's order, as the files write them (Intl gives `few, many, one, other`).
  const categories = PLURAL_ORDER.filter((category) => used.includes(category));
  const keys = new Set<string>();
  for (const key of english.keys()) {
    if (!PLURAL_SUFFIX.test(key)) keys.add(key);
    else for (const category of categories) keys.add(key.replace(PLURAL_SUFFIX, `_${category}`));
  }
  return [...keys];
}

/** The English text a key of `language` translates; for a plural form, English's `_other`. */
export function englishSource(language: string, key: string): string | undefined {
  if (english.has(key) && !PLURAL_SUFFIX.test(key)) return english.get(key);
  const category = key.match(PLURAL_SUFFIX)?.[1];
  if (!category) return undefined;
  const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
  if (!(categories as readonly string[]).includes(category)) return undefined;
  return english.get(key.replace(PLURAL_SUFFIX, '_other'));
}

/**
 * What is wrong with one text of `language` at `key`; empty when it may be published. Besides
 * its placeholders, the rules of shared/copy-rules.ts: no bidirectional controls, no saving
 * typed by hand, and where the text is read by a screen that sells (`selling`, else as its key
 * says), no price typed by hand.
 */
export function textProblems(
  language: string,
  key: string,
  text: string,
  options: { selling?: boolean } = {},
): string[] {
  const source = englishSource(language, key);
  if (source === undefined) return ['no such key in the English files'];
  if (text.trim() === '') return ['must not be empty'];
  const selling = options.selling === true || sellingCopyKey(key);
  return [
    ...placeholderProblems(key, source, text),
    ...copyRuleProblems(key, source, text, selling),
  ];
}

/** Every problem of one language's flat override, each with its key. */
export function copyProblems(language: string, copy: FlatCopy): { key: string; message: string }[] {
  return Object.entries(copy).flatMap(([key, text]) =>
    textProblems(language, key, text).map((message) => ({ key, message })),
  );
}
