import type { Dictionary } from '../shared/config/translations';
import { AR } from './ar';
import { DE } from './de';
import after from './en/after.json';
import common from './en/common.json';
import consent from './en/consent.json';
import errors from './en/errors.json';
import i18n from './en/i18n.json';
import kit from './en/kit.json';
import landing from './en/landing.json';
import plans from './en/plans.json';
import searching from './en/searching.json';
import signup from './en/signup.json';
import { ES } from './es';
import { FR } from './fr';
import { PT } from './pt';
import { RU } from './ru';

/**
 * English, the default and fallback language (SPEC.md §9), is written in one file per area so
 * each part of the funnel owns its copy; every area file wraps its keys in its own name
 * (`landing.*`, `plans.*`; `errors.*` are the visitor-facing failure texts of
 * shared/api/error-text.ts), and `common` holds the keys the spec names (`continue`, ...).
 * `i18n` holds the shared plural patterns (`i18n.trial_days`, SPEC.md §9).
 */
export const EN: Dictionary = {
  ...common,
  ...kit,
  ...landing,
  ...searching,
  ...signup,
  ...plans,
  ...after,
  ...consent,
  ...errors,
  ...i18n,
};

/**
 * English by area file (locales/en/<area>.json), each the top-level keys it holds: where the
 * console's Copy area files a key (`continue` and `screens.*` are common's).
 */
export const EN_AREAS: Readonly<Record<string, Dictionary>> = {
  common,
  kit,
  landing,
  searching,
  signup,
  plans,
  after,
  consent,
  errors,
  i18n,
};

/**
 * Every shipped language, each written from the English files with the same areas and keys
 * (test/unit/i18n/completeness.test.ts proves it). Imported explicitly: the worker is bundled by
 * esbuild, and only the worker imports this file, so no dictionary reaches the browser.
 * Portuguese is `pt`, so `pt-BR` and `pt-PT` browsers both match it (SPEC.md §9).
 */
export const BUNDLED_TRANSLATIONS: Readonly<Record<string, Dictionary>> = {
  en: EN,
  es: ES,
  de: DE,
  fr: FR,
  pt: PT,
  ru: RU,
  ar: AR,
};
