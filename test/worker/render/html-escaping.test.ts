import { html } from 'hono/html';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_BRANDS } from '../../../shared/brand';
import { SCREEN_IDS } from '../../../shared/screens';
import { errorPage } from '../../../worker/render/render-page';
import { loginPageHtml } from '../../../worker/routes/app-login-page';
import { plainPageHtml } from '../../../worker/routes/plain-page';
import { QUERY_BREAKOUT, QUERY_PARAMETERS } from '../../fixtures/query-breakout';
import { freshApp } from '../fetch-app';

/** A value that breaks out of text, a double- and a single-quoted attribute if left raw. */
const HOSTILE = `"'><script>alert(1)</script>&`;
const ESCAPED = '&quot;&#39;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&amp;';

describe('HTML written outside React escapes every value it is given', () => {
  it("the error page: title, lead, action, retry link, reference and the brand's name", async () => {
    const response = errorPage({
      language: 'en',
      theme: 'geozilla',
      brand: { ...DEFAULT_BRANDS.geozilla, name: HOSTILE },
      title: HOSTILE,
      lead: HOSTILE,
      action: HOSTILE,
      retryUrl: HOSTILE,
      requestId: HOSTILE,
    });
    const text = await response.text();
    expect(text).not.toContain('<script>');
    // Six values, and the brand's name in the logo's label and the application-name.
    expect(text.split(ESCAPED)).toHaveLength(9);
  });

  it('a plain page: language, title, body values, data attributes and script URL; its CSS stays as written', () => {
    const text = plainPageHtml({
      language: HOSTILE,
      title: HOSTILE,
      body: html`<p>${HOSTILE}</p>`,
      css: 'a>b{color:red}',
      data: { 'intent-id': HOSTILE },
      script: { url: HOSTILE, nonce: 'n0nce' },
    });
    expect(text).not.toContain('<script>alert');
    expect(text.split(ESCAPED)).toHaveLength(6);
    expect(text).toContain('<style>a>b{color:red}</style>');
  });

  it("the login link's page: the token in its form and the translated texts", () => {
    const text = loginPageHtml({
      kind: 'open',
      t: (() => HOSTILE) as never,
      language: 'en',
      brand: DEFAULT_BRANDS.geozilla,
      token: HOSTILE,
      nonce: 'n0nce',
    });
    expect(text).toContain(`<input type="hidden" name="token" value="${ESCAPED}">`);
    expect(text).not.toContain('<script>alert');
    // The auto-submit script itself is ours and goes in as code.
    expect(text).toContain("document.getElementById('login')");
  });
});

/** What an HTML parser builds of a page: the elements a breakout would have made, and the h1s. */
async function parsedElements(response: Response) {
  const counts = { injected: 0, handlers: 0, headings: 0 };
  await new HTMLRewriter()
    // An inline script without the page's nonce is none of ours; img[src=x] is the payload's.
    .on('img[src="x"], script:not([nonce]):not([src])', {
      element() {
        counts.injected += 1;
      },
    })
    .on('[onerror]', {
      element() {
        counts.handlers += 1;
      },
    })
    .on('h1', {
      element() {
        counts.headings += 1;
      },
    })
    .transform(response)
    .text();
  return counts;
}

describe('every screen escapes what the query brings', () => {
  // Chromium loads one page with every payload and checks no script runs
  // (test/browser/xss.test.ts); which elements each screen's HTML makes is the worker's.
  it('the parser counts a breakout left raw', async () => {
    const raw = new Response(`<h1>Title</h1><p>${QUERY_BREAKOUT}</p>`);
    expect(await parsedElements(raw)).toEqual({ injected: 2, handlers: 1, headings: 1 });
  });

  it(`no screen makes an element or a handler of ${QUERY_BREAKOUT}`, async () => {
    vi.spyOn(console, 'log').mockImplementation(() => {});
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const fetchApp = freshApp();
    const query = new URLSearchParams(QUERY_PARAMETERS.map((name) => [name, QUERY_BREAKOUT]));
    for (const screen of [...SCREEN_IDS, 'no-such-screen']) {
      const response = await fetchApp(
        `/${screen}?${query}&${encodeURIComponent(QUERY_BREAKOUT)}=1`,
      );
      expect(response.headers.get('content-type'), screen).toMatch(/^text\/html/);
      expect(await parsedElements(response), screen).toEqual({
        injected: 0,
        handlers: 0,
        headings: 1,
      });
    }
    vi.restoreAllMocks();
  });
});
