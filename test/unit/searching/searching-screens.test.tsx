import { describe, expect, it } from 'vitest';
import { renderWithIslands } from '../../../screens/layout/Island';
import { SEARCHING_SCREENS } from '../../../screens/searching';
import { DEFAULT_BRANDS } from '../../../shared/brand';
import { shippedTranslator } from '../../../worker/i18n';

type SearchingId = keyof typeof SEARCHING_SCREENS;
const SEARCHING = Object.keys(SEARCHING_SCREENS) as SearchingId[];

async function renderSearching(screen: SearchingId) {
  const { Component } = SEARCHING_SCREENS[screen];
  const { html, islands } = await renderWithIslands(
    <Component
      screen={screen}
      t={shippedTranslator('en')}
      continueAction={`/${screen}?gclid=1&utm_source=x`}
      next="/signup?gclid=1&utm_source=x"
      country="US"
      language="en"
      theme="geozilla"
      brand={DEFAULT_BRANDS.geozilla}
      flow="default"
      visitorId="8a4b1f5e-2c3d-4e6f-9a0b-1c2d3e4f5a6b"
      landingType="split_default"
      googleClientId="test-client.apps.googleusercontent.com"
    />,
  );
  const props = JSON.parse(
    (html.match(/data-props="([^"]*)"/)?.[1] ?? '{}')
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&'),
  );
  return { html, props, islands: [...islands] };
}

describe.each(SEARCHING)('searching screen %s (SPEC.md §2)', (screen) => {
  it('has exactly one <h1> and one Continue control', async () => {
    const { html } = await renderSearching(screen);
    expect(html.match(/<h1[ >]/g)).toHaveLength(1);
    expect(html.match(/id="continue-button"/g)).toHaveLength(1);
  });

  it('renders the search island with the four steps of the spec', async () => {
    const { html, islands } = await renderSearching(screen);
    expect(islands).toEqual(['SearchProgress']);
    expect(html.match(/class="search__step /g)).toHaveLength(4);
    expect(html).toContain('role="progressbar"');
  });

  it('leads back to the flow’s landing with the visitor’s query', async () => {
    expect((await renderSearching(screen)).props.backUrl).toBe('/?gclid=1&utm_source=x');
  });

  it('hands the island translated texts only', async () => {
    const { props } = await renderSearching(screen);
    expect(props.labels.errors).toEqual({
      phone_incorrect: 'Phone number is incorrect',
      lookup_failed: 'An error occurred, please try again',
      rate_limited: 'Too many attempts. Please wait a few minutes and try again.',
    });
    expect(props.labels.types.MOBILE).toBe('Mobile network');
    expect(JSON.stringify(props.labels)).not.toMatch(/searching\.|kit\.|errors\./);
  });
});

describe('searching variants', () => {
  it('speak of the steps as the spec does on searching and searching_2', async () => {
    for (const screen of ['searching', 'searching_2'] as const) {
      const { html } = await renderSearching(screen);
      expect(html).toContain('Connecting to the cellular base station');
      expect(html).toContain('Identifying the network operator');
      expect(html).toContain('Connecting to the phone');
    }
  });

  it('searching_ai uses AI wording and its own styling', async () => {
    const { html } = await renderSearching('searching_ai');
    expect(html).toContain('AI is scanning the cellular base stations');
    expect(html).toContain('search--ai');
    expect(html).toContain('AI search');
  });

  it('searching_2 leads with the map', async () => {
    const { html } = await renderSearching('searching_2');
    expect(html.indexOf('area-map')).toBeGreaterThan(-1);
    expect(html.indexOf('area-map')).toBeLessThan(html.indexOf('role="progressbar"'));
  });
});
