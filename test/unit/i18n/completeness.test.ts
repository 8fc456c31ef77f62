import { describe, expect, it } from 'vitest';
import { EN } from '../../../locales';
import { ALL_TRANSLATIONS } from '../../../locales/all';
import type { Dictionary } from '../../../shared/config/translations';
import { shippedKeys } from '../../../worker/translations/check';

/**
 * Every shipped language says everything English says: the same keys (plural keys in the forms
 * the language's plural rules need), the same interpolation variables, and nothing English
 * lacks. A key missing here would show English, or the raw key, to a visitor.
 */

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

function flatten(dictionary: Dictionary, prefix = ''): Map<string, string> {
  const entries = new Map<string, string>();
  for (const [key, value] of Object.entries(dictionary)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') entries.set(path, value);
    else for (const [k, v] of flatten(value, path)) entries.set(k, v);
  }
  return entries;
}

function variables(text: string): string[] {
  return [...text.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}/g)].map((m) => m[1]!).sort();
}

/** English plural keys by base (`i18n.trial_days` → its `_other` text). */
function pluralBases(entries: Map<string, string>): Map<string, string> {
  const bases = new Map<string, string>();
  for (const [key, text] of entries) {
    const match = key.match(PLURAL_SUFFIX);
    if (match?.[1] === 'other') bases.set(key.replace(PLURAL_SUFFIX, ''), text);
  }
  return bases;
}

const english = flatten(EN);
const englishPlurals = pluralBases(english);
const OTHER_LANGUAGES = Object.keys(ALL_TRANSLATIONS).filter((l) => l !== 'en');

/** What a language must have for every English key, with the English text it translates. */
function expectedKeys(language: string): Map<string, string> {
  const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
  const expected = new Map<string, string>();
  for (const [key, text] of english) {
    const base = key.replace(PLURAL_SUFFIX, '');
    if (!englishPlurals.has(base)) expected.set(key, text);
  }
  for (const [base, other] of englishPlurals) {
    for (const category of categories) expected.set(`${base}_${category}`, other);
  }
  return expected;
}

it('ships English and the six languages of the brief', () => {
  expect(Object.keys(ALL_TRANSLATIONS).sort()).toEqual(
    ['ar', 'de', 'en', 'es', 'fr', 'pt', 'ru'].sort(),
  );
});

it('English has every plural key in both of its forms', () => {
  for (const base of englishPlurals.keys()) {
    expect(english.has(`${base}_one`), `${base}_one`).toBe(true);
  }
  expect(englishPlurals.has('i18n.trial_days')).toBe(true);
});

describe.each(OTHER_LANGUAGES)('%s', (language) => {
  const entries = flatten(ALL_TRANSLATIONS[language]!);
  const expected = expectedKeys(language);

  it('has every English key, in every plural form its plural rules use', () => {
    const missing = [...expected.keys()].filter((key) => !entries.has(key));
    expect(missing).toEqual([]);
  });

  it('has no key English lacks', () => {
    const extra = [...entries.keys()].filter((key) => !expected.has(key));
    expect(extra).toEqual([]);
  });

  it('has the keys the worker knows it by without loading it', () => {
    // The console's language notes list a language's keys before any page loaded its file.
    expect(shippedKeys(language).sort()).toEqual([...entries.keys()].sort());
  });

  it('keeps the interpolation variables of the English text', () => {
    const mismatched: string[] = [];
    for (const [key, text] of entries) {
      const source = expected.get(key);
      if (source === undefined) continue;
      const want = variables(source);
      const have = variables(text);
      // A plural form may spell its number out ("يومان", two days) and drop {{count}}.
      const isPlural =
        PLURAL_SUFFIX.test(key) && englishPlurals.has(key.replace(PLURAL_SUFFIX, ''));
      const ok = isPlural
        ? have.every((v) => want.includes(v)) &&
          want.filter((v) => v !== 'count').every((v) => have.includes(v))
        : have.join() === want.join();
      if (!ok) mismatched.push(`${key}: ${have.join() || '-'} ≠ ${want.join() || '-'}`);
    }
    expect(mismatched).toEqual([]);
  });

  it('translates every sentence rather than copying the English', () => {
    // A copied English sentence is a missing translation in disguise; names such as
    // "Apple Pay" or "Geozilla", and an address such as name@example.com, rightly stay as they are.
    const untranslated = [...entries].filter(([key, text]) => {
      const source = expected.get(key);
      const words = text.replace(/\{\{[^}]*\}\}/g, '').match(/\p{L}+/gu) ?? [];
      return source !== undefined && text === source && /\s/.test(text) && words.length >= 3;
    });
    expect(untranslated.map(([key]) => key)).toEqual([]);
  });
});
