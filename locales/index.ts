import after from './en/after.json';
import common from './en/common.json';
import kit from './en/kit.json';
import landing from './en/landing.json';
import plans from './en/plans.json';
import searching from './en/searching.json';
import signup from './en/signup.json';

/**
 * English, the default and fallback language (SPEC.md §9), is written in one file per area so
 * each part of the funnel owns its copy; every area file wraps its keys in its own name
 * (`landing.*`, `plans.*`), and `common` holds the keys the spec names (`continue`, ...).
 */
export const EN = { ...common, ...kit, ...landing, ...searching, ...signup, ...plans, ...after };

export const BUNDLED_TRANSLATIONS: Record<string, Record<string, unknown>> = { en: EN };
