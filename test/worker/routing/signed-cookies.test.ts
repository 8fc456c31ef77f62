import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RouteDocument, RoutingDocument } from '../../../shared/config/routing';
import { encodeFirstTouch, type FirstTouch } from '../../../worker/routing/first-touch';
import { encodeKeptRoute } from '../../../worker/routing/router';
import { signCookie } from '../../../worker/signing';
import {
  headerSafe,
  keptRoute,
  signedPair,
  signedValue,
  unsigned,
} from '../../fixtures/signed-cookies';
import { aBrowser } from '../experiments/experiment-fixtures';
import { productionApp, putConfig, setCookies } from '../fetch-app';
import { type FetchApp, forgetConfig, NOW, routingApp } from './routing-app';

/**
 * The routing cookies (gf_route, gf_touch) are signed for the visitor id
 * (worker/request/cookies.ts): a visitor who writes one by hand, edits one or brings
 * another visitor's gets the route a new visitor like them gets, never an error, and one
 * `routing_cookie_invalid` warning for the visit; a visitor whose cookie the worker signed keeps
 * their route when marketers pause it, as docs/routes.md promises.
 */

let warnings: ReturnType<typeof vi.spyOn>;
let errors: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  warnings = vi.spyOn(console, 'warn').mockImplementation(() => {});
  errors = vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(async () => {
  vi.restoreAllMocks();
  await forgetConfig();
});

const lines = (spy: ReturnType<typeof vi.spyOn>): Record<string, unknown>[] =>
  spy.mock.calls.map(([line]: unknown[]) => JSON.parse(String(line)));
const invalidCookieLines = () =>
  lines(warnings).filter((line) => line.warning === 'routing_cookie_invalid');

const GERMANY = {
  groups: [[{ attribute: 'country' as const, operator: 'in' as const, values: ['DE'] }]],
};
const TIKTOK_DE = {
  groups: [
    [
      { attribute: 'source' as const, operator: 'in' as const, values: ['tiktok'] },
      { attribute: 'country' as const, operator: 'in' as const, values: ['DE'] },
    ],
  ],
};

/** Routes a visitor would like to name: each offers other plans than the default's. */
const PAUSED: RouteDocument = {
  id: 'paused_offer',
  audience: 'germany',
  flow: 'lp11ch8',
  plans: ['quarterly'],
  paused: true,
};
const SCHEDULED: RouteDocument = {
  id: 'black_friday',
  audience: 'germany',
  flow: 'lp11ch8',
  plans: ['quarterly'],
  schedule: { from: '2026-11-27T00:00Z', until: '2026-12-01T00:00Z' },
};
const TIKTOK: RouteDocument = {
  id: 'tiktok_de',
  audience: 'tiktok_de',
  flow: 'lp17ch17pr5',
  plans: ['monthly'],
};

function routing(routes: RouteDocument[] = [PAUSED, SCHEDULED, TIKTOK]): RoutingDocument {
  return {
    version: 'test',
    audiences: { germany: GERMANY, tiktok_de: TIKTOK_DE },
    routes: [...routes, { id: 'default', flow: 'default' }],
  };
}

const ATTACKER = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const VICTIM = '9f8e7d6c-5b4a-4392-8817-161514131211';

/** A visitor from the US with no ad parameters: every route above but default refuses them. */
const US = { cf: { country: 'US' } };

/**
 * A visitor from Germany, where the routes above were chosen: a route kept for a country holds
 * only there (the next describe's first test says why).
 */
const DE = { cf: { country: 'DE' } };

/** What a first touch made by hand says: a TikTok click in Germany. */
const HAND_MADE_TOUCH: FirstTouch = {
  source: 'tiktok',
  click_id: null,
  utm: { source: 'tiktok', medium: null, campaign: null, content: null, term: null },
  entry: null,
  country: 'DE',
  began_at: NOW,
};

/** The route and flow a page request was given: its Set-Cookie and its page state. */
async function served(fetchApp: FetchApp, path: string, cookie: string, init: object = US) {
  const response = await fetchApp(path, { ...init, headers: { cookie } } as RequestInit);
  const body = await response.text();
  return {
    status: response.status,
    route: keptRoute(setCookies(response).get('gf_route')),
    flow: /"flow":"([^"]+)"/.exec(body)?.[1],
    /** The route the page was served on, as its boot state names it. */
    served: /"route":"([^"]+)"/.exec(body)?.[1],
    setCookies: setCookies(response),
  };
}

