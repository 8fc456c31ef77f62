import { Hono } from 'hono';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { previewRoutes } from '../../../worker/console/preview-route';
import { PREVIEW_TTL_SECONDS, signPreview } from '../../../worker/preview/preview';
import type { ConsoleEnv } from '../../../worker/request/envs';
import { previewHolder } from '../../fixtures/preview-holder';
import { unsigned } from '../../fixtures/signed-cookies';
import { anEvent, NOW } from '../collector/fixtures';
import { recordingQueue } from '../collector/recording-queue';
import { freshApp, ORIGIN, putConfig, setCookies } from '../fetch-app';
import { pageStateOf } from '../page-html';
import { checkoutVisitor } from '../purchases/checkout-visitor';
import { CARDS } from '../test-gateway/gateway-client';

/**
 * A marketer's preview of a variant: the console's link sets a signed cookie and opens the
 * variant's first screen; every page then shows that variant's flow with a preview bar, assigns
 * nothing, and sends nothing to analytics or the ad networks.
 */

/** Everyone gets `default`; the previewed variants are paused, so only a preview shows them. */
const SPLIT = {
  version: 'preview-1',
  defaultVariant: 'default',
  variants: {
    default: { weight: 100 },
    lp17: { weight: 0, flow: 'lp17ch17pr5' },
    'lp11ch8/vc': { weight: 0 },
  },
};

const KEY = 'preview-key-of-this-test';
/** A Meta pixel and a German visitor: a normal page loads the pixel's settings and asks consent. */
const PIXEL = { META_PIXEL_ID: '1234567890' };
const GERMAN = { 'cf-ipcountry': 'DE' };

const DEFAULT_HEADING = 'Find out where your loved ones are';
const LP17_HEADING = 'Locate any phone, with consent';

function heading(html: string): string | undefined {
  return html.match(/<h1 id="screen-title">([^<]+)<\/h1>/)?.[1];
}

/** The marketer's browser: its visitor id, which the preview cookie is signed for. */
const MARKETER = '3c9f1e70-8a2b-4d15-b6e4-0f7a2c5d9e81';
/** Another visitor's browser, into which the marketer's cookie is copied. */
const STRANGER = 'a4e8d2c6-1f3b-4a79-8e05-c7b2d9f1e364';

/** The preview cookie's value, signed with KEY for MARKETER, expiring `ttl` s after `nowMs`. */
function previewToken(variant: string, nowMs = Date.now(), ttl = PREVIEW_TTL_SECONDS) {
  return signPreview(KEY, variant, Math.floor(nowMs / 1000) + ttl, previewHolder(MARKETER));
}

/** The marketer's browser's cookies: its visitor id and a preview cookie as previewToken. */
async function previewCookie(variant: string, nowMs = Date.now(), ttl = PREVIEW_TTL_SECONDS) {
  return `userUuid=${MARKETER}; gf_preview=${await previewToken(variant, nowMs, ttl)}`;
}

let logs: ReturnType<typeof vi.spyOn>;
function logLines(): Record<string, unknown>[] {
  return logs.mock.calls.map(([line]: unknown[]) => JSON.parse(String(line)));
}

