import { describe, expect, it } from 'vitest';
import { LANDING_SCREENS } from '../../../screens/landing';
import { renderWithIslands } from '../../../screens/layout/Island';
import type { ScreenProps } from '../../../screens/types';
import { holdEveryLanguage } from '../../../scripts/every-language';
import { DEFAULT_BRANDS } from '../../../shared/brand';
import { type ContentDocument, parseContent } from '../../../shared/config/content';
import { contentIssues } from '../../../worker/content/check';
import { shownContent } from '../../../worker/content/screen-content';
import { shippedTranslator } from '../../../worker/i18n';

holdEveryLanguage();

/**
 * A landing's `picture` section: the content names a library picture with its size and alt text
 * in every shipped language, the validator refuses each gap at its path, and the page draws a
 * <picture> of every served size in AVIF, WebP and JPEG with its size set and its alt text in the
 * page's language.
 */

const ID = 'ab'.repeat(32);
const ALT: Record<string, string> = {
  en: 'A mother and her son checking a map on a phone',
  ar: 'أم وابنها ينظران إلى خريطة على الهاتف',
  de: 'Eine Mutter und ihr Sohn sehen auf dem Handy eine Karte',
  es: 'Una madre y su hijo miran un mapa en el móvil',
  fr: 'Une mère et son fils regardent une carte sur un téléphone',
  pt: 'Uma mãe e o filho a ver um mapa no telemóvel',
  ru: 'Мама и сын смотрят карту в телефоне',
};
const PICTURE = { id: ID, width: 1000, height: 600, alt: ALT };
const ORDER = ['hero', 'phone_form', 'picture', 'claims', 'features', 'reviews', 'footer'];
const arranged = (order: string[]) => order.map((id) => ({ id, visible: true }));
const LIBRARY = new Map([[ID, { width: 1000, height: 600 }]]);

/** The refusals of `raw`, checked against the library (or, `unchecked`, without one). */
function issuesOf(raw: unknown, library: 'unchecked' | typeof LIBRARY = LIBRARY) {
  const parsed = parseContent(raw);
  if (!parsed.ok) return parsed.issues ?? [];
  return contentIssues(parsed.value, library === 'unchecked' ? undefined : library);
}

const onePager = (body: Record<string, unknown>) => ({ screens: { one_pager: body } });

describe('the validator', () => {
  it('takes a library picture at its size, described in every shipped language', () => {
    expect(issuesOf(onePager({ sections: arranged(ORDER), picture: PICTURE }))).toEqual([]);
  });

  it('refuses a picture the library lacks, or at another size, at its path', () => {
    const unknown = { ...PICTURE, id: 'cd'.repeat(32) };
    expect(issuesOf(onePager({ picture: unknown }))).toEqual([
      {
        path: 'content.screens.one_pager.picture.id',
        message: 'names no picture in the library: upload it first',
      },
    ]);
    expect(issuesOf(onePager({ picture: { ...PICTURE, height: 601 } }))).toEqual([
      {
        path: 'content.screens.one_pager.picture.height',
        message: "must be 600, the picture's height",
      },
    ]);
    // Without the library at hand (the CLI), only the rest is checked.
    expect(issuesOf(onePager({ picture: unknown }), 'unchecked')).toEqual([]);
  });

  it('refuses alt text missing in a shipped language, empty, unknown, marked up or turned around', () => {
    const { de: _, ...withoutGerman } = ALT;
    expect(issuesOf(onePager({ picture: { ...PICTURE, alt: withoutGerman } }))).toEqual([
      {
        path: 'content.screens.one_pager.picture.alt.de',
        message: 'must be given: a screen reader says what the picture shows in every language',
      },
    ]);
    const marked = { ...ALT, xx: 'x', fr: '<b>Une mère</b>' };
    expect(issuesOf(onePager({ picture: { ...PICTURE, alt: marked } }))).toEqual([
      {
        path: 'content.screens.one_pager.picture.alt.fr',
        message: 'must be text: markup is shown as written',
      },
      { path: 'content.screens.one_pager.picture.alt.xx', message: 'is not a shipped language' },
    ]);
    // A screen reader reads the alt text as it is written: U+202E would say it backwards.
    const turned = { ...ALT, en: 'A mother and \u202enos reh' };
    expect(issuesOf(onePager({ picture: { ...PICTURE, alt: turned } }))).toEqual([
      {
        path: 'content.screens.one_pager.picture.alt.en',
        message:
          'must not hold the bidirectional control character U+202E: it reorders what the visitor reads',
      },
    ]);
    const blank = issuesOf(onePager({ picture: { ...PICTURE, alt: { ...ALT, ru: '  ' } } }));
    expect(blank).toEqual([
      { path: 'screens.one_pager.picture.alt.ru', message: 'must describe the picture' },
    ]);
  });

  it('refuses a forged id, and sides outside the library’s limits, by its shape', () => {
    const paths = issuesOf(
      onePager({ picture: { ...PICTURE, id: '../originals/x', width: 15, height: 6001 } }),
    ).map((issue) => issue.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'screens.one_pager.picture.id',
        'screens.one_pager.picture.width',
        'screens.one_pager.picture.height',
      ]),
    );
  });

  it('refuses a shown picture section with no picture, in the screen or a variant', () => {
    expect(issuesOf(onePager({ sections: arranged(ORDER) }))).toEqual([
      {
        path: 'content.screens.one_pager.sections.2.id',
        message: 'shows a picture, and content.screens.one_pager.picture names none',
      },
    ]);
    // A variant that shows the section takes the screen's picture, or its own.
    expect(
      issuesOf(
        onePager({ picture: PICTURE, variants: { with_picture: { sections: arranged(ORDER) } } }),
      ),
    ).toEqual([]);
    const variantPicture = { ...PICTURE, id: 'cd'.repeat(32) };
    expect(
      issuesOf(
        onePager({ variants: { b: { sections: arranged(ORDER), picture: variantPicture } } }),
      ),
    ).toEqual([
      {
        path: 'content.screens.one_pager.variants.b.picture.id',
        message: 'names no picture in the library: upload it first',
      },
    ]);
  });
});

