import { describe, expect, it } from 'vitest';
import { type Brand, DEFAULT_BRANDS } from '../../../shared/brand';
import { SCREEN_IDS } from '../../../shared/screens';
import { DEFAULT_THEME, THEMES, type Theme } from '../../../shared/theme';
import { VISITOR_COOKIE } from '../../../worker/request/cookies';
import { freshApp } from '../fetch-app';

/**
 * SPEC.md §3: a theme is a brand and a set of tokens, nothing else. Every screen's HTML in each
 * theme, in each language the screen walk walks, is the default theme's but for the brand's
 * strings (name, site, addresses, logo, icon, links, stores) and the `:root` tokens. This is what
 * lets `npm test`'s walk (test/browser/every-screen.test.ts) check the other themes in English
 * only, and leave their Arabic and Russian to `npm run test:matrix`: a theme that laid a screen
 * out differently (markup of its own, a class, a different copy) would fail here first.
 */

/** The screen walk's languages (WALK_LANGUAGES, test/browser/screen-walk.ts). */
const WALK_LANGUAGES = ['en', 'ar', 'ru'] as const;

/** One visitor for every request, so the pages differ by their theme only. */
const VISITOR = { cookie: `${VISITOR_COOKIE}=00000000-0000-4000-8000-000000000079` };

/** Escaped as an attribute's value, a JSON string in island props, and plain. */
function spellings(text: string): string[] {
  const html = text.replaceAll('&', '&amp;').replaceAll('"', '&quot;');
  const json = JSON.stringify(text).slice(1, -1).replaceAll('&', '\\u0026');
  return [...new Set([text, html, json, html.replaceAll('/', '\\u002F')])];
}

/**
 * The page with its theme's brand strings and tokens replaced by their names: what is left is
 * what the theme must not change. Longer strings first, so a link goes whole before its host.
 */
function withoutTheme(html: string, theme: Theme, nonce: string): string {
  const brand: Brand = DEFAULT_BRANDS[theme];
  const marks: [string, string][] = [
    [brand.favicon, 'FAVICON'],
    [brand.stores.appStore, 'APP_STORE'],
    [brand.stores.googlePlay, 'GOOGLE_PLAY'],
    [brand.links.subscriptionTerms, 'SUBSCRIPTION_TERMS'],
    [brand.links.terms, 'TERMS'],
    [brand.links.privacy, 'PRIVACY'],
    [brand.logos.header.src, 'LOGO'],
    [brand.supportEmail, 'SUPPORT_EMAIL'],
    [brand.host, 'HOST'],
    [brand.titleSuffix, 'TITLE_SUFFIX'],
    [brand.name, 'BRAND'],
  ];
  // A new nonce each response (the CSP's script-src), in the page's tags and its loader's.
  let text = html
    .replaceAll(nonce, 'NONCE')
    .replace(/<link rel="icon" href="[^"]*"/, '<link rel="icon" href="FAVICON"')
    .replace(/:root\{[^}]*\}/, ':root{TOKENS}')
    .replaceAll(`data-theme="${theme}"`, 'data-theme="THEME"')
    // The page's own links carry the query it was asked with (SPEC.md §2).
    .replaceAll(`theme=${theme}`, 'theme=THEME');
  for (const [mark, name] of marks) {
    for (const spelling of spellings(mark)) text = text.replaceAll(spelling, name);
  }
  return text;
}

/** Where two pages part, with some context: what a reader of a failure needs. */
function firstDifference(a: string, b: string): string | undefined {
  if (a === b) return undefined;
  let at = 0;
  while (at < a.length && a[at] === b[at]) at += 1;
  const from = Math.max(0, at - 120);
  return `at ${at}:\n  default: …${a.slice(from, at + 120)}…\n  theme:   …${b.slice(from, at + 120)}…`;
}

describe('a theme changes a page’s brand strings and tokens only', () => {
  it.each(WALK_LANGUAGES)('every screen in every theme, in %s', async (language) => {
    const fetchApp = freshApp({}, { CONFIG_CACHE_TTL_MS: '60000' });
    const differences: Record<string, string> = {};
    for (const screen of SCREEN_IDS) {
      const page = async (theme: Theme) => {
        const path = `/${screen}?skip_split=true&theme=${theme}&custom_lng=${language}`;
        const response = await fetchApp(path, { headers: VISITOR });
        expect(response.status, path).toBe(200);
        const csp = response.headers.get('content-security-policy') ?? '';
        const nonce = /'nonce-([^']+)'/.exec(csp)?.[1] ?? 'no nonce';
        return withoutTheme(await response.text(), theme, nonce);
      };
      const standard = await page(DEFAULT_THEME);
      for (const theme of THEMES.filter((theme) => theme !== DEFAULT_THEME)) {
        const found = firstDifference(standard, await page(theme));
        if (found) differences[`${theme} /${screen}`] = found;
      }
    }
    expect(differences).toEqual({});
  });
});
