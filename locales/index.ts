import type { Dictionary } from '../shared/config/translations';
import en from './en';

/** The files a language is written in, one per part of the funnel (locales/<language>/<area>.json). */
export type LanguageAreas = Record<keyof typeof en, Dictionary>;

/** One language's areas as the single dictionary i18next reads: each area's keys sit under its own name. */
export function dictionaryOf(areas: LanguageAreas): Dictionary {
  return Object.assign({}, ...Object.values(areas));
}

/**
 * English by area file (locales/en/<area>.json), each the top-level keys it holds: where the
 * console's Copy area files a key (`continue` and `screens.*` are common's).
 */
export const EN_AREAS: Readonly<Record<string, Dictionary>> = en;

/**
 * English, the default and fallback language (SPEC.md §9): the only dictionary in the worker's
 * code, so a page renders whatever else fails.
 */
export const EN = dictionaryOf(en);

/**
 * Every shipped language, English first. Portuguese is `pt`, so `pt-BR` and `pt-PT` browsers
 * both match it (SPEC.md §9). The others' dictionaries are not in the worker's code (about 65 KB
 * of its gzip): the build writes each to the static assets at `shippedTextAsset(language)`
 * (scripts/shipped-text-assets.ts), and the worker loads one at its first request in that language
 * (worker/translations/source.ts). locales/all.ts holds them all, for Node.
 */
export const LANGUAGES: readonly string[] = ['en', 'es', 'de', 'fr', 'pt', 'ru', 'ar'];

/** Where the build writes a language's dictionary in dist/client, and the worker reads it. */
export function shippedTextAsset(language: string): string {
  return `/i18n/${language}.json`;
}
