import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ContentDocument } from '../../../shared/config/content';
import { freshApp, putConfig } from '../fetch-app';

/**
 * The rating above the landing's reviews is the marketer's (content `rating`), read from KV as a
 * visitor's page is drawn: shown as text in the visitor's language, with stars a screen reader
 * skips, and not at all when the content gives none.
 */

const RATED: ContentDocument = {
  screens: { one_pager: { rating: { value: 4.6, count: 12400, source: 'App Store' } } },
};

beforeEach(() => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(async () => {
  vi.restoreAllMocks();
  await env.FUNNEL_CONFIG.delete('content');
});

async function landing(language = 'en'): Promise<string> {
  const response = await freshApp()('/one_pager?skip_split=true', {
    headers: { 'Accept-Language': language },
  });
  expect(response.status).toBe(200);
  return response.text();
}

/** The rating's paragraph, if the page has one. */
const ratingOf = (html: string) => /<p class="rating">.*?<\/p>/.exec(html)?.[0];
/** Its words without the markup, as a screen reader meets them (hidden parts left out). */
const spoken = (paragraph: string) =>
  paragraph.replace(/<span[^>]*aria-hidden="true"[^>]*>.*?<\/span>/g, '').replace(/<[^>]+>/g, '');

describe('the rating above the reviews', () => {
  it('is shown only when the content gives one: code never makes one up', async () => {
    const html = await landing();
    expect(html).toContain('What our users say');
    expect(ratingOf(html)).toBeUndefined();
    expect(html).not.toContain('out of 5');
  });

  it('says the marketer’s figures and their source, in the visitor’s language', async () => {
    await putConfig('content', RATED);
    const english = ratingOf(await landing('en'));
    expect(english).toBeDefined();
    expect(spoken(english!)).toBe('4.6 out of 5 · 12,400 reviews · App Store');
    // The stars are drawn from the value and hidden: the text is what is said.
    expect(english).toMatch(
      /<span class="rating__stars" aria-hidden="true" style="--rating-fill:92%">★★★★★<\/span>/,
    );
    expect(spoken(ratingOf(await landing('de'))!)).toBe(
      '4,6 von 5 · 12.400 Bewertungen · App Store',
    );
    expect(spoken(ratingOf(await landing('ru'))!)).toBe(
      '4,6 из 5 · 12\u00a0400 отзывов · App Store',
    );
  });

  it('says only what is given: a count without a value has no stars', async () => {
    await putConfig('content', {
      screens: { one_pager: { rating: { count: 1, source: 'Google Play' } } },
    });
    const paragraph = ratingOf(await landing());
    expect(paragraph).not.toContain('rating__stars');
    expect(spoken(paragraph!)).toBe('1 review · Google Play');
  });
});
