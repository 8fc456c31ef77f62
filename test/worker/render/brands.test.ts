import { beforeEach, describe, expect, it, vi } from 'vitest';
import { type Brand, DEFAULT_BRANDS } from '../../../shared/brand';
import type { ContentDocument } from '../../../shared/config/content';
import { SCREEN_IDS } from '../../../shared/screens';
import { THEMES, type Theme } from '../../../shared/theme';
import { DEFAULT_FLOWS, DEFAULT_ROUTING } from '../../../worker/config/defaults';
import { faviconHref } from '../../../worker/render/favicon';
import { SPRING_LANDING } from '../../fixtures/composed-landing';
import { freshApp, putConfig } from '../fetch-app';

/**
 * SPEC.md §3 themes as brands (shared/brand.ts): every screen, a composed one and the not-found
 * page, in each of the four themes, wears its own brand (tab title, icon, logo's name) and holds
 * no other brand's name, site or address anywhere in its HTML (texts, links, island props, head);
 * a marketer's brand from KV replaces the one in code, and a broken one never breaks a page.
 */

/** The query each theme is asked for by: two by name, two by their short names (SPEC.md §3). */
const ASKED_AS: Record<Theme, string> = {
  geozilla: 'geozilla',
  'family-locator': 'fl',
  brainbloom: 'bb',
  findo: 'findo',
};

const REST = DEFAULT_FLOWS.flows.default!.slice(1);

beforeEach(async () => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
  await putConfig('content', SPRING_LANDING);
  await putConfig('flows', {
    version: 'brands',
    flows: { ...DEFAULT_FLOWS.flows, spring: ['spring_landing', ...REST] },
  });
  await putConfig('routing', { ...DEFAULT_ROUTING, routes: [{ id: 'default', flow: 'spring' }] });
  await putConfig('split', {
    version: 'brands',
    defaultVariant: 'default',
    variants: { default: { weight: 1, flow: 'spring' } },
  });
});

/** What of another brand a page names: its name, its site or its address. */
function otherBrandsIn(html: string, own: Brand): string[] {
  return Object.values(DEFAULT_BRANDS)
    .filter((brand) => brand !== own)
    .flatMap((brand) => [brand.name, brand.host, brand.supportEmail])
    .filter((mark) => html.includes(mark));
}

const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '';

describe('every page wears its theme’s brand', () => {
  it.each(THEMES)('%s: on every screen, a composed one and the not-found page', async (theme) => {
    const fetchApp = freshApp({}, { CONFIG_CACHE_TTL_MS: '60000' });
    const pages = [...SCREEN_IDS, 'spring_landing', 'no_such_page'];
    const own = DEFAULT_BRANDS[theme];
    for (const page of pages) {
      const where = `${theme} /${page}`;
      const response = await fetchApp(`/${page}?skip_split=true&theme=${ASKED_AS[theme]}`);
      expect(response.status, where).toBe(page === 'no_such_page' ? 404 : 200);
      const html = await response.text();
      expect(otherBrandsIn(html, own), where).toEqual([]);
      expect(html, where).toContain(`<link rel="icon" href="${faviconHref(own.favicon)}"`);
      expect(html, where).toContain(`class="top-bar__logo" role="img" aria-label="${own.name}"`);
      expect(html, where).toContain(`--logo:url(${own.logos.header.src})`);
      if (page !== 'no_such_page') expect(titleOf(html), where).toMatch(` · ${own.titleSuffix}`);
    }
  });

  it("sends mail, legal pages and the stores to the theme's own", async () => {
    const html = await (await freshApp()('/success?skip_split=true&theme=fl')).text();
    const family = DEFAULT_BRANDS['family-locator'];
    expect(html).toContain(`href="mailto:${family.supportEmail}"`);
    expect(html).toContain(`href="${family.links.terms}"`);
    expect(html).toContain(`href="${family.links.privacy}"`);
    expect(html).toContain(`href="${family.stores.appStore}"`);
    // The receipt's way to cancel, in the success screen's island props.
    expect(html).toContain(`writing to ${family.supportEmail}.`);
  });
});

describe("a marketer's copy naming the brand", () => {
  it("reads {{brand}} and {{support_email}} as the page's own brand, in every theme", async () => {
    await putConfig('content', {
      screens: {
        one_pager: {
          copy: { en: { 'screens.one_pager.title': '{{brand}} finds them ({{support_email}})' } },
        },
      },
    });
    const fetchApp = freshApp();
    for (const theme of THEMES) {
      const own = DEFAULT_BRANDS[theme];
      const html = await (await fetchApp(`/one_pager?skip_split=true&theme=${theme}`)).text();
      expect(html, theme).toContain(`${own.name} finds them (${own.supportEmail})</h1>`);
    }
  });
});

describe("a marketer's brand", () => {
  const PLUS: Brand = {
    ...DEFAULT_BRANDS.findo,
    name: 'Findo Plus',
    titleSuffix: 'Findo Plus app',
    supportEmail: 'help@findo.app',
    logos: { header: { src: '/logos/findo.svg', width: 120, height: 32 } },
    links: { ...DEFAULT_BRANDS.findo.links, terms: 'https://findo.app/legal/terms' },
  };
  const withBrand = (brand: unknown): ContentDocument =>
    ({ ...SPRING_LANDING, brands: { findo: brand } }) as ContentDocument;

  it('replaces the one in code for its theme only', async () => {
    await putConfig('content', withBrand(PLUS));
    const fetchApp = freshApp();
    const html = await (await fetchApp('/success?skip_split=true&theme=fo')).text();
    expect(titleOf(html)).toMatch(/ · Findo Plus app$/);
    expect(html).toContain('aria-label="Findo Plus"');
    expect(html).toContain('href="mailto:help@findo.app"');
    expect(html).toContain('href="https://findo.app/legal/terms"');
    expect(html).toContain('--logo-width:120px;--logo-height:32px');
    const other = await (await fetchApp('/success?skip_split=true&theme=gz')).text();
    expect(other).not.toContain('Findo');
    expect(other).toContain('href="mailto:support@geozilla.com"');
  });

  it('broken in KV, leaves the last good one, else the one in code, and the page whole', async () => {
    const broken = withBrand({ ...PLUS, supportEmail: 'nobody' });
    await putConfig('content', withBrand(PLUS));
    const fetchApp = freshApp({}, { CONFIG_CACHE_TTL_MS: '0' });
    expect(await (await fetchApp('/success?theme=fo')).text()).toContain('mailto:help@findo.app');
    await putConfig('content', broken);
    const kept = await fetchApp('/success?theme=fo');
    expect(kept.status).toBe(200);
    expect(await kept.text()).toContain('mailto:help@findo.app');
    const first = await freshApp()('/success?theme=fo');
    expect(first.status).toBe(200);
    expect(await first.text()).toContain('mailto:support@findo.app');
  });
});
