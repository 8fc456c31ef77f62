import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CONSOLE_API } from '../../../shared/console-api/config';
import type { RouteVisitsAnswer } from '../../../shared/console-api/routes';
import { DEFAULT_ROUTE_ID } from '../../../shared/routing';
import {
  shardOfVisitor,
  VISITOR_ROWS_KEPT_MS,
} from '../../../worker/experiments/assignment/assign';
import { recordFirstVisit } from '../../../worker/experiments/exposure/exposure-store';
import { shardStub } from '../../../worker/experiments/store/experiment-stores';
import { signPreview } from '../../../worker/preview/preview';
import { previewHolder } from '../../fixtures/preview-holder';
import { freshApp, putConfig } from '../fetch-app';
import {
  aBrowser,
  countedShards,
  emptyExperiments,
  exposureRows,
  shardRows,
  stores,
  TWO_WAY,
} from './experiment-fixtures';

/** A first visit's first touch: a typed address, no campaign. */
const DIRECT = { source: 'direct', campaign: '' };

/**
 * First visits by route (route_days): a new visitor whose route is chosen on a funnel screen
 * they were shown counts once on that route and day, in their shard, in the same request as
 * their exposure when the split draws them; the console sums the last 7 UTC days of all shards.
 */

const NOW = Date.UTC(2026, 10, 22, 8, 0, 0);
const DAY_MS = 24 * 60 * 60 * 1000;
const PREVIEW_KEY = 'preview-key-of-this-test';

/** TikTok's visitors on their own route, everyone else on `default`. */
const ROUTING = {
  version: 'r1',
  audiences: {
    tiktok: { groups: [[{ attribute: 'source', operator: 'in', values: ['tiktok'] }]] },
  },
  routes: [
    { id: 'tiktok', audience: 'tiktok', flow: 'lp17ch17pr5' },
    { id: DEFAULT_ROUTE_ID, flow: 'default' },
  ],
};
/** TWO_WAY drawing the TikTok route's visitors as well as the default route's. */
const SPLIT_WITH_TIKTOK = { ...TWO_WAY, routes: [DEFAULT_ROUTE_ID, 'tiktok'] };

let errors: ReturnType<typeof vi.spyOn>;

beforeEach(async () => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  errors = vi.spyOn(console, 'error').mockImplementation(() => {});
  await putConfig('split', SPLIT_WITH_TIKTOK);
  await env.FUNNEL_CONFIG.put('routing', JSON.stringify(ROUTING));
  await emptyExperiments();
});
afterEach(() => vi.restoreAllMocks());

function app(bindings: Partial<Cloudflare.Env> = {}) {
  return freshApp({ random: () => 0.2, now: () => NOW }, bindings);
}

/** Every shard's route_days added, by route and day. */
async function routeDays() {
  const rows = await shardRows<{ route: string; day: string; visits: number }>(
    'SELECT route, day, visits FROM route_days',
  );
  const added = new Map<string, { route: string; day: string; visits: number }>();
  for (const row of rows) {
    const key = `${row.route} ${row.day}`;
    const seen = added.get(key);
    added.set(key, { ...row, visits: row.visits + (seen?.visits ?? 0) });
  }
  return [...added.values()].sort(
    (a, b) => a.route.localeCompare(b.route) || a.day.localeCompare(b.day),
  );
}

