import { describe, expect, it } from 'vitest';
import { LANDING_SCREENS } from '../../../screens/landing';
import { renderWithIslands } from '../../../screens/layout/Island';
import type { ScreenProps } from '../../../screens/types';
import { holdEveryLanguage } from '../../../scripts/every-language';
import { DEFAULT_BRANDS } from '../../../shared/brand';
import { shippedTranslator } from '../../../worker/i18n';

holdEveryLanguage();

type LandingId = keyof typeof LANDING_SCREENS;
const LANDINGS = Object.keys(LANDING_SCREENS) as LandingId[];

async function renderLanding(screen: LandingId, overrides: Partial<ScreenProps> = {}) {
  const { Component } = LANDING_SCREENS[screen];
  const { html, islands } = await renderWithIslands(
    <Component
      screen={screen}
      t={shippedTranslator('en')}
      continueAction={`/${screen}?gclid=1`}
      next="/searching?gclid=1"
      country="DE"
      language="en"
      theme="geozilla"
      brand={DEFAULT_BRANDS.geozilla}
      flow="default"
      visitorId="8a4b1f5e-2c3d-4e6f-9a0b-1c2d3e4f5a6b"
      landingType="split_default"
      googleClientId="test-client.apps.googleusercontent.com"
      {...overrides}
    />,
  );
  return { html, document: readMarkup(html), islands: [...islands] };
}

/** The checks below need only the visible text and tag counts; Node has no DOM parser. */
function readMarkup(html: string) {
  const text = html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
  return { text, count: (pattern: RegExp) => html.match(pattern)?.length ?? 0 };
}

/** SPEC.md §1 claims in the copy; every landing makes all of them. */
const CLAIMS = [
  'Real-time tracking',
  'Location history',
  'Place alerts',
  'Check-in',
  'Panic button',
  'Multiple groups',
  'Private chat',
  'Anonymous mode',
  'iOS',
  'Android',
  '100% money-back guarantee',
];

describe.each(LANDINGS)('landing %s (SPEC.md §1, §2)', (screen) => {
  it('has exactly one <h1> and one Continue control, the Locate button', async () => {
    const { document, html } = await renderLanding(screen);
    expect(document.count(/<h1[ >]/g)).toBe(1);
    expect(document.count(/id="continue-button"/g)).toBe(1);
    expect(html).toMatch(/<button id="continue-button" type="submit"[^>]*>Locate<\/button>/);
  });

  it('makes the pitch with the consent promise: the owner gets an SMS and must agree', async () => {
    const { document } = await renderLanding(screen);
    expect(document.text).toContain(
      'The owner of the number gets an SMS and must agree before their location is shared with you.',
    );
  });

  it('makes every claim of the copy', async () => {
    const { document } = await renderLanding(screen);
    for (const claim of CLAIMS) expect(document.text, claim).toContain(claim);
    expect(document.text).toMatch(/10\+ million users|10M\+ people use the app/);
    expect(document.text).toMatch(/[Aa]ccura(cy|te) (up )?to 5 meters|5 m location accuracy/);
  });

  it('renders the phone form island, posting to the screen with the visitor’s query', async () => {
    const { html, islands } = await renderLanding(screen);
    expect(islands).toContain('PhoneForm');
    expect(html).toContain('action="/one_pager'.replace('one_pager', screen));
    // The page script's move to the next screen would leave the number behind (islands/boot.ts):
    // until its island answers, the form posts to the worker.
    expect(html).not.toContain('data-next=');
  });

  it('starts the phone field on the visitor’s country, else the US', async () => {
    expect((await renderLanding(screen)).html).toMatch(
      /<option value="DE" selected="">Germany \(\+49\)/,
    );
    expect((await renderLanding(screen, { country: null })).html).toMatch(
      /<option value="US" selected="">United States \(\+1\)/,
    );
  });

  it('shows 3 to 5 reviews with name, text and a local avatar', async () => {
    const { html } = await renderLanding(screen);
    const reviews = html.match(/class="reviews__item"/g) ?? [];
    expect(reviews.length).toBeGreaterThanOrEqual(3);
    expect(reviews.length).toBeLessThanOrEqual(5);
    expect(html).toContain('Emily R.');
    expect(html).toMatch(
      /<img class="reviews__avatar" src="\/img\/reviews\/emily-[0-9a-f]{8}\.svg" alt="" width="48" height="48" loading="lazy"/,
    );
  });

  it('shows the app on a phone, drawn inline in the theme and named in every language', async () => {
    for (const language of ['en', 'ar', 'ru', 'de', 'es', 'fr', 'pt']) {
      const { html } = await renderLanding(screen, { t: shippedTranslator(language), language });
      const art = /<svg class="art"[^>]*>/.exec(html)?.[0] ?? '';
      expect(art).toContain('role="img"');
      const label = /aria-label="([^"]+)"/.exec(art)?.[1] ?? '';
      expect(label.length, language).toBeGreaterThan(20);
      expect(label, language).not.toContain('landing.illustration');
      if (language !== 'en') expect(label).not.toMatch(/^The app/);
      // A size of its own, so nothing moves as it paints, and no request: no <image> or url().
      expect(art).toContain('width="320" height="250"');
    }
    const drawing = /<svg class="art"[\s\S]*?<\/svg>/.exec((await renderLanding(screen)).html)?.[0];
    expect(drawing).toContain('art__brand');
    expect(drawing).not.toMatch(/<image|href=|url\(http/);
  });

  it('shows the trust labels and the support and legal links', async () => {
    const { document } = await renderLanding(screen);
    for (const text of [
      '100% confidential',
      'Secure SSL encryption',
      'Contact support',
      'Terms of use',
      'Privacy policy',
    ])
      expect(document.text, text).toContain(text);
  });

  it('loads no image or script from another site', async () => {
    const { html } = await renderLanding(screen);
    expect(html).not.toMatch(/<(img|script|iframe)[^>]+src="(https?:)?\/\//);
  });
});

describe('landing variants look as their names say', () => {
  it('one_pager_all puts every feature in a grid', async () => {
    const { html } = await renderLanding('one_pager_all');
    expect(html.match(/class="feature-grid__item"/g)).toHaveLength(8);
  });

  it('one_pager_ai frames it as AI-powered location', async () => {
    const { document, html } = await renderLanding('one_pager_ai');
    expect(html).toContain('landing-ai-panel');
    expect(document.text).toContain('AI-powered location');
    expect(document.text).toContain('How our AI finds a phone');
    for (const screen of LANDINGS.filter((id) => id !== 'one_pager_ai'))
      expect((await renderLanding(screen)).document.text, screen).not.toContain(
        'How our AI finds a phone',
      );
  });

  it('one_pager_l1 reads as a story with every review listed, and needs no carousel script', async () => {
    const { html, islands } = await renderLanding('one_pager_l1');
    expect(html).toContain('Worried when they do not pick up?');
    expect(html).toContain('reviews__track--static');
    expect(islands).toEqual(['PhoneForm']);
  });

  it('one_pager_l2 leads with the big numbers', async () => {
    const { html } = await renderLanding('one_pager_l2');
    expect(html.indexOf('class="stats"')).toBeLessThan(html.indexOf('data-island="PhoneForm"'));
    expect(html).toContain('10M+');
  });

  it('every variant has its own layout', async () => {
    const classes = await Promise.all(
      LANDINGS.map(
        async (screen) =>
          (await renderLanding(screen)).html.match(/class="screen landing (landing--\w+)"/)?.[1],
      ),
    );
    expect(new Set(classes).size).toBe(LANDINGS.length);
  });
});
