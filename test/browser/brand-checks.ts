import type { Page } from 'playwright-core';
import { DEFAULT_BRANDS } from '../../shared/brand';
import type { Theme } from '../../shared/theme';

/**
 * The screenshot walk's brand check (every-screen.test.ts): a page in one theme shows no other
 * brand (shared/brand.ts), as a visitor would find it: not in the text on screen, the tab's
 * title, nor any address the page links to or loads (href, src, srcset, a form's action, the
 * icon's data URI read decoded); and its tab title ends with its own brand. Its store badges,
 * which lead to the brand's listings, are one size: two badges of different widths side by
 * side read as two different things.
 */

/** What the walk adds to a render's problems: nothing, or `brand` with what was found. */
export async function brandProblems(page: Page): Promise<{ brand?: string[] }> {
  const found = [
    ...(await page.evaluate(readBrandMarks, DEFAULT_BRANDS)),
    ...(await page.evaluate(unequalStoreBadges)),
  ];
  return found.length > 0 ? { brand: found } : {};
}

/** Runs in the page. */
function readBrandMarks(brands: Record<Theme, typeof DEFAULT_BRANDS.geozilla>): string[] {
  const theme = document.documentElement.dataset.theme as Theme;
  const own = brands[theme];
  if (!own) return [`the page's theme "${theme}" has no brand`];
  const addresses: string[] = [];
  for (const element of document.querySelectorAll('[href], [src], [srcset], form[action]')) {
    for (const name of ['href', 'src', 'srcset', 'action']) {
      const value = element.getAttribute(name);
      if (value) addresses.push(`${element.tagName.toLowerCase()}[${name}] ${value}`);
    }
  }
  const decoded = (text: string) => {
    try {
      return decodeURIComponent(text);
    } catch {
      return text;
    }
  };
  const places = [
    `text: ${document.body.innerText}`,
    `title: ${document.title}`,
    ...addresses.map(decoded),
  ];
  const found: string[] = [];
  for (const [other, brand] of Object.entries(brands)) {
    if (other === theme) continue;
    for (const mark of [brand.name, brand.host, brand.supportEmail]) {
      const place = places.find((text) => text.includes(mark));
      if (place) found.push(`${other}'s "${mark}" in ${place.slice(0, 160).replace(/\s+/g, ' ')}`);
    }
  }
  if (!document.title.endsWith(` · ${own.titleSuffix}`))
    found.push(`the title "${document.title}" does not end with "${own.titleSuffix}"`);
  return found;
}

/** Runs in the page: the store badges' sizes, when they are not all one. */
function unequalStoreBadges(): string[] {
  const sizes = [...document.querySelectorAll('.store-badge')].map((badge) => {
    const box = badge.getBoundingClientRect();
    return `${Math.round(box.width)}×${Math.round(box.height)}`;
  });
  return new Set(sizes).size > 1 ? [`store badges of different sizes: ${sizes.join(', ')}`] : [];
}
