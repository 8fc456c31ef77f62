import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EMPTY_CONTENT } from '../../../shared/config/content';
import type { RoutingDocument } from '../../../shared/config/routing';
import { CONSOLE_API, type ConsoleState } from '../../../shared/console-api/config';
import {
  CONSOLE_CONTENT_API,
  type ContentPreviewAnswer,
} from '../../../shared/console-api/content';
import type { InvalidAnswer } from '../../../shared/console-api/errors';
import type { RouteTestAnswer, RouteTestRequest } from '../../../shared/console-api/routes';
import { COUNTRY_CODES } from '../../../shared/routing';
import { SCREEN_IDS } from '../../../shared/screens';
import { DEFAULT_THEME } from '../../../shared/theme';
import { DEFAULT_EXPERIMENTS, DEFAULT_FLOWS, DEFAULT_SPLIT } from '../../../worker/config/defaults';
import { SPRING_LANDING } from '../../fixtures/composed-landing';
import { HEADLINE_IN_EVERY_LANGUAGE } from '../../fixtures/content';
import { freshApp, ORIGIN, setCookies } from '../fetch-app';
import { pageStateOf } from '../page-html';

/**
 * The console's "test a visitor" (POST /console/api/route-test) through the development worker,
 * over the routing in the real KV or a whole draft sent along, and the preview link it answers.
 */

const fetchApp = freshApp({ random: () => 0.5 });

const SAME_ORIGIN = { 'Sec-Fetch-Site': 'same-origin', 'Content-Type': 'application/json' };

/** The whole draft the console sends for a draft `routing`: the built-in config with it. */
function draftWith(routing: unknown) {
  return {
    split: DEFAULT_SPLIT,
    flows: DEFAULT_FLOWS,
    routing,
    experiments: DEFAULT_EXPERIMENTS,
    content: EMPTY_CONTENT,
  };
}