describe('a first visit is counted', () => {
  it('once, on the TikTok route, with the exposure in the same request to the shard', async () => {
    const { shards, calls } = countedShards();
    const browser = aBrowser(app({ EXPERIMENT_SHARDS: shards }));
    expect((await browser.get('/?utm_source=tiktok')).status).toBe(200);
    expect(browser.route()).toBe('tiktok');
    // The page's exposures, then its script's confirmation of them: one request each.
    expect(calls).toEqual(['recordExperimentExposures', 'confirmExposures']);

    await browser.get('/?utm_source=tiktok');
    await browser.get('/searching');
    expect(await routeDays()).toEqual([{ route: 'tiktok', day: '2026-11-22', visits: 1 }]);
    // Her later pages bring the cookies: nothing more to write.
    // The page's exposures, then its script's confirmation of them: one request each.
    expect(calls).toEqual(['recordExperimentExposures', 'confirmExposures']);
  });

  it('on a route the split does not draw: one request to the shard, no exposure', async () => {
    await putConfig('split', TWO_WAY);
    const { shards, calls } = countedShards();
    const browser = aBrowser(app({ EXPERIMENT_SHARDS: shards }));
    expect((await browser.get('/?utm_source=tiktok')).status).toBe(200);
    expect(browser.variant()).toBeUndefined();
    expect(calls).toEqual(['recordExposures']);
    expect(await exposureRows()).toEqual([]);
    expect(await routeDays()).toEqual([{ route: 'tiktok', day: '2026-11-22', visits: 1 }]);
  });

  it('for each new visitor, by route', async () => {
    const fetchApp = app();
    await aBrowser(fetchApp).get('/?utm_source=tiktok');
    await aBrowser(fetchApp).get('/?utm_source=tiktok');
    await aBrowser(fetchApp).get('/');
    expect(await routeDays()).toEqual([
      { route: 'default', day: '2026-11-22', visits: 1 },
      { route: 'tiktok', day: '2026-11-22', visits: 2 },
    ]);
  });
});

describe('no first visit is counted', () => {
  it('for a returning visitor whose route is chosen again in a new session', async () => {
    const fetchApp = app();
    const browser = aBrowser(fetchApp);
    await browser.get('/');
    await emptyExperiments();
    // The browser was closed: the session cookie gf_route is gone, userUuid is kept.
    browser.cookies.delete('gf_route');
    expect((await browser.get('/?utm_source=tiktok')).status).toBe(200);
    expect(browser.route()).toBeDefined();
    expect(await routeDays()).toEqual([]);
  });

  const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
  // Outside the split too, where no exposure verdict stands beside the first visit's.
  it.each([
    ['a prefetch', { 'sec-purpose': 'prefetch' }, SPLIT_WITH_TIKTOK],
    ['a prefetch outside the split', { 'sec-purpose': 'prefetch' }, TWO_WAY],
    ['a known bot', { 'user-agent': GOOGLEBOT }, SPLIT_WITH_TIKTOK],
    ['a known bot outside the split', { 'user-agent': GOOGLEBOT }, TWO_WAY],
    // A browser that keeps no cookies, on a page after its first.
    ['a cookieless browser’s second page', { 'sec-fetch-site': 'same-origin' }, SPLIT_WITH_TIKTOK],
    [
      'a cookieless browser’s second page outside the split',
      { 'sec-fetch-site': 'same-origin' },
      TWO_WAY,
    ],
  ])('for %s', async (_, headers, split) => {
    await putConfig('split', split);
    const page = await aBrowser(app()).get('/?utm_source=tiktok', headers);
    expect(page.status).toBe(200);
    expect(await routeDays()).toEqual([]);
  });

  it('for a marketer’s preview, in the browser that opened it only', async () => {
    // The preview cookie's expiry is read against the real clock.
    const expiry = Math.floor(Date.now() / 1000) + 600;
    const marketer = crypto.randomUUID();
    const preview = aBrowser(
      app({ CONSOLE_PREVIEW_KEY: PREVIEW_KEY }),
      new Map([
        ['userUuid', marketer],
        ['gf_preview', await signPreview(PREVIEW_KEY, 'lp17', expiry, previewHolder(marketer))],
      ]),
    );
    expect((await preview.get('/?utm_source=tiktok')).body).toContain('Preview of variant');
    expect(await routeDays()).toEqual([]);
    // The same cookie copied into a new browser is no preview: that first visit counts.
    const fresh = aBrowser(
      app({ CONSOLE_PREVIEW_KEY: PREVIEW_KEY }),
      new Map([['gf_preview', preview.cookies.get('gf_preview') ?? '']]),
    );
    expect((await fresh.get('/?utm_source=tiktok')).body).not.toContain('Preview of variant');
    expect(fresh.route()).toBe('tiktok');
    expect(await routeDays()).toEqual([{ route: 'tiktok', day: '2026-11-22', visits: 1 }]);
    // Into a browser with a visitor id of its own (a returning visitor's, so no first visit):
    // its route is drawn and kept as anyone's.
    const returning = aBrowser(
      app({ CONSOLE_PREVIEW_KEY: PREVIEW_KEY }),
      new Map([
        ['userUuid', crypto.randomUUID()],
        ['gf_preview', preview.cookies.get('gf_preview') ?? ''],
      ]),
    );
    expect((await returning.get('/?utm_source=tiktok')).body).not.toContain('Preview of variant');
    expect(returning.route()).toBe('tiktok');
  });

  it('when the shard fails: an error line, never a failed page', async () => {
    await putConfig('split', TWO_WAY);
    const failing = {
      idFromName: () => {
        throw new Error('test outage');
      },
    } as unknown as Cloudflare.Env['EXPERIMENT_SHARDS'];
    const page = await aBrowser(app({ EXPERIMENT_SHARDS: failing })).get('/?utm_source=tiktok');
    expect(page.status).toBe(200);
    expect(errors.mock.calls.map(([line]: unknown[]) => JSON.parse(String(line)))).toContainEqual(
      expect.objectContaining({
        error: 'exposure_failed',
        route: 'tiktok',
        detail: 'Error: test outage',
      }),
    );
  });
});