describe('a routing cookie a visitor made, edited or copied is not read', () => {
  it('a gf_route naming a paused route, in any form but signed for them, gets the default', async () => {
    const fetchApp = await routingApp(routing());
    const at = encodeKeptRoute(PAUSED.id, NOW);
    const forgeries = [
      PAUSED.id,
      at,
      `${at}.${'A'.repeat(43)}`,
      `${at}.${(await signCookie('not-our-key', 'gf_route', ATTACKER, at)).split('.').pop()}`,
      // Signed, but as another cookie's value.
      await signedValue('gf_touch', ATTACKER, at),
    ];
    for (const forged of forgeries) {
      const page = await served(fetchApp, '/', `userUuid=${ATTACKER}; gf_route=${forged}`);
      expect(page.status, forged).toBe(200);
      expect(page.route, forged).toBe('default');
      expect(page.flow, forged).toBe('default');
    }
  });

  it('a gf_route naming a route whose schedule has not begun gets the default', async () => {
    const fetchApp = await routingApp(routing());
    const page = await served(
      fetchApp,
      '/',
      `userUuid=${ATTACKER}; gf_route=${encodeKeptRoute(SCHEDULED.id, NOW)}`,
    );
    expect(page.route).toBe('default');
    expect(page.flow).toBe('default');
  });

  it('a hand-made first touch matching an audience matches nothing', async () => {
    const fetchApp = await routingApp(routing());
    const touch = encodeFirstTouch(HAND_MADE_TOUCH);
    // From Germany itself: only the signature refuses it.
    const page = await served(fetchApp, '/', `userUuid=${ATTACKER}; gf_touch=${touch}`, DE);
    expect(page.route).toBe('default');
    expect(page.flow).toBe('default');
    // Replaced by the request's own first touch, signed.
    expect(unsigned(page.setCookies.get('gf_touch'))).not.toBe(touch);
    // The same visitor from a real TikTok click in Germany is taken, so the audience works.
    const real = await served(fetchApp, '/?ttclid=E.C.P.x', `userUuid=${ATTACKER}`, {
      cf: { country: 'DE' },
    });
    expect(real.route).toBe(TIKTOK.id);
  });

  it('a German visitor’s whole cookie set, visitor id included, carries no German route to the US', async () => {
    await routingApp(routing());
    // As deployed: the country is the address's (cf.country), whatever the first touch says.
    const fetchApp = productionApp(
      { now: () => NOW, random: () => 0.5 },
      { ENVIRONMENT: 'production', COOKIE_SIGNING_KEY: 'a-production-secret' },
    );
    const victim = await served(fetchApp, '/?ttclid=E.C.P.x', `userUuid=${VICTIM}`, DE);
    expect(victim.route).toBe(TIKTOK.id);
    const copied = `userUuid=${VICTIM}; gf_route=${victim.setCookies.get('gf_route')}; gf_touch=${victim.setCookies.get('gf_touch')}`;
    // Every signature holds (nothing to report), but the audience requires Germany, and the
    // country is the request's address, not the cookie's.
    const page = await served(fetchApp, '/signup', copied, US);
    expect(page.served).toBe('default');
    expect(page.route).toBe('default');
    expect(invalidCookieLines()).toEqual([]);
    // In Germany the same set keeps its route.
    expect((await served(fetchApp, '/signup', copied, DE)).served).toBe(TIKTOK.id);
  });

  it("another visitor's signed cookies do not pass for this visitor", async () => {
    const fetchApp = await routingApp(routing());
    const victim = await served(fetchApp, '/?ttclid=E.C.P.x', `userUuid=${VICTIM}`, {
      cf: { country: 'DE' },
    });
    expect(victim.route).toBe(TIKTOK.id);
    const copied = `gf_route=${victim.setCookies.get('gf_route')}; gf_touch=${victim.setCookies.get('gf_touch')}`;
    const page = await served(fetchApp, '/', `userUuid=${ATTACKER}; ${copied}`);
    expect(page.route).toBe('default');
    expect(page.flow).toBe('default');
    expect(invalidCookieLines()).toEqual([
      expect.objectContaining({ level: 'warn', cookie: 'gf_touch', reason: 'bad_signature' }),
      expect.objectContaining({ level: 'warn', cookie: 'gf_route', reason: 'bad_signature' }),
    ]);
    // The victim's own browser still keeps theirs.
    const again = await served(fetchApp, '/signup', `userUuid=${VICTIM}; ${copied}`);
    expect(again.flow).toBe(TIKTOK.flow);
    expect(again.setCookies.has('gf_route')).toBe(false);
  });

  it('is reported once for the visit, and replaced with cookies the next pages keep', async () => {
    const fetchApp = await routingApp(routing());
    const browser = aBrowser(
      fetchApp,
      new Map([
        ['userUuid', ATTACKER],
        ['gf_route', PAUSED.id],
        ['gf_touch', encodeFirstTouch(HAND_MADE_TOUCH)],
      ]),
    );
    for (const path of ['/', '/searching', '/signup', '/']) {
      const page = await browser.request(path, US as RequestInit);
      expect(page.status, path).toBe(200);
    }
    expect(browser.route()).toBe('default');
    expect(invalidCookieLines()).toEqual([
      expect.objectContaining({ level: 'warn', cookie: 'gf_touch', reason: 'unsigned' }),
      expect.objectContaining({ level: 'warn', cookie: 'gf_route', reason: 'unsigned' }),
    ]);
    expect(lines(errors)).toEqual([]);
  });
});

