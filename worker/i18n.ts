import { createInstance, type TFunction } from 'i18next';
import { BUNDLED_TRANSLATIONS } from '../locales';

const resources = Object.fromEntries(
  Object.entries(BUNDLED_TRANSLATIONS).map(([language, translation]) => [
    language,
    { translation },
  ]),
);

export const SUPPORTED_LANGUAGES: readonly string[] = Object.keys(resources);

// One instance per isolate, initialised synchronously from the bundled files; requests only
// take a fixed-language view of it, so nothing is shared between visitors but the dictionary.
const i18n = createInstance({
  resources,
  fallbackLng: 'en',
  initAsync: false,
  // React escapes every text it renders.
  interpolation: { escapeValue: false },
});
void i18n.init();

export function translator(language: string): TFunction {
  return i18n.getFixedT(language);
}

/** Text direction of a language (SPEC.md §9: right-to-left layout for right-to-left languages). */
export function directionOf(language: string): 'rtl' | 'ltr' {
  return ['ar', 'he', 'fa', 'ur'].includes(language.split('-')[0]!) ? 'rtl' : 'ltr';
}
