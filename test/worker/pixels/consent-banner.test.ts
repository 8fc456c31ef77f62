import { describe, expect, it } from 'vitest';
import { freshApp, setCookies } from '../fetch-app';

const PIXELS = { META_PIXEL_ID: '1234567890', TIKTOK_PIXEL_ID: 'CTIKTOK123' };

/** The banner's island marker, if the page rendered one. */
const hasBanner = (html: string) => html.includes('data-island="ConsentBanner"');

describe('the consent banner on the page', () => {
  it('asks a visitor whose country requires consent, in their language', async () => {
    const response = await freshApp({}, PIXELS)('/signup', {
      headers: { 'cf-ipcountry': 'DE', 'accept-language': 'de-DE' },
    });
    const html = await response.text();
    expect(hasBanner(html)).toBe(true);
    expect(html).toContain('aria-label="Cookie-Auswahl"');
    expect(html).toContain('action="/consent" method="post"');
  });

  it('asks a visitor from an unknown country', async () => {
    const html = await (await freshApp({}, PIXELS)('/signup')).text();
    expect(hasBanner(html)).toBe(true);
  });

  it.each([
    ['consent is not required there', { 'cf-ipcountry': 'US' }],
    ['the visitor accepted', { 'cf-ipcountry': 'DE', cookie: 'gf_consent=granted' }],
    ['the visitor declined', { 'cf-ipcountry': 'DE', cookie: 'gf_consent=denied' }],
  ])('does not ask when %s', async (_, headers) => {
    const html = await (await freshApp({}, PIXELS)('/signup', { headers })).text();
    expect(hasBanner(html)).toBe(false);
  });

  it('does not ask when no ad tool is configured', async () => {
    const html = await (await freshApp()('/signup', { headers: { 'cf-ipcountry': 'DE' } })).text();
    expect(hasBanner(html)).toBe(false);
  });
});

describe('POST /consent: the banner answered before its script runs', () => {
  const post = (answer: string, headers: Record<string, string> = {}) =>
    freshApp({}, PIXELS)('/consent', {
      method: 'POST',
      body: new URLSearchParams({ answer }),
      headers: {
        'sec-fetch-site': 'same-origin',
        referer: 'https://funnel.test/signup?fbclid=F1',
        ...headers,
      },
    });

  it.each(['granted', 'denied'])(
    'stores %s for 365 days and goes back to the page',
    async (answer) => {
      const response = await post(answer);
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toBe('/signup?fbclid=F1');
      expect(setCookies(response).get('gf_consent')).toBe(answer);
      const cookie = response.headers.getSetCookie().find((line) => line.startsWith('gf_consent='));
      expect(cookie).toContain('Max-Age=31536000');
      expect(cookie).toContain('Path=/');
      expect(cookie).toContain('Secure');
      expect(cookie).toContain('SameSite=Lax');
    },
  );

  it('goes to the start rather than to another site', async () => {
    const response = await post('granted', { referer: 'https://evil.example/page' });
    expect(response.headers.get('location')).toBe('/');
  });

  it('refuses another site answering for the visitor, and answers it does not know', async () => {
    const forged = await post('granted', { 'sec-fetch-site': 'cross-site' });
    expect(forged.status).toBe(403);
    expect(setCookies(forged).has('gf_consent')).toBe(false);
    const odd = await post('maybe');
    expect(odd.status).toBe(400);
    expect(setCookies(odd).has('gf_consent')).toBe(false);
  });

  /** A form body sent in chunks with no Content-Length, counting how many chunks were pulled. */
  function chunkedForm(answer: string, padding: number) {
    const bytes = new TextEncoder().encode(`answer=${answer}&pad=${'x'.repeat(padding)}`);
    const CHUNK = 256;
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const start = pulled * CHUNK;
        if (start >= bytes.length) return controller.close();
        pulled += 1;
        controller.enqueue(bytes.slice(start, start + CHUNK));
      },
    });
    const request = new Request('https://funnel.test/consent', {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'sec-fetch-site': 'same-origin',
      },
      body,
    });
    return { request, pulled: () => pulled };
  }

  it('refuses a chunked body over 1 KB with 413, reading no further than the limit', async () => {
    const { request, pulled } = chunkedForm('granted', 64 * 1024);
    expect(request.headers.get('content-length')).toBeNull();
    const response = await freshApp({}, PIXELS)('/consent', request);
    expect(response.status).toBe(413);
    expect(await response.text()).toBe('Payload too large\n');
    expect(setCookies(response).has('gf_consent')).toBe(false);
    // 1 KB is 4 chunks of 256 bytes: it stopped at the fifth, not after 64 KB.
    expect(pulled()).toBeLessThanOrEqual(6);
  });

  it('takes a chunked body within the limit', async () => {
    const { request } = chunkedForm('denied', 100);
    const response = await freshApp({}, PIXELS)('/consent', request);
    expect(response.status).toBe(303);
    expect(setCookies(response).get('gf_consent')).toBe('denied');
  });

  it('then the next page sets the ad cookies and asks no more', async () => {
    const fetchApp = freshApp({}, PIXELS);
    const headers = { 'cf-ipcountry': 'DE', cookie: 'gf_consent=granted' };
    const next = await fetchApp('/signup', { headers });
    expect(hasBanner(await next.text())).toBe(false);
    expect([...setCookies(next).keys()]).toEqual(expect.arrayContaining(['_fbp', '_ttp']));
  });
});