function content(raw: unknown): ContentDocument {
  const parsed = parseContent(raw);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value;
}

async function render(document: ContentDocument, language: string, variant: string | null = null) {
  const shown = shownContent(document, 'one_pager', language, shippedTranslator(language), variant);
  const props: ScreenProps = {
    screen: 'one_pager',
    t: shown.t,
    arrangement: shown.arrangement,
    picture: shown.picture,
    continueAction: '/one_pager',
    next: '/searching',
    country: 'DE',
    language,
    theme: 'geozilla',
    brand: DEFAULT_BRANDS.geozilla,
    flow: 'default',
    visitorId: '8a4b1f5e-2c3d-4e6f-9a0b-1c2d3e4f5a6b',
    landingType: 'split_default',
    googleClientId: 'test-client.apps.googleusercontent.com',
  };
  const { Component } = LANDING_SCREENS.one_pager;
  return (await renderWithIslands(<Component {...props} />)).html;
}

const pictureOf = (html: string) =>
  html.slice(html.indexOf('<figure'), html.indexOf('</figure>') + '</figure>'.length);

describe('the picture section', () => {
  it('draws every served size in AVIF, WebP and JPEG, sized, lazy below the fold', async () => {
    const html = await render(
      content(onePager({ sections: arranged(ORDER), picture: PICTURE })),
      'en',
    );
    const sizes = (format: string) =>
      [320, 640, 960, 1000].map((w) => `/pictures/${ID}-${w}.${format} ${w}w`).join(', ');
    const figure = pictureOf(html);
    expect(figure).toContain(`<source type="image/avif" srcSet="${sizes('avif')}"`);
    expect(figure).toContain(`<source type="image/webp" srcSet="${sizes('webp')}"`);
    expect(figure).toContain(`src="/pictures/${ID}-640.jpg" srcSet="${sizes('jpg')}"`);
    expect(figure).toContain('width="1000" height="600"');
    expect(figure).toContain(`alt="${ALT.en}"`);
    expect(figure).toContain('loading="lazy" decoding="async"');
    expect(figure.indexOf('image/avif')).toBeLessThan(figure.indexOf('image/webp'));
    // Where the content put it: after the form, before the claims.
    expect(html.indexOf('class="phone-section"')).toBeLessThan(html.indexOf('<figure'));
  });

  it('says its alt text in the page’s language, escaped', async () => {
    const html = await render(
      content(onePager({ sections: arranged(ORDER), picture: PICTURE })),
      'ar',
    );
    expect(pictureOf(html)).toContain(`alt="${ALT.ar}"`);
    const quoted = { ...PICTURE, alt: { ...ALT, en: 'A "map" & <pin>' } };
    const escaped = await render(
      content(onePager({ sections: arranged(ORDER), picture: quoted })),
      'en',
    );
    expect(pictureOf(escaped)).toContain('alt="A &quot;map&quot; &amp; &lt;pin&gt;"');
  });

  it('right under the heading is fetched at once, as the likely largest paint', async () => {
    const top = ['hero', 'picture', 'phone_form', 'footer'];
    const figure = pictureOf(
      await render(content(onePager({ sections: arranged(top), picture: PICTURE })), 'en'),
    );
    expect(figure).toContain('loading="eager" fetchPriority="high"');
    expect(figure).not.toContain('loading="lazy"');
  });

  it('shows a variant’s picture to the visitor drawn into it', async () => {
    const other = { ...PICTURE, id: 'cd'.repeat(32) };
    const document = content(
      onePager({
        sections: arranged(ORDER),
        picture: PICTURE,
        variants: { b: { picture: other } },
      }),
    );
    expect(pictureOf(await render(document, 'en'))).toContain(`/pictures/${ID}-`);
    expect(pictureOf(await render(document, 'en', 'b'))).toContain(`/pictures/${'cd'.repeat(32)}-`);
  });

  it('is in no landing in code', async () => {
    expect(await render(content({}), 'en')).not.toContain('<picture');
  });
});
