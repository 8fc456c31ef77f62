import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SMOKE_AGENT } from '../../../shared/analytics/smoke';
import { signPreview } from '../../../worker/preview/preview';
import { previewHolder } from '../../fixtures/preview-holder';
import { freshApp, ORIGIN, putConfig } from '../fetch-app';
import {
  aBrowser,
  CHROME,
  emptyExperiments,
  exposureOf,
  exposureRows,
  shardRows,
  TWO_WAY,
} from './experiment-fixtures';

/**
 * Exposure, counted by the server: a visitor is exposed on the funnel screen where
 * their variant is drawn, once, in the phase of that draw; previews, `skip_split`, speculative
 * fetches, the API and the collector never expose anyone, and known bots are counted apart.
 */

const NOW = Date.UTC(2026, 10, 22, 8, 0, 0);
const PREVIEW_KEY = 'preview-key-of-this-test';
/** The marketer's browser, which opened the preview, and another visitor's. */
const MARKETER = '5b2e7c91-0d4a-4f63-9a18-e3c6b7d2f405';
const STRANGER = 'c81f3a6d-7e25-4b90-b4d7-19a0e5c2f863';

/** A browser's cookies with a preview of lp17 opened in it, as `visitorId`. */
async function previewJar(visitorId: string) {
  const expiry = Math.floor(Date.now() / 1000) + 600;
  return new Map([
    ['userUuid', visitorId],
    ['gf_preview', await signPreview(PREVIEW_KEY, 'lp17', expiry, previewHolder(visitorId))],
  ]);
}

let logs: ReturnType<typeof vi.spyOn>;
let errors: ReturnType<typeof vi.spyOn>;
const parsed = (spy: ReturnType<typeof vi.spyOn>): Record<string, unknown>[] =>
  spy.mock.calls.map(([line]: unknown[]) => JSON.parse(String(line)));

beforeEach(async () => {
  logs = vi.spyOn(console, 'log').mockImplementation(() => {});
  errors = vi.spyOn(console, 'error').mockImplementation(() => {});
  await putConfig('split', TWO_WAY);
  await emptyExperiments();
});
afterEach(() => vi.restoreAllMocks());

/** The app drawing `default` (random 0.2) or `lp17` (0.7), with a fixed clock. */
function app(random = 0.2, bindings: Partial<Cloudflare.Env> = {}) {
  return freshApp({ random: () => random, now: () => NOW }, bindings);
}

/** Each arm's exposures and bots, every shard's added. */
async function botCounts() {
  const rows = await shardRows<{ phase: number; variant: string; exposed: number; bots: number }>(
    "SELECT phase, variant, exposed, bots FROM xp_arms WHERE experiment = 'split'",
  );
  const arms = new Map<string, { phase: number; variant: string; exposed: number; bots: number }>();
  for (const row of rows) {
    const key = `${row.phase}/${row.variant}`;
    const arm = arms.get(key) ?? { phase: row.phase, variant: row.variant, exposed: 0, bots: 0 };
    arms.set(key, { ...arm, exposed: arm.exposed + row.exposed, bots: arm.bots + row.bots });
  }
  return [...arms.values()].sort(
    (a, b) => a.phase - b.phase || (a.variant < b.variant ? -1 : a.variant > b.variant ? 1 : 0),
  );
}

