import { parseAccept } from 'hono/utils/accept';
import { type Brand, brandOf } from '../../shared/brand';
import type { ContentDocument } from '../../shared/config/content';
import { DEFAULT_THEME, isTheme, type Theme } from '../../shared/theme';

/**
 * What a visit is shown in: its language and theme (the locale middleware's), the brand its theme
 * gives; the currency its country pays in is shared/plans/currency.ts visitorCurrency.
 */

/** Languages with a bundled translation file in `locales/`. English is the default and fallback. */
export const DEFAULT_LANGUAGE = 'en';

/**
 * SPEC.md §9: the browser language is matched by exact code, then by language part, then by any
 * same-language variant. `custom_lng` overrides it where `customLngAllowed` says so (SPEC.md §2:
 * outside production only).
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

/** A language tag as RFC 5646 writes it, loosely: letters, then subtags of letters and digits. */
const LANGUAGE_TAG = /^[a-zA-Z]{1,8}(-[a-zA-Z0-9]{1,8})*$/;

/** More than any browser sends, so a long header cannot make the matching loop long. */
const MAX_TAGS = 20;

/**
 * Language tags in the order the browser prefers them (q-values, then position). Hono parses the
 * header; the q-value is read again here because Hono takes one it cannot read (`q=abc`) as 1,
 * which would rank a malformed preference first: here it counts as 0, and the tag is dropped.
 * An empty `q=` Hono leaves out of the parameters, so that tag counts as having no q-value.
 * Equal q-values keep the header's order: Hono's sort and ours are both stable.
 */
export function parseAcceptLanguage(header: string): string[] {
  return parseAccept(header)
    .map(({ type, params }) => ({ tag: type, quality: qualityOf(params.q ?? params.Q) }))
    .filter((e) => LANGUAGE_TAG.test(e.tag) && e.quality > 0)
    .sort((a, b) => b.quality - a.quality)
    .slice(0, MAX_TAGS)
    .map((e) => e.tag);
}

function qualityOf(q: string | undefined): number {
  if (q === undefined) return 1;
  const quality = Number(q);
  return Number.isFinite(quality) ? quality : 0;
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
  if (isTheme(name)) return name;
  // Own keys only: `?theme=constructor` must not resolve to Object.prototype.constructor.
  return Object.hasOwn(THEME_ALIASES, name) ? THEME_ALIASES[name]! : DEFAULT_THEME;
}

/**
 * The brand of a request's pages: its theme's (above), as the content in effect
 * gives it, else the one in code. Either may be missing on a page answered before the middleware
 * that sets it ran (an early failure's error page).
 */
export function requestBrand(
  config: { content: ContentDocument } | undefined,
  theme: Theme | undefined,
): Brand {
  return brandOf(config?.content.brands, theme ?? DEFAULT_THEME);
}