describe('a visitor whose cookie the worker signed keeps their route', () => {
  it('when it is paused or its schedule ends after they entered', async () => {
    const live = { ...PAUSED, paused: false };
    const fetchApp = await routingApp(routing([live]));
    const browser = aBrowser(fetchApp);
    await browser.request('/', { cf: { country: 'DE' } } as RequestInit);
    expect(browser.route()).toBe(live.id);

    await putConfig('routing', routing([PAUSED]));
    const next = await browser.request('/signup', { cf: { country: 'DE' } } as RequestInit);
    expect(next.body).toContain(`"flow":"${live.flow}"`);
    expect(browser.route()).toBe(live.id);
    // A new visitor like them is not taken.
    expect((await served(fetchApp, '/', '', { cf: { country: 'DE' } })).route).toBe('default');

    await putConfig('routing', routing([{ ...live, schedule: { until: '2026-11-01T00:00Z' } }]));
    const later = await browser.request('/signup', { cf: { country: 'DE' } } as RequestInit);
    expect(later.body).toContain(`"flow":"${live.flow}"`);
    expect(invalidCookieLines()).toEqual([]);
  });

  it('for the visit: a day after it was chosen, the route is chosen again', async () => {
    const fetchApp = await routingApp(routing());
    const signedRoute = (msAgo: number) =>
      signedPair('gf_route', VICTIM, encodeKeptRoute(PAUSED.id, NOW - msAgo));
    const hour = 60 * 60 * 1000;
    const kept = await served(
      fetchApp,
      '/',
      `userUuid=${VICTIM}; ${await signedRoute(23 * hour)}`,
      DE,
    );
    expect(kept.flow).toBe(PAUSED.flow);
    expect(kept.route).toBeUndefined();
    const over = await served(
      fetchApp,
      '/',
      `userUuid=${VICTIM}; ${await signedRoute(24 * hour)}`,
      DE,
    );
    expect(over.route).toBe('default');
    expect(over.flow).toBe('default');
    // Not forged: nothing to report.
    expect(invalidCookieLines()).toEqual([]);
  });

  it('a first touch is kept 30 days, then taken afresh', async () => {
    const fetchApp = await routingApp(routing());
    const touch = (daysAgo: number) =>
      signedPair(
        'gf_touch',
        VICTIM,
        encodeFirstTouch({ ...HAND_MADE_TOUCH, began_at: NOW - daysAgo * 24 * 60 * 60 * 1000 }),
      );
    const kept = await served(fetchApp, '/', `userUuid=${VICTIM}; ${await touch(29)}`, DE);
    expect(kept.route).toBe(TIKTOK.id);
    const over = await served(fetchApp, '/', `userUuid=${VICTIM}; ${await touch(30)}`, DE);
    expect(over.route).toBe('default');
  });
});

