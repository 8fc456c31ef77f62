import { describe, expect, it } from 'vitest';
import { freshApp, ORIGIN, setCookies } from '../fetch-app';
import { pageStateOf } from '../page-html';

/**
 * What the worker does with the visitor's answer to the consent banner, page after page, with a
 * Meta pixel, a TikTok pixel and a Google Ads tag configured: the pages a visitor walks once they
 * declined, once they answered without script, and where no answer is needed. The banner in the
 * page and the pixels' own code: test/unit/pixels/; the pixels loading and firing in Chromium:
 * test/browser/pixels.test.ts.
 */

const PIXELS = {
  META_PIXEL_ID: '1234567890',
  TIKTOK_PIXEL_ID: 'CTIKTOK123',
  GOOGLE_ADS_ID: 'AW-555',
  GOOGLE_ADS_CONVERSION_LABEL: 'buyLabel',
};

const AD_COOKIES = ['_fbc', '_fbp', '_ttp'];

/** The banner's island marker, if the page rendered one. */
const hasBanner = (html: string) => html.includes('data-island="ConsentBanner"');

describe('the consent answer, page after page', () => {
  it('declined: no banner and no ad cookie on the next pages, which tell the pixels so', async () => {
    const fetchApp = freshApp({}, PIXELS);
    for (const path of ['/signup?fbclid=IwAR1', '/checkout_v3_tr?fbclid=IwAR1']) {
      const page = await fetchApp(path, { headers: { cookie: 'gf_consent=denied' } });
      const html = await page.text();
      expect(hasBanner(html), path).toBe(false);
      expect(pageStateOf(html).analytics.consent, path).toBe('denied');
      expect(
        [...setCookies(page).keys()].filter((name) => AD_COOKIES.includes(name)),
        path,
      ).toEqual([]);
    }
  });

  it('answered before the script has arrived: the form posts, and the page comes back with the ad cookies', async () => {
    const fetchApp = freshApp({}, PIXELS);
    const asked = await fetchApp('/signup?fbclid=IwAR1');
    expect(hasBanner(await asked.text())).toBe(true);
    // The form posts from the page, whose referrer policy gives the worker its path and query.
    expect(asked.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    const posted = await fetchApp('/consent', {
      method: 'POST',
      body: new URLSearchParams({ answer: 'granted' }),
      headers: { 'sec-fetch-site': 'same-origin', referer: `${ORIGIN}/signup?fbclid=IwAR1` },
      redirect: 'manual',
    });
    expect(posted.status).toBe(303);
    expect(posted.headers.get('location')).toBe('/signup?fbclid=IwAR1');
    expect(setCookies(posted).get('gf_consent')).toBe('granted');

    const back = await fetchApp('/signup?fbclid=IwAR1', {
      headers: { cookie: 'gf_consent=granted' },
    });
    expect(hasBanner(await back.text())).toBe(false);
    const cookies = setCookies(back);
    expect([...cookies.keys()]).toEqual(expect.arrayContaining(AD_COOKIES));
    expect(cookies.get('_fbc')).toMatch(/^fb\.1\.\d{13}\.IwAR1$/);
    expect(cookies.get('_fbp')).toMatch(/^fb\.1\.\d{13}\.\d{10}$/);
    expect(cookies.get('_ttp')).toMatch(/^[a-f0-9]{32}$/);
    // The pixels read them from script.
    const fbp = back.headers.getSetCookie().find((cookie) => cookie.startsWith('_fbp='));
    expect(fbp).not.toContain('HttpOnly');
  });

  it('where consent is not required: no banner, no answer stored, and the pixels told so', async () => {
    const page = await freshApp({}, PIXELS)('/signup', { headers: { 'cf-ipcountry': 'US' } });
    const html = await page.text();
    expect(hasBanner(html)).toBe(false);
    expect(setCookies(page).has('gf_consent')).toBe(false);
    const { analytics } = pageStateOf(html);
    expect(analytics.consent).toBe('not_required');
    expect(analytics.pixels.googleAds).toEqual({ id: 'AW-555', conversionLabel: 'buyLabel' });
  });
});
