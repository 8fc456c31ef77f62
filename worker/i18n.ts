import { createInstance, type i18n, type TFunction } from 'i18next';
import { EN, LANGUAGES } from '../locales';
import type { Brand } from '../shared/brand';
import type { Dictionary } from '../shared/config/translations';
import { DEFAULT_LANGUAGE } from './funnel/locale';
import { overlayDictionary } from './translations/merge';

export const SUPPORTED_LANGUAGES: readonly string[] = LANGUAGES;

function createTranslations(dictionaries: Readonly<Record<string, Dictionary>>): i18n {
  const resources = Object.fromEntries(
    Object.entries(dictionaries).map(([language, translation]) => [language, { translation }]),
  );
  const instance = createInstance({
    resources,
    // SPEC.md §9: English is the default and the fallback for any key a language lacks.
    fallbackLng: DEFAULT_LANGUAGE,
    initAsync: false,
    // React escapes every text it renders.
    interpolation: { escapeValue: false },
    // Plural keys (`_one`, `_few`, `_many`, `_other`) are picked with Intl.PluralRules, which
    // gives Russian its day counts (SPEC.md §9): 1 день, 2 дня, 5 дней, 21 день.
  });
  void instance.init();
  return instance;
}

/**
 * The shipped text this isolate holds: English from the worker's code, each other language once
 * loaded from the static assets (worker/translations/source.ts). Never changed by an
 * override: requests only take fixed-language translators built from it.
 */
const shippedText = new Map<string, Dictionary>([[DEFAULT_LANGUAGE, EN]]);

/**
 * The language a page in `language` is shown in: itself once this isolate holds its shipped
 * text, else English, whose text the page then shows (SPEC.md §9), so it says `lang="en"`.
 */
export function shownLanguage(language: string): string {
  return shippedText.has(language) ? language : DEFAULT_LANGUAGE;
}

/** `language`'s shipped text, if this isolate holds it. */
export function shippedDictionary(language: string): Dictionary | undefined {
  return shippedText.get(language);
}

/** Keeps a shipped language's dictionary for the isolate's life (a deploy brings a new isolate). */
export function keepShippedText(language: string, dictionary: Dictionary): void {
  shippedText.set(language, dictionary);
}

/** Far more texts than any language has; keys come from code and config, never from requests. */
const REMEMBERED_TEXTS_MAX = 5000;

/**
 * A translator that remembers its answer for a key asked without options, which is how a page
 * asks for most of its hundred or so texts. i18next's lookup (fallback language, nesting,
 * interpolation) was a quarter of the worker's CPU per landing page (a CPU profile of 3000
 * renders). Such an answer depends only on the language and the dictionary, both fixed for the
 * translator's life; calls with options (a count, a price) go to i18next every time.
 */
function remembering(t: TFunction): TFunction {
  const said = new Map<string, string>();
  function rememberingT(key: unknown, ...rest: unknown[]): unknown {
    const translate = t as unknown as (...args: unknown[]) => unknown;
    if (rest.length > 0 || typeof key !== 'string') return translate(key, ...rest);
    const known = said.get(key);
    if (known !== undefined) return known;
    const text = translate(key);
    if (typeof text === 'string' && said.size < REMEMBERED_TEXTS_MAX) said.set(key, text);
    return text;
  }
  return rememberingT as unknown as TFunction;
}

/**
 * A translator for one language with copy from KV laid over its shipped text (SPEC.md §7
 * content service). Built once per language and manifest timestamp on an instance of its own,
 * so the isolate's shipped text is never changed by an override. Keys the override lacks fall
 * back to the shipped text of the language (once loaded: worker/translations/source.ts),
 * then to English.
 */
export function translatorWithOverride(language: string, override: Dictionary): TFunction {
  const own = shippedText.get(language) ?? {};
  const dictionaries: Record<string, Dictionary> = {
    [DEFAULT_LANGUAGE]: EN,
    [language]: overlayDictionary(own, override),
  };
  return remembering(createTranslations(dictionaries).getFixedT(language));
}

const shippedTranslators = new Map<string, TFunction>();

/**
 * The shipped text only, in `language` once this isolate holds it, else in English (a language
 * not shipped, or not loaded: loadShippedText loads it first): one remembering translator per
 * language and isolate.
 */
export function shippedTranslator(language: string): TFunction {
  const own = shownLanguage(language);
  let t = shippedTranslators.get(own);
  if (!t) {
    const dictionaries = { [DEFAULT_LANGUAGE]: EN, [own]: shippedText.get(own) ?? {} };
    t = remembering(createTranslations(dictionaries).getFixedT(own));
    shippedTranslators.set(own, t);
  }
  return t;
}

/**
 * The variables every text may use for its page's brand (shared/brand.ts): `{{brand}}` and
 * `{{support_email}}`. The copy names no brand, so one text serves the four themes, and a
 * marketer's override may use them in any text (shared/copy-placeholders.ts).
 */
function brandVariables(brand: Brand): { brand: string; support_email: string } {
  return { brand: brand.name, support_email: brand.supportEmail };
}

const brandedTranslators = new WeakMap<TFunction, WeakMap<Brand, TFunction>>();

/**
 * `t` with the brand's variables given to every text (a call's own options win). One per
 * translator and brand, remembering its answers to calls without options as `remembering`
 * does, so a page's texts cost no more than before and the kept bodies and titles
 * (worker/render/rendered-screens.ts) know it as one translator.
 */
export function brandedTranslator(t: TFunction, brand: Brand): TFunction {
  let byBrand = brandedTranslators.get(t);
  if (!byBrand) {
    byBrand = new WeakMap();
    brandedTranslators.set(t, byBrand);
  }
  let branded = byBrand.get(brand);
  if (!branded) {
    branded = withVariables(t, brandVariables(brand));
    byBrand.set(brand, branded);
  }
  return branded;
}

function withVariables(t: TFunction, variables: Record<string, string>): TFunction {
  const translate = t as unknown as (...args: unknown[]) => unknown;
  const said = new Map<string, unknown>();
  function brandedT(key: unknown, ...rest: unknown[]): unknown {
    const [options, ...others] = rest;
    if (rest.length === 0 && typeof key === 'string') {
      if (said.has(key)) return said.get(key);
      const text = translate(key, variables);
      if (said.size < REMEMBERED_TEXTS_MAX) said.set(key, text);
      return text;
    }
    if (typeof options === 'object' && options !== null)
      return translate(key, { ...variables, ...options }, ...others);
    // t(key, defaultValue[, options]) or a key list: as given, with the brand's variables.
    return rest.length === 0 ? translate(key, variables) : translate(key, ...rest);
  }
  return brandedT as unknown as TFunction;
}

/** Text direction of a language (SPEC.md §9: right-to-left layout for right-to-left languages). */
export function directionOf(language: string): 'rtl' | 'ltr' {
  return ['ar', 'he', 'fa', 'ur'].includes(language.split('-')[0]!) ? 'rtl' : 'ltr';
}
