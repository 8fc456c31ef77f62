import { describe, expect, it } from 'vitest';
import { type Brand, brandOf, DEFAULT_BRANDS } from '../../../shared/brand';
import { parseContent } from '../../../shared/config/content';
import { THEMES } from '../../../shared/theme';
import { checkDocumentText } from '../../../worker/config/document';
import { contentIssues } from '../../../worker/content/check';

/**
 * A marketer's brands (the content document's `brands`, shared/config/brands.ts), as
 * `npm run config -- validate` and the console's publish check them: what would send a visitor
 * to an unencrypted page, mail to nowhere, or put markup or another site in the page is refused
 * at its path.
 */

const FAMILY: Brand = DEFAULT_BRANDS['family-locator'];

/** The refusals `validate` gives for a document whose family-locator brand is `brand`. */
function refusals(brand: unknown): { path: string; message: string }[] {
  const checked = checkDocumentText(
    JSON.stringify({ content: { screens: {}, brands: { 'family-locator': brand } } }),
  );
  if (checked.ok) return [];
  return checked.issues ?? [{ path: '', message: checked.error }];
}

describe('a brand in the content document', () => {
  it('passes as the defaults in code give it, for every theme', () => {
    const brands = Object.fromEntries(THEMES.map((theme) => [theme, DEFAULT_BRANDS[theme]]));
    const parsed = parseContent({ screens: {}, brands });
    expect(parsed.ok).toBe(true);
  });

  it('is the brand its theme wears; a theme it does not name wears the one in code', () => {
    const renamed = { ...FAMILY, name: 'Family Finder' };
    const parsed = parseContent({ screens: {}, brands: { 'family-locator': renamed } });
    if (!parsed.ok) throw new Error(parsed.error);
    expect(brandOf(parsed.value.brands, 'family-locator').name).toBe('Family Finder');
    expect(brandOf(parsed.value.brands, 'findo')).toBe(DEFAULT_BRANDS.findo);
    expect(brandOf(undefined, 'brainbloom')).toBe(DEFAULT_BRANDS.brainbloom);
  });

  it('refuses a link that is not https, naming its path', () => {
    expect(
      refusals({ ...FAMILY, links: { ...FAMILY.links, terms: 'http://familylocator.app/terms' } }),
    ).toEqual([
      {
        path: 'content.brands.family-locator.links.terms',
        message: 'must be an https:// address',
      },
    ]);
    expect(
      refusals({ ...FAMILY, stores: { ...FAMILY.stores, googlePlay: 'javascript:alert(1)' } }),
    ).toEqual([
      {
        path: 'content.brands.family-locator.stores.googlePlay',
        message: 'must be an https:// address',
      },
    ]);
  });

  it('refuses a link whose address hides another host behind credentials', () => {
    const terms = 'https://familylocator.app@evil.example/terms';
    expect(refusals({ ...FAMILY, links: { ...FAMILY.links, terms } })).toEqual([
      { path: 'content.brands.family-locator.links.terms', message: 'must be an https:// address' },
    ]);
  });

  it('refuses a support address that is not an email address', () => {
    expect(refusals({ ...FAMILY, supportEmail: 'support at familylocator.app' })).toEqual([
      { path: 'content.brands.family-locator.supportEmail', message: 'must be an email address' },
    ]);
  });

  it("refuses a logo off this site or one that could break out of the page's CSS", () => {
    for (const src of [
      'https://elsewhere.example/logo.svg',
      '/logos/a.svg);background:url(//x',
      '/logos/../secret.svg',
      '/logos/logo.gif',
      // Protocol-relative: the browser reads it as another host's picture.
      '//elsewhere.example/logo.svg',
    ]) {
      const header = { ...FAMILY.logos.header, src };
      expect(refusals({ ...FAMILY, logos: { header } }), src).toEqual([
        {
          path: 'content.brands.family-locator.logos.header.src',
          message: 'must be a path on this site such as /logos/geozilla.svg',
        },
      ]);
    }
  });

  it('holds its name and support address to the copy rules: no price typed by hand, no bidirectional control', () => {
    const at = 'content.brands.family-locator';
    expect(refusals({ ...FAMILY, name: 'Family Locator $0.99' })).toEqual([
      {
        path: `${at}.name`,
        message: expect.stringMatching(/^must not state a price by hand \("\$0\.99"\)/),
      },
    ]);
    expect(refusals({ ...FAMILY, titleSuffix: 'Family Locator 6,99 €' })).toEqual([
      { path: `${at}.titleSuffix`, message: expect.stringContaining('("6,99 €")') },
    ]);
    // U+202E turns what follows around: "Locator" would read "rotacoL".
    expect(refusals({ ...FAMILY, name: 'Family \u202eLocator' })).toEqual([
      {
        path: `${at}.name`,
        message:
          'must not hold the bidirectional control character U+202E: it reorders what the visitor reads',
      },
    ]);
    expect(refusals({ ...FAMILY, supportEmail: '\u202eppa.rotacol@troppus' })[0]?.path).toBe(
      `${at}.supportEmail`,
    );
  });

  it('refuses a legal link holding a bidirectional control, which reads as another address', () => {
    const terms = 'https://familylocator.app/\u202emret';
    expect(refusals({ ...FAMILY, links: { ...FAMILY.links, terms } })).toEqual([
      {
        path: 'content.brands.family-locator.links.terms',
        message:
          'must not hold the bidirectional control character U+202E: it reorders what the visitor reads',
      },
    ]);
  });

  it('refuses an icon that is not an SVG document, or one that runs, loads or links', () => {
    const at = 'content.brands.family-locator.favicon';
    expect(refusals({ ...FAMILY, favicon: '<img src=x>' })[0]?.path).toBe(at);
    for (const svg of [
      '<svg><script>alert(1)</script></svg>',
      '<svg onload="alert(1)"></svg>',
      '<svg><image href="https://x.example/a.png"/></svg>',
    ]) {
      expect(refusals({ ...FAMILY, favicon: svg }), svg).toEqual([
        { path: at, message: 'must not hold scripts, event handlers, links or url()' },
      ]);
    }
  });

  it('refuses a brand given in part, and a theme there is none of', () => {
    const { stores: _stores, ...partial } = FAMILY;
    expect(refusals(partial)).toEqual([
      { path: 'content.brands.family-locator.stores', message: expect.any(String) },
    ]);
    const checked = checkDocumentText(
      JSON.stringify({ content: { screens: {}, brands: { acme: FAMILY } } }),
    );
    expect(checked.ok).toBe(false);
    expect(checked.ok ? '' : checked.error).toContain('unknown theme "acme"');
  });

  it('lets any text say {{brand}} and {{support_email}}, which every page fills with its own', () => {
    const issuesOf = (title: string) => {
      const parsed = parseContent({
        screens: { one_pager: { copy: { de: { 'screens.one_pager.title': title } } } },
      });
      if (!parsed.ok) throw new Error(parsed.error);
      return contentIssues(parsed.value);
    };
    expect(issuesOf('Finden mit {{brand}}: {{support_email}}')).toEqual([]);
    expect(issuesOf('Finden mit {{brandname}}')).toEqual([
      expect.objectContaining({ message: expect.stringContaining('unknown {{brandname}}') }),
    ]);
  });

  it('refuses an empty name and a host that is no host', () => {
    expect(refusals({ ...FAMILY, name: ' ' })).toEqual([
      { path: 'content.brands.family-locator.name', message: 'must not be empty' },
    ]);
    expect(refusals({ ...FAMILY, host: 'https://familylocator.app' })).toEqual([
      {
        path: 'content.brands.family-locator.host',
        message: 'must be a host name such as geozilla.com',
      },
    ]);
  });
});
