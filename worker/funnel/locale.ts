import { DEFAULT_THEME, THEMES, type Theme } from '../../shared/theme';

/** Languages with a bundled translation file in `locales/`. English is the default and fallback. */
export const DEFAULT_LANGUAGE = 'en';

/**
 * SPEC.md §9: the browser language is matched by exact code, then by language part, then by any
 * same-language variant. `custom_lng` overrides it where `customLngAllowed` says so (SPEC.md §2:
 * a test switch, on in development only).
 */
export function resolveLanguage(options: {
  acceptLanguage: string | null | undefined;
  customLng: string | null | undefined;
  supported: readonly string[];
  customLngAllowed: boolean;
}): string {
  const { acceptLanguage, customLng, supported, customLngAllowed } = options;
  const wanted = [
    ...(customLngAllowed && customLng ? [customLng] : []),
    ...parseAcceptLanguage(acceptLanguage ?? ''),
  ];
  for (const tag of wanted) {
    const match = matchLanguage(tag, supported);
    if (match) return match;
  }
  return DEFAULT_LANGUAGE;
}

export function matchLanguage(tag: string, supported: readonly string[]): string | undefined {
  const lower = tag.toLowerCase();
  const base = lower.split('-')[0];
  return (
    supported.find((s) => s.toLowerCase() === lower) ??
    supported.find((s) => s.toLowerCase() === base) ??
    supported.find((s) => s.toLowerCase().split('-')[0] === base)
  );
}

/** Language tags in the order the browser prefers them (q-values, then position). */
export function parseAcceptLanguage(header: string): string[] {
  return header
    .split(',')
    .slice(0, 20)
    .map((part, position) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const quality = q ? Number(q.slice(2)) : 1;
      return { tag: tag.trim(), quality: Number.isFinite(quality) ? quality : 0, position };
    })
    .filter((e) => /^[a-zA-Z]{1,8}(-[a-zA-Z0-9]{1,8})*$/.test(e.tag) && e.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.position - b.position)
    .map((e) => e.tag);
}

/** SPEC.md §3: the short names a `theme` query may use. */
const THEME_ALIASES: Record<string, Theme> = {
  gz: 'geozilla',
  fl: 'family-locator',
  bb: 'brainbloom',
  fo: 'findo',
};

export function resolveTheme(requested: string | null | undefined): Theme {
  if (!requested) return DEFAULT_THEME;
  const name = requested.toLowerCase();
  if ((THEMES as readonly string[]).includes(name)) return name as Theme;
  // Own keys only: `?theme=constructor` must not resolve to Object.prototype.constructor.
  return Object.hasOwn(THEME_ALIASES, name) ? THEME_ALIASES[name]! : DEFAULT_THEME;
}
