/**
 * SPEC.md §3: the themes a page can wear; `findo` is the product theme ({product}). The worker
 * picks one per request (worker/funnel/locale.ts) and the screens style by it, so the names live
 * here rather than in either.
 */
export const THEMES = ['geozilla', 'family-locator', 'brainbloom', 'findo'] as const;
export type Theme = (typeof THEMES)[number];
export const DEFAULT_THEME: Theme = 'geozilla';

/** Whether `name` is one of the themes (exactly, without the worker's aliases). */
export function isTheme(name: string): name is Theme {
  return (THEMES as readonly string[]).includes(name);
}