function post(body: unknown, headers: Record<string, string> = SAME_ORIGIN) {
  return fetchApp(CONSOLE_API.routeTest, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** TikTok ads in the DACH countries get the lp17 funnel; everyone else the split's. */
const LIVE: RoutingDocument = {
  version: 'r1',
  audiences: {
    tiktok_dach: {
      label: 'TikTok in DACH',
      groups: [
        [
          { attribute: 'source', operator: 'in', values: ['tiktok'] },
          { attribute: 'country', operator: 'in', values: ['DE', 'AT', 'CH'] },
        ],
      ],
    },
    black_friday: {
      groups: [[{ attribute: 'entry', operator: 'equals', values: ['bf'] }]],
    },
  },
  routes: [
    { id: 'bf', audience: 'black_friday', flow: 'lp11ch8', plans: ['quarterly'] },
    { id: 'tiktok_de', audience: 'tiktok_dach', flow: 'lp17ch17pr5' },
    { id: 'default', flow: 'default' },
  ],
};

const TIKTOK_LINK = 'https://funnel.test/?utm_source=tiktok&utm_campaign=Winter24&ttclid=E.C.P.abc';

const GERMAN_IPHONE: RouteTestRequest = {
  link: TIKTOK_LINK,
  country: 'DE',
  platform: 'ios',
  app: 'tiktok',
};

beforeEach(async () => {
  await env.FUNNEL_CONFIG.put('routing', JSON.stringify(LIVE));
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(async () => {
  vi.restoreAllMocks();
  await env.FUNNEL_CONFIG.delete('routing');
});

describe('testing a visitor against the live routing', () => {
  it('answers the route a TikTok visitor from Germany gets, and why the earlier one passed', async () => {
    const response = await post(GERMAN_IPHONE);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const answer = (await response.json()) as RouteTestAnswer;
    expect(answer).toMatchObject({
      route: 'tiktok_de',
      flow: 'lp17ch17pr5',
      plans: null,
      passed: [
        {
          id: 'bf',
          why: 'audience "black_friday" does not match: entry is not known (it must be bf)',
        },
      ],
      source: 'tiktok · click id tiktok · utm_source=tiktok · utm_campaign=Winter24',
    });
    expect(answer.preview).toMatch(
      /^\/console\/preview\?utm_source=tiktok&.*&route=r\.[\w-]+\.\d+\.[\w-]+&country=DE$/,
    );
    // A marketer at the console is no visitor: testing a route sets no cookie of the funnel.
    expect([...setCookies(response).keys()]).toEqual([]);
  });

  it('sends the same link from France to the default route', async () => {
    const answer = (await (
      await post({ ...GERMAN_IPHONE, country: 'FR' })
    ).json()) as RouteTestAnswer;
    expect(answer.route).toBe('default');
    expect(answer.passed.map((passed) => passed.id)).toEqual(['bf', 'tiktok_de']);
    // The condition that failed is named, with what this visitor had: the source matched.
    expect(answer.passed[1]?.why).toBe(
      'audience "tiktok_dach" does not match: country is FR (it must be DE, AT or CH)',
    );
  });

  it('names the failing condition of each group of an audience', async () => {
    const routing: RoutingDocument = {
      ...LIVE,
      audiences: {
        ...LIVE.audiences,
        apps: {
          groups: [
            [{ attribute: 'platform', operator: 'in', values: ['android'] }],
            [{ attribute: 'in_app', operator: 'in', values: ['instagram', 'facebook'] }],
          ],
        },
      },
      routes: [{ id: 'apps', audience: 'apps', flow: 'lp11ch8' }, ...LIVE.routes.slice(1)],
    };
    const answer = (await (
      await post({ ...GERMAN_IPHONE, document: draftWith(routing) })
    ).json()) as RouteTestAnswer;
    expect(answer.passed[0]).toEqual({
      id: 'apps',
      why: 'audience "apps" does not match: none of its groups matches (1: platform is ios (it must be android); 2: in_app is tiktok (it must be instagram or facebook))',
    });
  });

  it('reads the entry alias of a link, and the plans of its route', async () => {
    const answer = (await (
      await post({
        link: 'https://funnel.test/?r=BF',
        country: null,
        platform: 'desktop',
        app: 'none',
      })
    ).json()) as RouteTestAnswer;
    expect(answer).toMatchObject({
      route: 'bf',
      plans: ['quarterly'],
      passed: [],
      source: 'direct · no click id · entry bf',
    });
  });

  it('takes the platform as chosen: an audience of Android visitors is not met by an iPhone', async () => {
    const routing: RoutingDocument = {
      version: 'draft',
      audiences: {
        android: { groups: [[{ attribute: 'platform', operator: 'in', values: ['android'] }]] },
      },
      routes: [
        { id: 'android', audience: 'android', flow: 'lp11ch8' },
        { id: 'default', flow: 'default' },
      ],
    };
    const ios = (await (
      await post({ ...GERMAN_IPHONE, document: draftWith(routing) })
    ).json()) as RouteTestAnswer;
    const android = (await (
      await post({ ...GERMAN_IPHONE, platform: 'android', document: draftWith(routing) })
    ).json()) as RouteTestAnswer;
    expect([ios.route, android.route]).toEqual(['default', 'android']);
  });
});

describe('the click id of a test visitor', () => {
  /** Only TikTok's paid clicks: a typed ?utm_source=tiktok is not one. */
  const CLICKS: RoutingDocument = {
    version: 'draft',
    audiences: {
      tiktok_clicks: {
        groups: [
          [
            { attribute: 'source', operator: 'in', values: ['tiktok'] },
            { attribute: 'click_id', operator: 'in', values: ['tiktok'] },
          ],
        ],
      },
    },
    routes: [
      { id: 'tiktok_paid', audience: 'tiktok_clicks', flow: 'lp17ch17pr5', plans: ['quarterly'] },
      { id: 'default', flow: 'default' },
    ],
  };
  const typed = 'https://funnel.test/?utm_source=tiktok&utm_campaign=%ZZ';
  const test = async (body: Partial<RouteTestRequest>) =>
    (await (
      await post({ ...GERMAN_IPHONE, document: draftWith(CLICKS), ...body })
    ).json()) as RouteTestAnswer;

  it('reads it from the pasted link, or as picked: a network, or none', async () => {
    expect((await test({ link: TIKTOK_LINK })).route).toBe('tiktok_paid');
    const bare = await test({ link: typed });
    expect(bare).toMatchObject({
      route: 'default',
      source: 'tiktok · no click id · utm_source=tiktok',
    });
    const picked = await test({ link: typed, clickId: 'tiktok' });
    expect(picked).toMatchObject({
      route: 'tiktok_paid',
      source: 'tiktok · click id tiktok · utm_source=tiktok',
    });
    // The preview opens the link as tested.
    expect(picked.preview).toContain('ttclid=console-test');
    expect((await test({ link: TIKTOK_LINK, clickId: 'none' })).route).toBe('default');
    // A Meta click id makes the source meta, whatever utm_source says.
    expect(await test({ link: TIKTOK_LINK, clickId: 'meta' })).toMatchObject({
      route: 'default',
      source: 'meta · click id meta · utm_source=tiktok · utm_campaign=Winter24',
    });
  });

  it('refuses a click id value that is no network, and a draft naming one by its parameter', async () => {
    expect((await post({ ...GERMAN_IPHONE, clickId: 'ttclid' })).status).toBe(400);
    const draft = structuredClone(CLICKS);
    draft.audiences.tiktok_clicks!.groups[0]![1]!.values = ['ttclid'];
    const response = await post({ ...GERMAN_IPHONE, document: draftWith(draft) });
    expect(response.status).toBe(400);
    expect(((await response.json()) as InvalidAnswer).errors).toEqual([
      {
        path: 'routing.audiences.tiktok_clicks.groups.0.1.values.0',
        message:
          '"ttclid" is not one of the Ad click id values: name the network, tiktok for ttclid',
      },
    ]);
  });
});

describe('testing a visitor against a draft', () => {
  it('routes by the draft sent, not by what is live', async () => {
    const draft: RoutingDocument = {
      ...LIVE,
      routes: [{ ...LIVE.routes[1]!, paused: true }, LIVE.routes[0]!, LIVE.routes[2]!],
    };
    const answer = (await (
      await post({ ...GERMAN_IPHONE, document: draftWith(draft) })
    ).json()) as RouteTestAnswer;
    expect(answer).toMatchObject({
      route: 'default',
      passed: [
        { id: 'tiktok_de', why: 'paused' },
        {
          id: 'bf',
          why: 'audience "black_friday" does not match: entry is not known (it must be bf)',
        },
      ],
    });
  });

  it('tests at the time asked: a route scheduled from tomorrow has not started', async () => {
    const draft: RoutingDocument = {
      ...LIVE,
      routes: [{ ...LIVE.routes[1]!, schedule: { from: '2026-11-27T00:00Z' } }, LIVE.routes[2]!],
    };
    const before = (await (
      await post({ ...GERMAN_IPHONE, document: draftWith(draft), at: '2026-11-26T23:59:00Z' })
    ).json()) as RouteTestAnswer;
    const after = (await (
      await post({ ...GERMAN_IPHONE, document: draftWith(draft), at: '2026-11-27T00:00:00Z' })
    ).json()) as RouteTestAnswer;
    expect(before.passed).toEqual([{ id: 'tiktok_de', why: 'not started yet' }]);
    expect(after.route).toBe('tiktok_de');
  });

  it('refuses an invalid draft with 400 invalid_config and the fields at fault', async () => {
    const draft = {
      ...LIVE,
      routes: [
        { id: 'tiktok_de', audience: 'nobody', flow: 'lp17ch17pr5' },
        { id: 'default', flow: 'default' },
      ],
    };
    const response = await post({ ...GERMAN_IPHONE, document: draftWith(draft) });
    expect(response.status).toBe(400);
    expect((await response.json()) as InvalidAnswer).toEqual({
      ok: false,
      error: 'invalid_config',
      errors: [
        {
          path: 'routing.routes.0.audience',
          message: 'names audience "nobody", which is not defined',
        },
      ],
    });
  });
});

describe('a request the route test refuses', () => {
  it.each([
    ['not JSON', '{'],
    ['no link', { country: 'DE', platform: 'ios', app: 'none' }],
    ['a link that is not http', { ...GERMAN_IPHONE, link: 'javascript:alert(1)' }],
    ['a country that is not one', { ...GERMAN_IPHONE, country: 'XX' }],
    ['a platform not on the list', { ...GERMAN_IPHONE, platform: 'windows' }],
    ['an app not on the list', { ...GERMAN_IPHONE, app: 'myspace' }],
    ['a language the pages do not have', { ...GERMAN_IPHONE, language: 'xx' }],
    ['a field the contract does not have', { ...GERMAN_IPHONE, userAgent: 'Googlebot' }],
    ['a time that is not one', { ...GERMAN_IPHONE, at: 'tomorrow' }],
  ])('%s: 400 bad_request', async (_name, body) => {
    const response = await post(body);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ ok: false, error: 'bad_request' });
  });

  it('from another site: 403 cross_origin', async () => {
    const response = await post(GERMAN_IPHONE, {
      'Sec-Fetch-Site': 'cross-site',
      'Content-Type': 'application/json',
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ ok: false, error: 'cross_origin' });
  });

  it('a console call this worker does not have: 404 JSON, and no visitor cookie of the funnel', async () => {
    const response = await fetchApp('/console/api/no-such-call');
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ ok: false, error: 'bad_request' });
    expect([...setCookies(response).keys()]).toEqual([]);
  });

  it('as a form post: 415 bad_request', async () => {
    const response = await post(GERMAN_IPHONE, {
      'Sec-Fetch-Site': 'same-origin',
      'Content-Type': 'application/x-www-form-urlencoded',
    });
    expect(response.status).toBe(415);
  });
});

