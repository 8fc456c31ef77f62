import type { Dictionary } from '../shared/config/translations';
import ar from './ar';
import de from './de';
import en from './en';
import es from './es';
import fr from './fr';
import pt from './pt';
import ru from './ru';

/** The files a language is written in, one per part of the funnel (locales/<language>/<area>.json). */
type LanguageAreas = Record<keyof typeof en, Dictionary>;

/** One language's areas as the single dictionary i18next reads: each area's keys sit under its own name. */
function dictionaryOf(areas: LanguageAreas): Dictionary {
  return Object.assign({}, ...Object.values(areas));
}

/**
 * English by area file (locales/en/<area>.json), each the top-level keys it holds: where the
 * console's Copy area files a key (`continue` and `screens.*` are common's).
 */
export const EN_AREAS: Readonly<Record<string, Dictionary>> = en;

export const EN = dictionaryOf(en);

/**
 * Every shipped language, each written from the English files with the same areas and keys
 * (test/unit/i18n/completeness.test.ts proves it; the type below proves no language misses an
 * area file). Imported explicitly: the worker is bundled by esbuild, and only the worker imports
 * this file, so no dictionary reaches the browser. Portuguese is `pt`, so `pt-BR` and `pt-PT`
 * browsers both match it (SPEC.md §9).
 */
const LANGUAGES: Readonly<Record<string, LanguageAreas>> = { en, es, de, fr, pt, ru, ar };

export const BUNDLED_TRANSLATIONS: Readonly<Record<string, Dictionary>> = Object.fromEntries(
  Object.entries(LANGUAGES).map(([language, areas]) => [language, dictionaryOf(areas)]),
);