describe('exposures', () => {
  it('carry the visitor’s route and their visit’s source', async () => {
    const fetchApp = app();
    const tiktok = aBrowser(fetchApp);
    await tiktok.get('/?utm_source=tiktok');
    const meta = aBrowser(fetchApp);
    await meta.get('/?fbclid=abc');
    const rows = await exposureRows();
    expect(rows.find((row) => row.visitor_id === tiktok.visitorId())).toMatchObject({
      route: 'tiktok',
      source: 'tiktok',
    });
    expect(rows.find((row) => row.visitor_id === meta.visitorId())).toMatchObject({
      route: DEFAULT_ROUTE_ID,
      source: 'meta',
    });
  });
});

/** Visitor ids that live in `count` different shards. */
function visitorsInShards(count: number): string[] {
  const byShard = new Map<number, string>();
  while (byShard.size < count) {
    const id = crypto.randomUUID();
    if (!byShard.has(shardOfVisitor(id))) byShard.set(shardOfVisitor(id), id);
  }
  return [...byShard.values()];
}

describe('GET /console/api/route-visits', () => {
  it('sums every shard’s first visits of today and the 6 days before, UTC', async () => {
    const [a = '', b = '', c = ''] = visitorsInShards(3);
    const firstOfWeek = Date.UTC(2026, 10, 16, 0, 0, 0);
    const visits = [
      { visitorId: a, route: 'tiktok', at: NOW },
      { visitorId: a, route: 'tiktok', at: NOW + 1000 },
      { visitorId: b, route: 'tiktok', at: firstOfWeek },
      { visitorId: c, route: DEFAULT_ROUTE_ID, at: NOW - DAY_MS },
      // The day before the week: left out.
      { visitorId: b, route: 'tiktok', at: firstOfWeek - 1 },
      { visitorId: c, route: 'meta', at: firstOfWeek - 1 },
    ];
    for (const visit of visits) await recordFirstVisit(stores, { ...visit, ...DIRECT });

    const response = await app()(CONSOLE_API.routeVisits);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const answer: RouteVisitsAnswer = await response.json();
    expect(answer).toEqual({ days: 7, visits: { tiktok: 3, default: 1 }, total: 4, steps: {} });
  });

  it('answers no visits before any', async () => {
    const answer: RouteVisitsAnswer = await (await app()(CONSOLE_API.routeVisits)).json();
    expect(answer).toEqual({ days: 7, visits: {}, total: 0, steps: {} });
  });
});

it('a shard’s retention deletes days of first visits older than the visitor rows it keeps', async () => {
  const visitorId = crypto.randomUUID();
  const now = Date.now();
  await recordFirstVisit(stores, { visitorId, route: 'tiktok', at: now, ...DIRECT });
  await recordFirstVisit(stores, {
    visitorId,
    route: 'tiktok',
    at: now - VISITOR_ROWS_KEPT_MS - DAY_MS,
    ...DIRECT,
  });
  const shard = shardStub(stores, shardOfVisitor(visitorId));
  const days = () =>
    runInDurableObject(shard, (_object, state) =>
      state.storage.sql.exec('SELECT day FROM route_days').toArray(),
    );
  expect(await days()).toHaveLength(2);
  // The first visit scheduled the shard's retention alarm.
  expect(await runDurableObjectAlarm(shard)).toBe(true);
  expect(await days()).toEqual([{ day: new Date(now).toISOString().slice(0, 10) }]);
});