describe('the preview link of a tested route', () => {
  /**
   * The cookies a preview link set, as the browser sends them back: the preview, and the visitor
   * id the link gave a browser that had none, which the preview is bound to.
   */
  function cookiesSetBy(link: Response): string {
    const set = setCookies(link);
    return `userUuid=${set.get('userUuid')}; gf_preview=${set.get('gf_preview')}`;
  }

  /** Follows the answer's preview link, then opens the page it leads to with the cookie it set. */
  async function openPreview(answer: RouteTestAnswer) {
    const link = await fetchApp(answer.preview);
    const page = await fetchApp(link.headers.get('location') ?? '', {
      headers: { cookie: cookiesSetBy(link), 'cf-ipcountry': 'DE' },
    });
    return { link, page, html: await page.text() };
  }

  it('opens the route’s funnel as a preview and sets no visitor cookie', async () => {
    const answer = (await (await post(GERMAN_IPHONE)).json()) as RouteTestAnswer;
    const { link, page, html } = await openPreview(answer);
    expect(link.status).toBe(303);
    expect(link.headers.get('location')).toBe(
      '/?utm_source=tiktok&utm_campaign=Winter24&ttclid=E.C.P.abc&country=DE',
    );
    expect(setCookies(link).has('gf_preview')).toBe(true);
    expect(page.status).toBe(200);
    expect(pageStateOf(html)).toMatchObject({ flow: 'lp17ch17pr5' });
    expect(html).toContain('Preview of route <strong>tiktok_de</strong>');
    const kept = [...setCookies(link).keys(), ...setCookies(page).keys()];
    for (const name of ['gf_route', 'gf_touch', 'gf_variant']) expect(kept).not.toContain(name);
  });

  it('shows its pages in the tested country, whatever the machine’s (wrangler dev’s US)', async () => {
    const answer = (await (await post(GERMAN_IPHONE)).json()) as RouteTestAnswer;
    const link = await fetchApp(answer.preview);
    const cookie = cookiesSetBy(link);
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const page = await fetchApp(link.headers.get('location') ?? '', {
      headers: { cookie },
      cf: { country: 'US' },
    } as RequestInit);
    expect(page.status).toBe(200);
    await page.arrayBuffer();
    const lines = log.mock.calls.map(
      ([line]) => JSON.parse(String(line)) as Record<string, unknown>,
    );
    expect(lines.findLast((line) => line.path === '/')).toMatchObject({
      country: 'DE',
      route: 'tiktok_de',
      preview: true,
    });
  });

  it('previews a route of a draft that is not live', async () => {
    const draft: RoutingDocument = {
      ...LIVE,
      routes: [{ id: 'new_one', audience: 'tiktok_dach', flow: 'lp11ch8' }, LIVE.routes[2]!],
    };
    const answer = (await (
      await post({ ...GERMAN_IPHONE, document: draftWith(draft) })
    ).json()) as RouteTestAnswer;
    const { html } = await openPreview(answer);
    expect(pageStateOf(html)).toMatchObject({ flow: 'lp11ch8' });
    expect(html).toContain('Preview of route <strong>new_one</strong>');
  });

  it('gives no link for a route more than the preview cookie holds, and says so', async () => {
    /**
     * The draft with a route whose currency table lists the first `count` countries, and whose
     * screens each show a content variant of the longest name (the routing alone is checked).
     */
    const routeWith = (count: number): RoutingDocument => ({
      ...LIVE,
      routes: [
        {
          id: 'euro_zone',
          audience: 'tiktok_dach',
          flow: 'lp11ch8',
          currencies: Object.fromEntries(
            COUNTRY_CODES.slice(0, count).map((code) => [code, 'EUR']),
          ),
          content: Object.fromEntries(SCREEN_IDS.slice(0, 12).map((id) => [id, 'v'.repeat(40)])),
        },
        LIVE.routes[2]!,
      ],
    });
    // Every country: a browser would drop the cookie and show the live funnel.
    const everywhere = (await (
      await post({ ...GERMAN_IPHONE, document: draftWith(routeWith(COUNTRY_CODES.length)) })
    ).json()) as RouteTestAnswer;
    expect(everywhere.route).toBe('euro_zone');
    expect(everywhere.preview).toBe('');
    expect(everywhere.previewTooLarge).toBe(true);
    // Forty countries fit: the link previews the route, its cookie within a browser's 4 KB.
    const forty = (await (
      await post({ ...GERMAN_IPHONE, document: draftWith(routeWith(40)) })
    ).json()) as RouteTestAnswer;
    expect(forty.previewTooLarge).toBeUndefined();
    const { link, html } = await openPreview(forty);
    expect(`gf_preview=${setCookies(link).get('gf_preview')}`.length).toBeLessThanOrEqual(4096);
    expect(html).toContain('Preview of route <strong>euro_zone</strong>');
  });

  it('opens in any browser, but the cookie it sets previews only in the one that opened it', async () => {
    const answer = (await (await post(GERMAN_IPHONE)).json()) as RouteTestAnswer;
    const laptop = await openPreview(answer);
    const phone = await openPreview(answer);
    for (const { html } of [laptop, phone]) {
      expect(html).toContain('Preview of route <strong>tiktok_de</strong>');
    }
    // The laptop's preview cookie beside the phone's visitor id is no preview: the phone's
    // own route, drawn and kept.
    const copied = await fetchApp(laptop.link.headers.get('location') ?? '', {
      headers: {
        cookie: `userUuid=${setCookies(phone.link).get('userUuid')}; gf_preview=${setCookies(laptop.link).get('gf_preview')}`,
        'cf-ipcountry': 'DE',
      },
    });
    const html = await copied.text();
    expect(html).not.toContain('Preview of route');
    expect(setCookies(copied).has('gf_route')).toBe(true);
    expect(copied.headers.getSetCookie()).toContainEqual(
      expect.stringMatching(/^gf_preview=; Max-Age=0/),
    );
  });

  it('is a link, not a cookie: its token set as the cookie previews nothing', async () => {
    const answer = (await (await post(GERMAN_IPHONE)).json()) as RouteTestAnswer;
    const token = new URL(answer.preview, ORIGIN).searchParams.get('route');
    const visitorId = crypto.randomUUID();
    const page = await fetchApp('/', {
      headers: { cookie: `userUuid=${visitorId}; gf_preview=${token}`, 'cf-ipcountry': 'DE' },
    });
    expect(await page.text()).not.toContain('Preview of route');
    expect(page.headers.getSetCookie()).toContainEqual(
      expect.stringMatching(/^gf_preview=; Max-Age=0/),
    );
  });

  it('refuses a link whose token was tampered with: 404 unknown_route, no cookie', async () => {
    const answer = (await (await post(GERMAN_IPHONE)).json()) as RouteTestAnswer;
    const forged = answer.preview.replace(/route=r\.([\w-]+)/, 'route=r.$1x');
    const response = await fetchApp(forged);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ ok: false, error: 'unknown_route' });
    expect(setCookies(response).has('gf_preview')).toBe(false);
  });
});