describe('on a deployed worker', () => {
  it('trusts only cookies signed with COOKIE_SIGNING_KEY, not the development key', async () => {
    await routingApp(routing());
    const fetchApp = productionApp(
      { now: () => NOW, random: () => 0.5 },
      { ENVIRONMENT: 'production', COOKIE_SIGNING_KEY: 'a-production-secret' },
    );
    const developmentSigned = await signedPair(
      'gf_route',
      ATTACKER,
      encodeKeptRoute(PAUSED.id, NOW),
    );
    const page = await served(fetchApp, '/', `userUuid=${ATTACKER}; ${developmentSigned}`);
    expect(page.status).toBe(200);
    expect(page.route).toBe('default');
    // What it set itself is kept.
    const own = [...page.setCookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const next = await served(fetchApp, '/signup', `userUuid=${ATTACKER}; ${own}`);
    expect(next.setCookies.has('gf_route')).toBe(false);
    expect(next.setCookies.has('gf_touch')).toBe(false);
  });

  it('while COOKIE_SIGNING_KEY is rotated, a visit keeps its route by the key before, and only that one', async () => {
    await routingApp(routing());
    const rotated = (previous?: string) =>
      productionApp(
        { now: () => NOW, random: () => 0.5 },
        {
          ENVIRONMENT: 'production',
          COOKIE_SIGNING_KEY: 'the-new-secret',
          ...(previous ? { COOKIE_SIGNING_KEY_PREVIOUS: previous } : {}),
        },
      );
    // A visitor who entered on the paused route before the rotation, signed with the old key.
    const before = `gf_route=${encodeURIComponent(
      await signCookie('the-old-secret', 'gf_route', ATTACKER, encodeKeptRoute(PAUSED.id, NOW)),
    )}`;
    const kept = await served(
      rotated('the-old-secret'),
      '/signup',
      `userUuid=${ATTACKER}; ${before}`,
      DE,
    );
    expect(kept.served).toBe(PAUSED.id);
    expect(kept.setCookies.has('gf_route')).toBe(false);
    // Without the key before, or with another, the visit starts afresh.
    for (const previous of [undefined, 'a-third-secret']) {
      const lost = await served(
        rotated(previous),
        '/signup',
        `userUuid=${ATTACKER}; ${before}`,
        DE,
      );
      expect(lost.served, String(previous)).toBe('default');
      expect(lost.route, String(previous)).toBe('default');
    }
  });

  it('without the secret trusts no routing cookie and writes none (fail closed)', async () => {
    await routingApp(routing());
    const fetchApp = productionApp(
      { now: () => NOW, random: () => 0.5 },
      { ENVIRONMENT: 'production' },
    );
    const developmentSigned = await signedPair(
      'gf_route',
      ATTACKER,
      encodeKeptRoute(PAUSED.id, NOW),
    );
    for (const path of ['/', '/signup']) {
      const page = await served(fetchApp, path, `userUuid=${ATTACKER}; ${developmentSigned}`);
      expect(page.status).toBe(200);
      expect(page.flow).toBe('default');
      expect(page.setCookies.has('gf_route')).toBe(false);
      expect(page.setCookies.has('gf_touch')).toBe(false);
    }
    // Said once per isolate (another file's test may have said it already), never per page.
    const said = lines(errors).filter((line) => line.error === 'cookie_key_not_configured');
    expect(said.length).toBeLessThanOrEqual(1);
    expect(invalidCookieLines()).toEqual([]);
  });
});

describe('whatever a visitor writes into the cookies (property)', () => {
  const DAY = 24 * 60 * 60 * 1000;
  /** A signature-shaped tail, or none. */
  const tail = fc.option(fc.stringMatching(/^[A-Za-z0-9_-]{43}$/), { nil: undefined });
  const withTail = ([value, mac]: [string, string | undefined]) =>
    mac === undefined ? value : `${value}.${mac}`;
  /** Route cookies as the worker writes them, chosen within the day, unsigned; or anything. */
  const routeValue = fc.oneof(
    fc.string(),
    fc.string({ unit: 'binary' }).map(encodeURIComponent),
    fc
      .tuple(
        fc.constantFrom(PAUSED.id, SCHEDULED.id, TIKTOK.id, 'default', 'nope'),
        fc.integer({ min: NOW - DAY + 1000, max: NOW }),
      )
      .map(([id, at]) => encodeKeptRoute(id, at))
      .chain((value) => tail.map((mac) => withTail([value, mac]))),
  );
  /** First touches a visitor could make, within their 30 days: any source and country; or anything. */
  const touchValue = fc.oneof(
    fc.string(),
    fc
      .record({
        source: fc.constantFrom('tiktok', 'meta', 'google', 'direct'),
        country: fc.constantFrom('DE', 'US', null),
        began_at: fc.integer({ min: NOW - 29 * DAY, max: NOW }),
      })
      .map((touch) => encodeFirstTouch({ ...HAND_MADE_TOUCH, ...touch } as FirstTouch))
      .chain((value) => tail.map((mac) => withTail([value, mac]))),
  );
  it('never a 5xx, and never a route other than a new visitor gets', async () => {
    const fetchApp = await routingApp(routing());
    await fc.assert(
      fc.asyncProperty(
        fc.option(routeValue, { nil: undefined }),
        fc.option(touchValue, { nil: undefined }),
        fc.constantFrom(ATTACKER, VICTIM, 'not-a-uuid'),
        async (route, touch, visitor) => {
          const cookie = [
            `userUuid=${visitor}`,
            route === undefined ? '' : `gf_route=${headerSafe(route)}`,
            touch === undefined ? '' : `gf_touch=${headerSafe(touch)}`,
          ]
            .filter(Boolean)
            .join('; ');
          const page = await served(fetchApp, '/', cookie);
          expect(page.status).toBeLessThan(500);
          expect(page.route).toBe('default');
          expect(page.flow).toBe('default');
        },
      ),
      { numRuns: 60 },
    );
    expect(lines(errors)).toEqual([]);
  });
});