beforeAll(() => putConfig('split', SPLIT));
beforeEach(() => {
  logs = vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

describe('the preview link GET /console/preview/{variant}', () => {
  it('sets the signed preview cookie for an hour and opens the first screen, assigning nothing', async () => {
    const res = await freshApp({ random: () => 0 })('/console/preview/lp17', {
      headers: { cookie: `userUuid=${MARKETER}` },
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const cookies = res.headers.getSetCookie();
    // The preview alone: the browser keeps its visitor id, which the cookie is signed for.
    expect(cookies).toHaveLength(1);
    const preview = cookies.find((cookie) => cookie.startsWith('gf_preview='));
    expect(preview).toMatch(
      /^gf_preview=[\w-]+\.\d+\.[\w-]+; Max-Age=3600; Path=\/; HttpOnly; Secure; SameSite=Lax$/,
    );
    expect(setCookies(res).has('gf_variant')).toBe(false);
    expect(logLines().find((line) => line.path === '/console/preview/lp17')).toMatchObject({
      status: 303,
      preview: 'lp17',
      variant: null,
    });
  });

  it('gives a browser that never opened the funnel a visitor id, and binds the preview to it', async () => {
    const fetchApp = freshApp({ random: () => 0 });
    const link = await fetchApp('/console/preview/lp17');
    const visitorId = setCookies(link).get('userUuid');
    expect(visitorId).toMatch(/^[0-9a-f-]{36}$/);
    expect(link.headers.getSetCookie()).toContainEqual(
      expect.stringMatching(
        /^userUuid=[0-9a-f-]{36}; Max-Age=31536000; Path=\/; Secure; SameSite=Lax$/,
      ),
    );
    // The page after the redirect, with both cookies the link set, is the preview.
    const page = await fetchApp('/', {
      headers: {
        cookie: `userUuid=${visitorId}; gf_preview=${setCookies(link).get('gf_preview')}`,
      },
    });
    expect(heading(await page.text())).toBe(LP17_HEADING);
    expect(setCookies(page).has('userUuid')).toBe(false);
  });

  it('keeps the link’s query, so a theme or language can be previewed', async () => {
    const res = await freshApp()('/console/preview/lp17?theme=fl&utm_source=console');
    expect(res.headers.get('location')).toBe('/?theme=fl&utm_source=console');
  });

  it.each([
    ['as is', '/console/preview/lp11ch8/vc'],
    ['encoded, as the console links it', '/console/preview/lp11ch8%2Fvc'],
  ])('takes a variant key with a slash %s', async (_, path) => {
    const fetchApp = freshApp();
    const link = await fetchApp(path, { headers: { cookie: `userUuid=${MARKETER}` } });
    expect(link.status).toBe(303);
    const page = await fetchApp('/', {
      headers: { cookie: `userUuid=${MARKETER}; gf_preview=${setCookies(link).get('gf_preview')}` },
    });
    expect(pageStateOf(await page.text())).toMatchObject({
      variant: 'lp11ch8/vc',
      flow: 'lp11ch8_vc',
    });
  });

  it('answers 404 unknown_variant for a variant the split does not have, and sets nothing', async () => {
    const res = await freshApp()('/console/preview/nope');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ ok: false, error: 'unknown_variant' });
    expect(setCookies(res).has('gf_preview')).toBe(false);
  });

  it('GET /console/preview?end=1 clears the cookie and goes back to the console', async () => {
    const res = await freshApp()('/console/preview?end=1', {
      headers: { cookie: await previewCookie('lp17') },
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/console');
    expect(res.headers.getSetCookie()).toContainEqual(
      expect.stringMatching(/^gf_preview=; Max-Age=0; Path=\//),
    );
  });
});

describe('the preview link outside development', () => {
  /** The route alone, as the console mounts it after its Access check, over SPLIT. */
  function previewApp(bindings: Record<string, string>) {
    const app = new Hono<ConsoleEnv>();
    app.use(async (c, next) => {
      c.set('config', { split: SPLIT, flows: { version: '1', flows: {} }, version: 'x' } as never);
      await next();
    });
    app.route('/console/preview', previewRoutes());
    return (path: string) => app.request(path, {}, bindings);
  }

  it('answers 503 console_not_configured without CONSOLE_PREVIEW_KEY, and sets nothing', async () => {
    const res = await previewApp({ ENVIRONMENT: 'production' })('/console/preview/lp17');
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ ok: false, error: 'console_not_configured' });
    expect(res.headers.getSetCookie()).toEqual([]);
  });

  it('signs with CONSOLE_PREVIEW_KEY when it is set', async () => {
    const res = await previewApp({ ENVIRONMENT: 'production', CONSOLE_PREVIEW_KEY: KEY })(
      '/console/preview/lp17',
    );
    expect(res.status).toBe(303);
    expect(res.headers.getSetCookie()).toContainEqual(expect.stringMatching(/^gf_preview=/));
  });
});

describe('a page with the preview cookie', () => {
  it('shows the variant’s first screen with the preview bar, no ad tool and no tracker', async () => {
    const fetchApp = freshApp(
      { random: () => 0 },
      { ...PIXEL, CLARITY_PROJECT_ID: 'abcde12345', CONSOLE_PREVIEW_KEY: KEY },
    );
    const normal = await fetchApp('/', { headers: GERMAN });
    const normalHtml = await normal.text();
    // What a preview leaves out, present on the same deployment's normal page.
    expect(normalHtml).toContain('data-island="ConsentBanner"');
    expect(pageStateOf(normalHtml).analytics).toMatchObject({
      collector: '/e',
      pixels: { meta: '1234567890', clarity: 'abcde12345' },
      heatmap: { clarity: 'abcde12345' },
    });

    const res = await fetchApp('/', {
      headers: { ...GERMAN, cookie: await previewCookie('lp17') },
    });
    const html = await res.text();
    expect(heading(html)).toBe(LP17_HEADING);
    expect(html).toMatch(
      /<aside class="preview-bar" aria-label="Preview" lang="en" dir="ltr">.*Preview of variant <strong>lp17<\/strong> — not counted, no ads<\/p><a class="preview-bar__end" href="\/console\/preview\?end=1">End preview<\/a><\/aside>/,
    );
    expect(html).not.toContain('data-island="ConsentBanner"');
    const state = pageStateOf(html);
    expect(state).toMatchObject({ screen: 'one_pager_all', variant: 'lp17', flow: 'lp17ch17pr5' });
    expect(state.analytics.collector).toBeNull();
    expect(state.analytics.pixels).toEqual({
      meta: null,
      tiktok: null,
      googleAds: null,
      appsflyer: null,
      clarity: null,
    });
    // A preview is no visit: no heatmap records the marketer.
    expect(state.analytics.heatmap).toBeUndefined();
    expect(setCookies(res).has('gf_variant')).toBe(false);
    expect(logLines().at(-1)).toMatchObject({ path: '/', variant: 'lp17', preview: true });
  });

  it('sets no first-party ad cookie, even arriving from an ad click', async () => {
    const fetchApp = freshApp({}, { ...PIXEL, CONSOLE_PREVIEW_KEY: KEY });
    const AD_COOKIES = ['_fbc', '_fbp', '_ttp', '_gf_ttclid'];
    // A US visitor (no consent asked) from an ad: a normal page sets all four.
    const fromAd = '/?fbclid=IwAR2F4-dbP0l7Mn&ttclid=E.C.P.x';
    const normal = await fetchApp(fromAd, { headers: { 'cf-ipcountry': 'US' } });
    expect([...setCookies(normal).keys()]).toEqual(expect.arrayContaining(AD_COOKIES));

    const res = await fetchApp(fromAd, {
      headers: { 'cf-ipcountry': 'US', cookie: await previewCookie('lp17') },
    });
    expect(heading(await res.text())).toBe(LP17_HEADING);
    expect([...setCookies(res).keys()].filter((name) => AD_COOKIES.includes(name))).toEqual([]);
  });

  it('wins over the visitor’s own variant and leaves its cookie alone', async () => {
    const res = await freshApp({}, { CONSOLE_PREVIEW_KEY: KEY })('/', {
      headers: { cookie: `gf_variant=default; ${await previewCookie('lp17')}` },
    });
    expect(heading(await res.text())).toBe(LP17_HEADING);
    expect(
      res.headers.getSetCookie().filter((cookie) => /^gf_(variant|preview)=/.test(cookie)),
    ).toEqual([]);
  });

  it('walks the variant’s flow: Continue leads to its next screen', async () => {
    const fetchApp = freshApp({}, { CONSOLE_PREVIEW_KEY: KEY });
    // The signup screen's email form, posted without script: the account is made, then on.
    const continueFromSignup = async (cookie: string, email: string) => {
      const posted = await fetchApp('/signup', {
        method: 'POST',
        headers: { cookie, origin: ORIGIN, 'sec-fetch-site': 'same-origin' },
        body: new URLSearchParams({ email }),
      });
      return posted.headers.get('location');
    };
    expect(await continueFromSignup('gf_variant=default', 'visitor@example.com')).toBe(
      '/checkout_v3_tr',
    );
    expect(
      await continueFromSignup(await previewCookie('lp11ch8/vc'), 'marketer@example.com'),
    ).toBe('/checkout_v3_pp');
  });

  it.each([
    [
      'forged',
      async () =>
        `userUuid=${MARKETER}; gf_preview=${await signPreview('not-our-key', 'lp17', Date.now() / 1000 + 600, previewHolder(MARKETER))}`,
      'bad_signature',
    ],
    ['expired', () => previewCookie('lp17', Date.now(), -1), 'expired'],
    [
      'tampered with',
      async () =>
        (await previewCookie('lp17')).replace(/\.(\d+)\./, (_, s) => `.${Number(s) + 1}.`),
      'bad_signature',
    ],
    ['not a token', async () => `userUuid=${MARKETER}; gf_preview=lp17`, 'malformed'],
    ['for a variant that is gone', () => previewCookie('lp99'), 'unknown_variant'],
  ])(
    'is ignored when %s: the normal draw, one warning, the cookie cleared',
    async (_, cookie, reason) => {
      const res = await freshApp({ random: () => 0 }, { CONSOLE_PREVIEW_KEY: KEY })('/', {
        headers: { cookie: await cookie() },
      });
      const html = await res.text();
      expect(heading(html)).toBe(DEFAULT_HEADING);
      expect(html).not.toContain('preview-bar');
      expect(pageStateOf(html).analytics.collector).toBe('/e');
      expect(unsigned(setCookies(res).get('gf_variant'))).toBe('default');
      expect(res.headers.getSetCookie()).toContainEqual(
        expect.stringMatching(/^gf_preview=; Max-Age=0/),
      );
      const warnings = logLines().filter((line) => line.warning === 'preview_cookie_ignored');
      expect(warnings).toEqual([expect.objectContaining({ level: 'warn', reason })]);
    },
  );
});

describe('the preview cookie copied into another browser', () => {
  it.each([
    ['another visitor id', `userUuid=${STRANGER}; `, 'bad_signature'],
    ['no visitor id', '', 'no_visitor_id'],
  ])(
    'previews nothing in a browser with %s: its own variant, route and first touch, one warning',
    async (_, visitorCookie, reason) => {
      const res = await freshApp({ random: () => 0 }, { CONSOLE_PREVIEW_KEY: KEY })('/', {
        headers: { cookie: `${visitorCookie}gf_preview=${await previewToken('lp17')}` },
      });
      const html = await res.text();
      expect(heading(html)).toBe(DEFAULT_HEADING);
      expect(html).not.toContain('preview-bar');
      expect(pageStateOf(html).analytics.collector).toBe('/e');
      // Drawn, pinned and kept like anyone: the split, the route and the first touch.
      const written = setCookies(res);
      expect(unsigned(written.get('gf_variant'))).toBe('default');
      expect(written.has('gf_route')).toBe(true);
      expect(written.has('gf_touch')).toBe(true);
      expect(res.headers.getSetCookie()).toContainEqual(
        expect.stringMatching(/^gf_preview=; Max-Age=0/),
      );
      const warnings = logLines().filter((line) => line.warning === 'preview_cookie_ignored');
      expect(warnings).toEqual([expect.objectContaining({ level: 'warn', reason })]);
      expect(logLines().at(-1)).not.toHaveProperty('preview');
    },
  );

  it('while the browser that opened the link still previews with it', async () => {
    const fetchApp = freshApp({ random: () => 0 }, { CONSOLE_PREVIEW_KEY: KEY });
    const link = await fetchApp('/console/preview/lp17', {
      headers: { cookie: `userUuid=${MARKETER}` },
    });
    const token = setCookies(link).get('gf_preview');
    const own = await fetchApp('/', {
      headers: { cookie: `userUuid=${MARKETER}; gf_preview=${token}` },
    });
    expect(heading(await own.text())).toBe(LP17_HEADING);
    const copied = await fetchApp('/', {
      headers: { cookie: `userUuid=${STRANGER}; gf_preview=${token}` },
    });
    expect(heading(await copied.text())).toBe(DEFAULT_HEADING);
  });
});

describe('POST /e with the preview cookie', () => {
  const SAME_ORIGIN = {
    'sec-fetch-site': 'same-origin',
    origin: ORIGIN,
    'content-type': 'application/json',
  };

  it('answers as if taken and keeps nothing', async () => {
    const { queue, sent } = recordingQueue();
    const fetchApp = freshApp(
      { now: () => NOW },
      { EVENTS_QUEUE: queue, CONSOLE_PREVIEW_KEY: KEY },
    );
    const body = JSON.stringify({ events: [anEvent(), anEvent()] });
    const res = await fetchApp('/e', {
      method: 'POST',
      headers: { ...SAME_ORIGIN, cookie: await previewCookie('lp17', NOW) },
      body,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ accepted: 0, duplicates: 0 });
    expect(sent).toEqual([]);
    expect(logLines().find((line) => line.path === '/e')).toMatchObject({
      events: 2,
      preview: true,
    });
    // Not remembered either: the same events from a visit count as new.
    const visit = await fetchApp('/e', { method: 'POST', headers: SAME_ORIGIN, body });
    expect(await visit.json()).toEqual({ accepted: 2, duplicates: 0 });
  });

  it('takes the batch when the cookie is forged', async () => {
    const { queue, sent } = recordingQueue();
    const fetchApp = freshApp(
      { now: () => NOW },
      { EVENTS_QUEUE: queue, CONSOLE_PREVIEW_KEY: KEY },
    );
    const forged = await signPreview(
      'not-our-key',
      'lp17',
      NOW / 1000 + 600,
      previewHolder(MARKETER),
    );
    const res = await fetchApp('/e', {
      method: 'POST',
      headers: { ...SAME_ORIGIN, cookie: `userUuid=${MARKETER}; gf_preview=${forged}` },
      body: JSON.stringify({ events: [anEvent()] }),
    });
    expect(await res.json()).toEqual({ accepted: 1, duplicates: 0 });
    expect(sent).toHaveLength(1);
  });

  it.each([
    ['another visitor id', `userUuid=${STRANGER}; `],
    ['no visitor id', ''],
  ])(
    'counts the batch of a browser with %s that the cookie was copied into',
    async (_, visitorCookie) => {
      const { queue, sent } = recordingQueue();
      const fetchApp = freshApp(
        { now: () => NOW },
        { EVENTS_QUEUE: queue, CONSOLE_PREVIEW_KEY: KEY },
      );
      const res = await fetchApp('/e', {
        method: 'POST',
        headers: {
          ...SAME_ORIGIN,
          cookie: `${visitorCookie}gf_preview=${await previewToken('lp17', NOW)}`,
        },
        body: JSON.stringify({ events: [anEvent(), anEvent()] }),
      });
      expect(await res.json()).toEqual({ accepted: 2, duplicates: 0 });
      expect(sent).toHaveLength(1);
      expect(logLines().find((line) => line.path === '/e')).not.toHaveProperty('preview');
    },
  );
});

describe('a purchase during a preview', () => {
  it('is not recorded as a verified purchase, so no ad network or revenue count hears of it', async () => {
    const { queue, sent } = recordingQueue();
    const visitor = checkoutVisitor({ queue });
    expect((await visitor.call('/console/preview/default')).status).toBe(303);
    await visitor.signUp();
    const started = await visitor.subscribe(await visitor.tokenize(CARDS.succeeds));
    const [result] = await visitor.poll(started);
    expect(result?.status).toBe('succeeded');
    expect(sent).toEqual([]);
    expect(logLines()).toContainEqual(
      expect.objectContaining({
        purchase: 'preview_not_recorded',
        sub_id: result?.subscription_id,
      }),
    );
  });
});
