/**
 * What a screen a marketer composes may be named (shared/composed-screens.ts): its name is its
 * path, so it must be one path segment the worker does not answer itself, and must not read as
 * a screen in code's. No imports, so the console's bundle takes it without the funnel's code.
 */

/** Lower-case letters, digits and `_`, starting with a letter: one path segment. */
export const COMPOSED_SCREEN_ID = /^[a-z][a-z0-9_]{2,39}$/;

/**
 * First path segments the worker answers itself (worker/app.tsx, the static assets), which a
 * composed screen's path would never reach.
 */
const RESERVED_SEGMENTS: ReadonlySet<string> = new Set([
  'api',
  'app',
  'assets',
  'console',
  'consent',
  'e',
  'hooks',
  'img',
  'logos',
  'pictures',
  'resume',
  'vendor',
  'favicon',
  'robots',
]);

/**
 * How the screens in code's ids begin (every one of shared/screens.ts SCREEN_IDS does): code
 * that tells a screen's slot or kind by its id (`checkout…` is a paywall,
 * worker/funnel/flow.ts slotOf) would take a composed screen named so for one
 * of them, and a typo of a screen in code would pass as a composed screen's name.
 */
const CODE_PREFIXES = [
  'one_pager',
  'searching',
  'signup',
  'auto',
  'features',
  'checkout',
  'paycheck',
  'upsell',
  'success',
  'payment',
];

/** Why `id` cannot name a composed screen, or null when it can. */
export function composedIdProblem(id: string): string | null {
  if (!COMPOSED_SCREEN_ID.test(id)) {
    return 'must be 3 to 40 lower-case letters, digits or _, starting with a letter';
  }
  if (RESERVED_SEGMENTS.has(id)) return `is a path the site already serves: choose another name`;
  const prefix = CODE_PREFIXES.find((start) => id.startsWith(start));
  if (prefix !== undefined) {
    return `begins like the screens in code ("${prefix}…"): choose a name of its own`;
  }
  return null;
}
