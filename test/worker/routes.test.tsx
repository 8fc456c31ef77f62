import { reset } from 'cloudflare:test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SCREENS, type ScreenDefinition } from '../../screens/registry';
import { SCREEN_IDS } from '../../shared/screens';
import { freshApp, ORIGIN, putConfig } from './fetch-app';
import { afterPaintCode, pageStateOf } from './page-html';

afterEach(async () => {
  await reset();
  vi.restoreAllMocks();
});

/** A screen that fails while rendering, as a bug would. */
function Broken(): never {
  throw new Error('boom');
}

describe('screen routes', () => {
  it.each(SCREEN_IDS)(
    '/%s answers 200 with its one heading, its one Continue or Pay button and the page script',
    async (id) => {
      const res = await freshApp()(`/${id}?utm_source=test`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const html = await res.text();
      expect(html).toMatch(/^<!doctype html><html lang="en" dir="ltr" data-theme="geozilla">/);
      // Words, or spans of words (searching's title while locating and once done).
      expect(html).toMatch(/<h1 id="screen-title">(?:[^<]+|<span[^>]*>[^<]+<\/span>)+<\/h1>/);
      // One heading and one call to action: what the page shows once its islands have hydrated
      // too, since hydration keeps the server's markup (the screen walk fails a page whose
      // hydration did not, test/browser/every-screen.test.ts).
      expect(html.match(/<h1[\s>]/g)).toHaveLength(1);
      expect(html.match(/ id="continue-button"/g)).toHaveLength(1);
      if (html.includes('data-island="CheckoutPayment"')) {
        // A screen that takes the payment: its call to action (Pay, or the paywall's button that
        // opens the form) runs in the page, since the card fields need JavaScript.
        expect(html).toMatch(/<button id="continue-button" type="(?:button|submit)"/);
      } else {
        expect(html).toContain('<button id="continue-button" type="submit"');
        expect(html).toContain(`action="/${id}?utm_source=test"`);
      }
      expect(html).toContain('<header class="top-bar">');
      // The features screen pins its Continue (SPEC.md §2 Layout: a bottom button).
      expect(html).toContain(
        (SCREENS[id] as ScreenDefinition).bottomButton
          ? '<main class="page page--bottom-button">'
          : '<main class="page">',
      );
      // One module script, which imports boot (and the islands) once the page has painted:
      // nothing in the markup asks for a script before (that Chromium then fetches none before
      // its first paint is test/browser/page-behaviour.test.ts's, on a checkout).
      expect(html).toMatch(/<script type="module" nonce="[^"]+">[^<]*import\("\/assets\/boot-/);
      expect(html.match(/<script[\s>]/g)).toHaveLength(1);
      expect(html).not.toMatch(/<link[^>]+rel="(?:modulepreload|preload|prefetch)"/);
      expect(html.endsWith('</body></html>')).toBe(true);
    },
  );

  it('/ shows the first screen of the visitor flow and keeps the query string', async () => {
    await putConfig('split', {
      version: 1,
      defaultVariant: 'lp17',
      variants: { lp17: { weight: 1, flow: 'lp17ch17pr5' } },
    });
    const html = await (await freshApp()('/?gclid=abc&x=1')).text();
    expect(html).toContain('Locate any phone, with consent');
    expect(html).toContain('action="/one_pager_all?gclid=abc&amp;x=1"');
    expect(pageStateOf(html).next).toBe('/searching_2?gclid=abc&x=1');
  });

  it('names the next screen of the flow for the script, which prefetches it once painted', async () => {
    const res = await freshApp()('/searching?fbclid=f1');
    const html = await res.text();
    expect(html).toContain('"next":"/signup?fbclid=f1"');
    // Nothing in the head asks for another file: a request begun before the first paint holds
    // it back on a slow phone.
    expect(html.slice(0, html.indexOf('</head>'))).not.toMatch(/speculationrules|<link rel="pre/);
    const nonce = /<script type="module" nonce="([^"]+)"/.exec(html)?.[1];
    expect(res.headers.get('content-security-policy')).toContain(`'nonce-${nonce}'`);
    expect(afterPaintCode(html)).toContain(
      `["script",{"type":"speculationrules","nonce":"${nonce}"},{"prefetch":[{"source":"list","urls":["/signup?fbclid=f1"]}]}]`,
    );
  });

  it('names the screen after a sign-up but does not prefetch it: the sign-in changes that page', async () => {
    const html = await (await freshApp()('/signup?fbclid=f1')).text();
    expect(html).toContain('"next":"/checkout_v3_tr?fbclid=f1"');
    expect(afterPaintCode(html)).not.toContain('speculationrules');
  });

  it("prefetches the next screen's images once painted", async () => {
    const fetchApp = freshApp({
      screens: { ...SCREENS, signup: { ...SCREENS.signup, images: ['/img/a.png', '/img/b.svg'] } },
    });
    const html = await (await fetchApp('/searching')).text();
    expect(html.slice(0, html.indexOf('</head>'))).not.toContain('as="image"');
    expect(afterPaintCode(html)).toContain(
      '["link",{"rel":"prefetch","as":"image","href":"/img/a.png"}],["link",{"rel":"prefetch","as":"image","href":"/img/b.svg"}]',
    );
    expect(await (await fetchApp('/success')).text()).not.toContain('"as":"image"');
  });

  it('gives the last screen of a flow no next screen and no prefetch', async () => {
    const html = await (await freshApp()('/success')).text();
    expect(html).not.toContain('data-next=');
    expect(html).not.toContain('speculationrules');
    expect(html).toContain('"next":null');
  });

  it('a plain form post (no JavaScript) moves to the next screen with the query kept', async () => {
    const res = await freshApp()('/searching?a=1&b=2', { method: 'POST', redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/signup?a=1&b=2');
  });

  it('a post from a screen outside the flow continues to its registry default', async () => {
    const res = await freshApp()('/upsell_guide', { method: 'POST', redirect: 'manual' });
    expect(res.headers.get('location')).toBe(`/${SCREENS.upsell_guide.offFlowNext}`);
  });

  it('a post from the last screen stays on it', async () => {
    const res = await freshApp()('/success?q=1', { method: 'POST', redirect: 'manual' });
    expect(res.headers.get('location')).toBe('/success?q=1');
  });

  it('an unknown path gets the fallback screen with status 404', async () => {
    const res = await freshApp()('/no-such-screen?a=1');
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).toContain('Page not found');
    expect(html).toContain('href="/?a=1"');
    const post = await freshApp()('/no-such-screen', { method: 'POST' });
    expect(post.status).toBe(404);
  });

  it('writes the icon into the head: a page asks for no icon file while it loads', async () => {
    for (const path of ['/one_pager', '/signup', '/no-such-screen']) {
      const html = await (await freshApp()(path)).text();
      const href = /<link rel="icon" href="([^"]+)" type="image\/svg\+xml">/.exec(html)?.[1];
      expect(href, path).toMatch(/^data:image\/svg\+xml,/);
      const svg = decodeURIComponent((href ?? '').slice('data:image/svg+xml,'.length));
      expect(svg, path).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*>.*<\/svg>$/);
      expect(html, path).not.toContain('favicon');
    }
  });

  it('streams: the head with its critical CSS arrives before the rest of the page', async () => {
    const res = await freshApp()('/one_pager');
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain('<style>:root{');
    expect(first).not.toContain('</html>');
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      rest += new TextDecoder().decode(chunk.value);
    }
    expect(rest).toContain('</html>');
  });

  it('an exception in a screen answers an error page with status 500 and logs it', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const logs = vi.spyOn(console, 'log').mockImplementation(() => {});
    const fetchApp = freshApp({
      screens: { ...SCREENS, signup: { Component: Broken, offFlowNext: null } },
    });
    const res = await fetchApp('/signup?x=1');
    expect(res.status).toBe(500);
    const html = await res.text();
    expect(html).toContain('<h1>Unexpected Application Error!</h1>');
    expect(html).toContain('href="/signup?x=1"');
    const errorLines = errors.mock.calls.map(([line]) => JSON.parse(String(line)));
    expect(errorLines).toContainEqual(
      expect.objectContaining({
        error: 'unhandled_exception',
        path: '/signup',
        detail: 'Error: boom',
      }),
    );
    const requestLine = logs.mock.calls.map(([line]) => JSON.parse(String(line))).at(-1);
    expect(requestLine).toMatchObject({
      status: 500,
      error: 'unhandled_exception',
      path: '/signup',
    });
  });

  it('the island chunks a page imports exist in the static assets, with long cache headers', async () => {
    const { env } = await import('cloudflare:workers');
    const html = await (await freshApp()('/one_pager')).text();
    const urls = [...html.matchAll(/"(\/assets\/[\w-]+\.js)"/g)].map((m) => m[1]!);
    expect(urls.length).toBeGreaterThanOrEqual(3);
    for (const url of urls) {
      const res = await env.ASSETS!.fetch(`${ORIGIN}${url}`);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('cache-control'), url).toBe('public, max-age=31536000, immutable');
    }
    const robots = await env.ASSETS!.fetch(`${ORIGIN}/robots.txt`);
    expect(await robots.text()).toContain('User-agent: *');
  });
});