describe('a visitor is exposed once', () => {
  it('on the first screen that draws their variant, with the phase and config that drew it', async () => {
    const browser = aBrowser(app(0.7));
    expect((await browser.get('/')).status).toBe(200);
    expect(browser.variant()).toBe('lp17');
    expect(await exposureRows()).toEqual([
      {
        visitor_id: browser.visitorId(),
        phase: 1,
        variant: 'lp17',
        config_version: 'v1+builtin',
        exposed_at: NOW,
        reached_lookup: 0,
        signed_up: 0,
        reached_checkout: 0,
        purchased: 0,
        route: 'default',
        source: 'direct',
      },
    ]);
    expect(await botCounts()).toEqual([{ phase: 1, variant: 'lp17', exposed: 1, bots: 0 }]);
    expect(parsed(logs).find((line) => line.path === '/')).toMatchObject({
      exposure: 'exposed',
      variant: 'lp17',
    });
  });

  it('however often they reload, move on, or open a second tab', async () => {
    const fetchApp = app();
    const tab = aBrowser(fetchApp);
    await tab.get('/');
    await tab.get('/');
    await tab.get('/searching');
    await tab.get('/signup?fbclid=f1');
    const secondTab = aBrowser(fetchApp, new Map(tab.cookies));
    await secondTab.get('/');
    await secondTab.get('/checkout_v3_tr');
    expect(await exposureRows()).toEqual([
      expect.objectContaining({ visitor_id: tab.visitorId(), variant: 'default' }),
    ]);
    expect(await botCounts()).toEqual([{ phase: 1, variant: 'default', exposed: 1, bots: 0 }]);
  });

  it('in the phase of the draw: a visitor returning in a later phase is not exposed again', async () => {
    const returning = aBrowser(app(0.7));
    await returning.get('/');
    // A publish that changes the shares starts phase 2 (worker/experiments/config/phases.ts).
    await putConfig('split', {
      ...TWO_WAY,
      version: 'v2',
      phase: 2,
      variants: { default: { weight: 80 }, lp17: { weight: 20, flow: 'lp17ch17pr5' } },
    });
    await returning.get('/');
    await returning.get('/searching');
    const newcomer = aBrowser(app(0.9));
    await newcomer.get('/');

    expect(await exposureRows()).toEqual([
      expect.objectContaining({ visitor_id: returning.visitorId(), phase: 1, variant: 'lp17' }),
      expect.objectContaining({
        visitor_id: newcomer.visitorId(),
        phase: 2,
        variant: 'lp17',
        config_version: 'v2+builtin',
      }),
    ]);
    expect(await botCounts()).toEqual([
      { phase: 1, variant: 'lp17', exposed: 1, bots: 0 },
      { phase: 2, variant: 'lp17', exposed: 1, bots: 0 },
    ]);
  });

  it('when their browser keeps no cookies: on the first page, not again on each page after it', async () => {
    const fetchApp = app();
    // No jar kept between pages: every request arrives without userUuid or gf_variant.
    const page = (path: string, site: string) =>
      aBrowser(fetchApp).get(path, { 'sec-fetch-site': site });
    const first = aBrowser(fetchApp);
    expect((await first.get('/', { 'sec-fetch-site': 'none' })).status).toBe(200);
    for (const path of ['/searching', '/signup', '/checkout_v3_tr']) {
      expect((await page(path, 'same-origin')).status).toBe(200);
    }
    expect(await exposureRows()).toEqual([
      expect.objectContaining({ visitor_id: first.visitorId(), variant: 'default' }),
    ]);

    // Newcomers from another site, or from a browser that sends no Sec-Fetch-Site, count.
    await page('/', 'cross-site');
    await aBrowser(fetchApp).get('/searching');
    expect(await exposureRows()).toHaveLength(3);
    expect(await botCounts()).toEqual([{ phase: 1, variant: 'default', exposed: 3, bots: 0 }]);
  });

  it('the split without a phase (never published from the console) is phase 1', async () => {
    const { phase: _, ...unphased } = TWO_WAY;
    await putConfig('split', unphased);
    const browser = aBrowser(app());
    await browser.get('/');
    expect(await exposureOf(browser.visitorId())).toMatchObject({ phase: 1 });
  });
});

describe('no exposure', () => {
  it('from the API, the collector, a form post or a page that is not a screen', async () => {
    const fetchApp = app();
    const exposed = aBrowser(fetchApp);
    await exposed.get('/');
    const sameOrigin = { origin: ORIGIN, 'sec-fetch-site': 'same-origin' };
    await exposed.get('/api/cf-country');
    await exposed.request('/e', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...sameOrigin },
      body: JSON.stringify({ events: [] }),
    });
    expect(await exposureRows()).toHaveLength(1);

    // Newcomers whose first request is not a screen shown to them.
    expect((await aBrowser(fetchApp).get('/api/cf-country')).status).toBe(200);
    const poster = aBrowser(fetchApp);
    const phoneForm = await poster.request('/one_pager', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...sameOrigin },
      body: new URLSearchParams({ phone: '07400 123456', country: 'GB' }).toString(),
    });
    expect(phoneForm.status).toBe(303);
    expect((await aBrowser(fetchApp).get('/wp-login.php')).status).toBe(404);
    expect((await aBrowser(fetchApp).request('/', { method: 'HEAD' })).status).toBe(200);
    expect(await exposureRows()).toHaveLength(1);
  });

  it('from a speculative prefetch or prerender', async () => {
    const fetchApp = app();
    const speculative: Record<string, string>[] = [
      { 'sec-purpose': 'prefetch' },
      { 'sec-purpose': 'prefetch;prerender' },
      { purpose: 'prefetch' },
      { 'x-moz': 'prefetch' },
    ];
    for (const headers of speculative) {
      const browser = aBrowser(fetchApp);
      expect((await browser.get('/searching', headers)).status).toBe(200);
      // Nothing pinned either: the variant follows from the visitor id until a real visit.
      expect(browser.variant()).toBeUndefined();
    }
    const visitor = aBrowser(fetchApp);
    await visitor.get('/searching');
    expect(await exposureRows()).toEqual([
      expect.objectContaining({ visitor_id: visitor.visitorId() }),
    ]);
    expect(await botCounts()).toEqual([{ phase: 1, variant: 'default', exposed: 1, bots: 0 }]);
  });

  it('with skip_split=true, or under a marketer’s preview', async () => {
    const fetchApp = app(0.2, { CONSOLE_PREVIEW_KEY: PREVIEW_KEY });
    await aBrowser(fetchApp).get('/?skip_split=true');
    const preview = aBrowser(fetchApp, await previewJar(MARKETER));
    const page = await preview.get('/');
    expect(page.body).toContain('Preview of variant');
    await preview.get('/searching');
    expect(preview.variant()).toBeUndefined();
    const visitor = aBrowser(fetchApp);
    await visitor.get('/');
    expect(await exposureRows()).toEqual([
      expect.objectContaining({ visitor_id: visitor.visitorId() }),
    ]);
  });
});

