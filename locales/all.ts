import type { Dictionary } from '../shared/config/translations';
import ar from './ar';
import de from './de';
import en from './en';
import es from './es';
import fr from './fr';
import { dictionaryOf, LANGUAGES, type LanguageAreas } from './index';
import pt from './pt';
import ru from './ru';

/**
 * Every shipped language's dictionary, for Node: the tests, the scripts and the build, which
 * writes the ones other than English to the static assets (scripts/shipped-text-assets.ts). Never
 * imported by the worker, whose code carries English only (test/unit/production-bundle.test.ts):
 * it loads the others from those assets (worker/translations/source.ts). Each language is
 * written from the English files with the same areas and keys (test/unit/i18n/completeness.test.ts
 * proves it; the type below proves no language misses an area file).
 */
const AREAS: Readonly<Record<string, LanguageAreas>> = { en, es, de, fr, pt, ru, ar };

export const ALL_TRANSLATIONS: Readonly<Record<string, Dictionary>> = Object.fromEntries(
  LANGUAGES.map((language) => [language, dictionaryOf(AREAS[language]!)]),
);
