import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RouteDocument, RoutingDocument } from '../../../shared/config/routing';
import { keptRoute } from '../../fixtures/signed-cookies';
import { putConfig, setCookies } from '../fetch-app';
import { type FetchApp, forgetConfig, NOW, routeOf, routingApp } from './routing-app';

/**
 * Which live route takes a visitor, and for how long: the first matching route in order, paused
 * and scheduled routes, and the route kept for the visit (gf_route) when marketers reorder or
 * remove routes.
 */

beforeEach(() => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
});
afterEach(async () => {
  vi.restoreAllMocks();
  await forgetConfig();
});

/** A TikTok visitor in Germany: both audiences below take them. */
const TIKTOK_DE = { path: '/?ttclid=E.C.P.x', init: { cf: { country: 'DE' } } as RequestInit };

function routing(routes: RouteDocument[]): RoutingDocument {
  return {
    version: 'test',
    audiences: {
      tiktok: { groups: [[{ attribute: 'source', operator: 'in', values: ['tiktok'] }]] },
      germany: { groups: [[{ attribute: 'country', operator: 'in', values: ['DE', 'AT'] }]] },
    },
    routes: [...routes, { id: 'default', flow: 'default' }],
  };
}

const TIKTOK: RouteDocument = { id: 'tiktok', audience: 'tiktok', flow: 'lp17ch17pr5' };
const GERMANY: RouteDocument = { id: 'germany', audience: 'germany', flow: 'lp11ch8' };

const firstVisit = (fetchApp: FetchApp) => routeOf(fetchApp, TIKTOK_DE.path, TIKTOK_DE.init);

describe('the first live route whose audience matches takes the visitor', () => {
  it('in the order of the routes', async () => {
    expect(await firstVisit(await routingApp(routing([TIKTOK, GERMANY])))).toBe('tiktok');
    expect(await firstVisit(await routingApp(routing([GERMANY, TIKTOK])))).toBe('germany');
  });

  it('a route whose audience does not match is passed over', async () => {
    const fetchApp = await routingApp(routing([TIKTOK, GERMANY]));
    expect(await routeOf(fetchApp, '/', { cf: { country: 'AT' } } as RequestInit)).toBe('germany');
    expect(await routeOf(fetchApp, '/', { cf: { country: 'FR' } } as RequestInit)).toBe('default');
  });

  it('a paused route takes no one', async () => {
    const fetchApp = await routingApp(routing([{ ...TIKTOK, paused: true }, GERMANY]));
    expect(await firstVisit(fetchApp)).toBe('germany');
  });

  it('a scheduled route takes visitors from its start (UTC) until, not at, its end', async () => {
    const at = (iso: string) => Date.parse(iso);
    const window = { from: '2026-11-27T00:00Z', until: '2026-12-01T00:00Z' };
    const scheduled = routing([{ ...TIKTOK, schedule: window }, GERMANY]);
    const cases: [string, string][] = [
      ['2026-11-26T23:59:59.999Z', 'germany'],
      ['2026-11-27T00:00:00.000Z', 'tiktok'],
      ['2026-11-30T23:59:59.999Z', 'tiktok'],
      ['2026-12-01T00:00:00.000Z', 'germany'],
    ];
    for (const [when, expected] of cases) {
      const fetchApp = await routingApp(scheduled, { now: () => at(when) });
      expect(await firstVisit(fetchApp), when).toBe(expected);
    }
    // Either end may be open.
    const fromOnly = routing([{ ...TIKTOK, schedule: { from: '2026-11-25T22:30Z' } }, GERMANY]);
    expect(await firstVisit(await routingApp(fromOnly))).toBe('tiktok');
    const untilOnly = routing([{ ...TIKTOK, schedule: { until: '2026-11-25T22:30Z' } }, GERMANY]);
    expect(await firstVisit(await routingApp(untilOnly))).toBe('germany');
    expect(NOW).toBe(at('2026-11-25T22:30Z'));
  });
});

/** The cookies a first page set, as the browser sends them back. */
function cookieHeader(response: Response): string {
  return [...setCookies(response)].map(([name, value]) => `${name}=${value}`).join('; ');
}

describe('a visitor keeps their route for the visit', () => {
  it('when the routes are reordered, and a removed route is chosen again', async () => {
    const fetchApp = await routingApp(routing([TIKTOK, GERMANY]));
    const first = await fetchApp(TIKTOK_DE.path, TIKTOK_DE.init);
    expect(keptRoute(setCookies(first).get('gf_route'))).toBe('tiktok');
    expect(first.headers.getSetCookie()).toContainEqual(
      expect.stringMatching(
        /^gf_route=tiktok\.\d+\.[\w-]{43}; Path=\/; HttpOnly; Secure; SameSite=Lax$/,
      ),
    );
    const cookie = cookieHeader(first);

    await putConfig('routing', routing([GERMANY, TIKTOK]));
    const again = await fetchApp('/', { ...TIKTOK_DE.init, headers: { cookie } });
    expect(again.status).toBe(200);
    expect(setCookies(again).has('gf_route')).toBe(false);
    expect(await again.text()).toContain('"flow":"lp17ch17pr5"');
    // A newcomer like them gets the new order.
    expect(await firstVisit(fetchApp)).toBe('germany');

    await putConfig('routing', routing([{ ...TIKTOK, paused: true }, GERMANY]));
    const paused = await fetchApp('/', { ...TIKTOK_DE.init, headers: { cookie } });
    expect(setCookies(paused).has('gf_route')).toBe(false);
    expect(await paused.text()).toContain('"flow":"lp17ch17pr5"');

    await putConfig('routing', routing([GERMANY]));
    const removed = await fetchApp('/', { ...TIKTOK_DE.init, headers: { cookie } });
    expect(keptRoute(setCookies(removed).get('gf_route'))).toBe('germany');
    expect(await removed.text()).toContain('"flow":"lp11ch8"');
  });

  it('a forged route cookie is ignored and the route chosen afresh', async () => {
    const fetchApp = await routingApp(routing([TIKTOK, GERMANY]));
    for (const forged of ['Tiktok', 'tiktok;x', '../default', 'x'.repeat(80), 'nope']) {
      const response = await fetchApp(TIKTOK_DE.path, {
        ...TIKTOK_DE.init,
        headers: { cookie: `gf_route=${encodeURIComponent(forged)}` },
      });
      expect(response.status, forged).toBe(200);
      expect(keptRoute(setCookies(response).get('gf_route')), forged).toBe('tiktok');
    }
  });
});