describe('a visitor with a marketer’s preview cookie copied into their browser', () => {
  it('walks their own arm and is exposed and counted in it', async () => {
    const fetchApp = app(0.2, { CONSOLE_PREVIEW_KEY: PREVIEW_KEY });
    // The marketer previews lp17; the copy's holder is drawn into default (random 0.2).
    const copied = aBrowser(fetchApp, await previewJar(MARKETER));
    copied.cookies.set('userUuid', STRANGER);
    const page = await copied.get('/');
    expect(page.body).not.toContain('Preview of variant');
    expect(copied.variant()).toBe('default');
    expect(copied.cookies.has('gf_preview')).toBe(false);
    expect(await exposureRows()).toEqual([
      expect.objectContaining({ visitor_id: STRANGER, variant: 'default' }),
    ]);
    expect(await botCounts()).toEqual([{ phase: 1, variant: 'default', exposed: 1, bots: 0 }]);
  });
});

describe('known bots', () => {
  it.each([
    ['Googlebot', 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'],
    [
      'Meta’s link preview',
      'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
    ],
    ['headless Chrome', CHROME.replace('Chrome/', 'HeadlessChrome/')],
    ['curl', 'curl/8.5.0'],
    ['npm run smoke', SMOKE_AGENT],
    ['no agent at all', ''],
  ])('%s is counted apart, per phase and variant, never exposed', async (_, agent) => {
    const fetchApp = app(0.7);
    for (let load = 0; load < 3; load += 1) {
      // Bots keep no cookies: each load is a fresh draw.
      const bot = aBrowser(fetchApp);
      expect((await bot.get('/', { 'user-agent': agent })).status).toBe(200);
    }
    expect(await exposureRows()).toEqual([]);
    expect(await botCounts()).toEqual([{ phase: 1, variant: 'lp17', exposed: 0, bots: 3 }]);
  });

  it.each([
    ['a verified bot', { botManagement: { score: 90, verifiedBot: true } }],
    ['a low bot score', { botManagement: { score: 12, verifiedBot: false } }],
    ['a verified bot category', { verifiedBotCategory: 'Search Engine Crawler' }],
  ])('Cloudflare’s signals mark %s with a browser’s agent', async (_, cf) => {
    const bot = aBrowser(app());
    expect((await bot.request('/', { cf })).status).toBe(200);
    expect(await exposureRows()).toEqual([]);
    expect(await botCounts()).toEqual([{ phase: 1, variant: 'default', exposed: 0, bots: 1 }]);
    expect(parsed(logs).find((line) => line.path === '/')).toMatchObject({ exposure: 'bot' });
  });

  it('a human score, or none computed, is a visitor', async () => {
    const fetchApp = app();
    await aBrowser(fetchApp).request('/', {
      cf: { botManagement: { score: 85, verifiedBot: false } },
    });
    await aBrowser(fetchApp).request('/', { cf: { botManagement: { score: 0 } } });
    await aBrowser(fetchApp).request('/', { cf: { verifiedBotCategory: '' } });
    expect(await exposureRows()).toHaveLength(3);
  });
});

it('a failed write is an error line, never a failed page', async () => {
  const failing = {
    idFromName: () => {
      throw new Error('D1_ERROR: test outage');
    },
  } as unknown as Cloudflare.Env['EXPERIMENT_SHARDS'];
  // Its script's confirmation would fail the same way (503): the page is what this is about.
  const browser = aBrowser(app(0.2, { EXPERIMENT_SHARDS: failing }), new Map(), { script: false });
  const page = await browser.get('/');
  expect(page.status).toBe(200);
  expect(page.body).toContain('</html>');
  expect(parsed(errors)).toContainEqual(
    expect.objectContaining({
      error: 'exposure_failed',
      experiments: 'split',
      detail: 'Error: D1_ERROR: test outage',
    }),
  );
});