describe('testing a visitor against the whole draft', () => {
  /**
   * The live document with what a marketer launches in one draft: a landing composed from the
   * one-pager's sections, a flow that opens with it, and a route taking the spring campaign's
   * entry link (`?r=spring`) there. None of it is live.
   */
  async function springDraft() {
    const state = (await (
      await fetchApp(CONSOLE_API.state, { headers: SAME_ORIGIN })
    ).json()) as ConsoleState;
    const { live } = state;
    const [, ...afterLanding] = live.flows.flows.default!;
    return {
      ...live,
      content: { ...live.content, composed: SPRING_LANDING.composed },
      flows: {
        ...live.flows,
        flows: { ...live.flows.flows, spring: ['spring_landing', ...afterLanding] },
      },
      routing: {
        ...live.routing,
        audiences: {
          ...live.routing.audiences,
          spring: { groups: [[{ attribute: 'entry', operator: 'equals', values: ['spring'] }]] },
        },
        routes: [{ id: 'spring', audience: 'spring', flow: 'spring' }, ...live.routing.routes],
      },
    };
  }
  const SPRING_VISITOR: RouteTestRequest = {
    link: 'https://funnel.test/?r=spring',
    country: 'DE',
    platform: 'ios',
    app: 'none',
  };

  it('names the route, flow and composed landing the draft adds, and the route a preview draws it by', async () => {
    const document = await springDraft();
    const response = await post({ ...SPRING_VISITOR, document });
    expect(response.status).toBe(200);
    const answer = (await response.json()) as RouteTestAnswer;
    expect(answer).toMatchObject({ route: 'spring', flow: 'spring' });
    expect(answer.gets.landing).toMatchObject({ ref: 'spring_landing', screen: 'one_pager' });
    expect(answer.previewRoute).toMatchObject({ id: 'spring', flow: 'spring' });

    // Drawn as the console draws it: the content preview, fed the same draft and that route.
    const drawn = await fetchApp(CONSOLE_CONTENT_API.preview, {
      method: 'POST',
      headers: SAME_ORIGIN,
      body: JSON.stringify({
        screen: answer.gets.landing!.ref,
        language: 'en',
        theme: DEFAULT_THEME,
        content: document.content,
        route: answer.previewRoute,
      }),
    });
    expect(drawn.status).toBe(200);
    const { html } = (await drawn.json()) as ContentPreviewAnswer;
    expect(html).toContain(HEADLINE_IN_EVERY_LANGUAGE.en);
  });

  it('answers the live funnel for the same visitor without the draft', async () => {
    const answer = (await (await post(SPRING_VISITOR)).json()) as RouteTestAnswer;
    expect(answer.route).not.toBe('spring');
    expect(answer.gets.landing?.ref).not.toBe('spring_landing');
  });

  it('refuses a draft the publish would refuse by its shape, at its path', async () => {
    const document = await springDraft();
    document.routing.audiences.spring = {
      groups: [[{ attribute: 'source', operator: 'in', values: ['spring'] }]],
    };
    const response = await post({ ...SPRING_VISITOR, document });
    expect(response.status).toBe(400);
    const answer = (await response.json()) as InvalidAnswer;
    expect(answer.errors).toEqual([
      {
        path: 'routing.audiences.spring.groups.0.0.values.0',
        message: '"spring" is not one of the Source values',
      },
    ]);
  });
});
