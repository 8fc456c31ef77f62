import { ALL_TRANSLATIONS } from '../locales/all';
import { keepShippedText } from '../worker/i18n';

/**
 * In Node (the tests, the bench) there is no ASSETS binding to load the languages but English from
 * (worker/translations/source.ts): this gives the module's store every shipped language
 * from the source files, as the build writes them, so a translator in any language is at hand.
 * Tests of the loading itself run in workerd (test/worker/shipped-text.test.ts).
 */
export function holdEveryLanguage(): void {
  for (const [language, dictionary] of Object.entries(ALL_TRANSLATIONS)) {
    keepShippedText(language, dictionary);
  }
}
