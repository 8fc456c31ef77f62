import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CONSOLE_API } from '../../../shared/console-api/config';
import type { InvalidAnswer } from '../../../shared/console-api/errors';
import type {
  RouteTestAnswer,
  VisitorGetsAnswer,
  VisitorGetsRequest,
} from '../../../shared/console-api/routes';
import { DEFAULT_FLOWS } from '../../../worker/config/defaults';
import { PREVIEW_TTL_SECONDS, previewKey, signRouteLink } from '../../../worker/preview/preview';
import {
  ONE_VARIANT_SPLIT,
  rolledOutLanding,
  SPRING_ROUTING,
  TESTIMONIALS_FIRST,
} from '../../fixtures/rolled-out';
import {
  aBrowser,
  CHROME,
  emptyExperiments,
  PRICE_TEST,
  putExperiments,
} from '../experiments/experiment-fixtures';
import { freshApp, putConfig, setCookies } from '../fetch-app';
import { pageStateOf } from '../page-html';

/**
 * The console's "what does this visitor get" (POST /console/api/visitor-gets), "test a visitor"'s
 * arms and preview link, and a new visitor's page, over one config: a landing test's
 * winner rolled out on `default`, a price test running, a route showing a content variant. The
 * console must say, and its preview draw, the landing the edge serves.
 */

const NOW = Date.now();
const fetchApp = freshApp();

const SAME_ORIGIN = { 'Sec-Fetch-Site': 'same-origin', 'Content-Type': 'application/json' };

function post(path: string, body: unknown) {
  return fetchApp(path, { method: 'POST', headers: SAME_ORIGIN, body: JSON.stringify(body) });
}

async function visitorGets(body: VisitorGetsRequest): Promise<VisitorGetsAnswer> {
  const response = await post(CONSOLE_API.visitorGets, body);
  expect(response.status).toBe(200);
  return (await response.json()) as VisitorGetsAnswer;
}

/** "Test a visitor" on a desktop from Germany opening `link`. */
async function testVisitor(link: string): Promise<RouteTestAnswer> {
  const response = await post(CONSOLE_API.routeTest, {
    link,
    country: 'DE',
    platform: 'desktop',
    app: 'none',
  });
  return (await response.json()) as RouteTestAnswer;
}

const A_GERMAN_IPHONE: VisitorGetsRequest = { country: 'DE', platform: 'ios' };

function heading(html: string): string | undefined {
  return html.match(/<h1 id="screen-title">([^<]+)<\/h1>/)?.[1];
}

/** Opens a preview link in a browser of its own, then the page it leads to. */
async function openPreview(link: string, path?: string) {
  const opened = await fetchApp(link);
  const set = setCookies(opened);
  const page = await fetchApp(path ?? opened.headers.get('location') ?? '/', {
    headers: {
      cookie: `userUuid=${set.get('userUuid')}; gf_preview=${set.get('gf_preview')}`,
      'user-agent': CHROME,
    },
  });
  expect(page.status).toBe(200);
  return page.text();
}

let logs: ReturnType<typeof vi.spyOn>;

beforeEach(async () => {
  logs = vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  await putConfig('split', ONE_VARIANT_SPLIT);
  await putConfig('routing', SPRING_ROUTING);
  await putConfig('content', TESTIMONIALS_FIRST);
  await putExperiments({ 'lp-ai': rolledOutLanding(NOW), 'pw-price': PRICE_TEST });
});
afterEach(async () => {
  vi.restoreAllMocks();
  await emptyExperiments();
  await putConfig('routing', {
    version: 'r0',
    audiences: {},
    routes: [{ id: 'default', flow: 'default' }],
  });
  await putConfig('content', { screens: {} });
});

describe('a landing test rolled out on default', () => {
  it('the console says one_pager_ai, with the winner rolled out and the price test at its control', async () => {
    const answer = await visitorGets(A_GERMAN_IPHONE);
    expect(answer.route).toBe('default');
    expect(answer.landing).toEqual({
      ref: 'one_pager_ai',
      screen: 'one_pager_ai',
      slot: 'landing',
      variant: null,
    });
    expect(answer.arms).toEqual([
      // The split of one variant tests nothing: its only variant is everyone's.
      {
        experiment: 'split',
        name: 'Split test',
        layer: 'flow',
        variant: 'default',
        source: 'control',
      },
      {
        experiment: 'lp-ai',
        name: 'AI landing',
        layer: 'landing',
        variant: 'ai',
        source: 'rolled_out',
      },
      {
        experiment: 'pw-price',
        name: 'Paywall: 3-day intro at 2.99',
        layer: 'paywall',
        variant: 'current',
        source: 'control',
      },
    ]);
  });

  it('skip_split and a browser keeping no cookies get the winner; only running tests show controls', async () => {
    // A visitor id the price test draws into its other arm, found through the console itself.
    const ids = Array.from(
      { length: 32 },
      (_, n) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    );
    let drawn: string | undefined;
    for (const visitorId of ids) {
      const arms = (await visitorGets({ ...A_GERMAN_IPHONE, visitorId })).arms;
      if (arms.some((arm) => arm.experiment === 'pw-price' && arm.variant !== 'current')) {
        drawn = visitorId;
        break;
      }
    }
    expect(drawn).toBeDefined();
    const skipping = await visitorGets({
      ...A_GERMAN_IPHONE,
      visitorId: drawn,
      link: 'https://funnel.test/?skip_split=true',
    });
    expect(skipping.landing?.ref).toBe('one_pager_ai');
    expect(
      skipping.arms.map(({ experiment, variant, source }) => [experiment, variant, source]),
    ).toEqual([
      ['split', 'default', 'control'],
      ['lp-ai', 'ai', 'rolled_out'],
      ['pw-price', 'current', 'control'],
    ]);

    // The edge agrees: that visitor with skip_split, and a browser that sends no cookie back
    // (a same-origin page asked without its id), are both served the rolled-out landing.
    const asked = { cookie: `userUuid=${drawn}`, 'user-agent': CHROME };
    const skipped = await fetchApp('/?skip_split=true', { headers: asked });
    const cookieless = await fetchApp('/', {
      headers: { 'Sec-Fetch-Site': 'same-origin', 'user-agent': CHROME },
    });
    for (const page of [skipped, cookieless]) {
      expect(pageStateOf(await page.text()).screen).toBe('one_pager_ai');
    }
    const lines = logs.mock.calls.map(([line]: unknown[]) => JSON.parse(String(line)));
    const served = lines.filter((line: { path?: string }) => line.path === '/');
    expect(served.map((line: { experiments?: string }) => line.experiments)).toEqual([
      'split:default,lp-ai:ai,pw-price:current',
      'split:default,lp-ai:ai,pw-price:current',
    ]);
  });

  it('the route preview of "test a visitor" opens one_pager_ai, the landing a new visitor gets', async () => {
    const tested = await testVisitor('https://funnel.test/');
    expect(tested.gets.landing?.ref).toBe('one_pager_ai');
    const preview = await openPreview(tested.preview);
    const visitor = await aBrowser(fetchApp).get('/');
    expect(pageStateOf(preview).screen).toBe('one_pager_ai');
    expect(pageStateOf(visitor.body).screen).toBe('one_pager_ai');
    expect(heading(preview)).toBeDefined();
    expect(heading(preview)).toBe(heading(visitor.body));
  });

  it('a variant’s preview link (the overview’s, the Copy area’s) opens one_pager_ai too', async () => {
    const preview = await openPreview('/console/preview/default');
    expect(pageStateOf(preview).screen).toBe('one_pager_ai');
  });

  it('a draft that ends nothing is answered from the draft, the live config untouched', async () => {
    const draft = {
      split: ONE_VARIANT_SPLIT,
      flows: DEFAULT_FLOWS,
      routing: SPRING_ROUTING,
      experiments: { version: 'draft', experiments: { 'pw-price': PRICE_TEST } },
      content: TESTIMONIALS_FIRST,
    };
    const answer = await visitorGets({ ...A_GERMAN_IPHONE, document: draft });
    // Without the roll-out (the draft dropped it) the route's own landing shows again.
    expect(answer.landing?.ref).toBe('one_pager');
    expect((await visitorGets(A_GERMAN_IPHONE)).landing?.ref).toBe('one_pager_ai');
  });

  it('a draft the validator refuses is answered with its errors, as a publish would be', async () => {
    const response = await post(CONSOLE_API.visitorGets, {
      ...A_GERMAN_IPHONE,
      document: { split: ONE_VARIANT_SPLIT, flows: DEFAULT_FLOWS, routing: { routes: 'x' } },
    });
    expect(response.status).toBe(400);
    const answer = (await response.json()) as InvalidAnswer;
    expect(answer.error).toBe('invalid_config');
    expect(answer.errors.map((error) => error.path)).toEqual(
      expect.arrayContaining(['experiments', 'content']),
    );
  });

  it('refuses a body that is not the call’s, and an unknown route or arm', async () => {
    expect((await post(CONSOLE_API.visitorGets, { ...A_GERMAN_IPHONE, extra: 1 })).status).toBe(
      400,
    );
    expect(
      (await post(CONSOLE_API.visitorGets, { ...A_GERMAN_IPHONE, route: 'nope' })).status,
    ).toBe(404);
    const arm = await post(CONSOLE_API.visitorGets, {
      ...A_GERMAN_IPHONE,
      arms: { 'pw-price': 'free' },
    });
    expect(arm.status).toBe(404);
    expect(await arm.json()).toEqual({ ok: false, error: 'unknown_experiment' });
    // A rolled-out experiment no longer keeps anyone on an arm: it cannot be chosen.
    expect(
      (await post(CONSOLE_API.visitorGets, { ...A_GERMAN_IPHONE, arms: { 'lp-ai': 'control' } }))
        .status,
    ).toBe(404);
  });
});

describe('a running experiment with an arm chosen', () => {
  it('the console answers the arm’s plans, and a preview pinned to it sells them', async () => {
    const answer = await visitorGets({ ...A_GERMAN_IPHONE, arms: { 'pw-price': 'cheap' } });
    expect(answer.plans).toEqual(['monthly_3d_intro', 'quarterly']);
    expect(answer.arms.find((arm) => arm.experiment === 'pw-price')).toMatchObject({
      variant: 'cheap',
      source: 'chosen',
    });
    const key = previewKey({ ENVIRONMENT: 'development' } as never) as string;
    const expires = Math.floor(NOW / 1000) + PREVIEW_TTL_SECONDS;
    const link = async (arms: Record<string, string>) =>
      `/console/preview?route=${await signRouteLink(key, { id: 'default', flow: 'default', plans: null, arms }, expires)}`;
    const cheap = await openPreview(await link({ 'pw-price': 'cheap' }), '/checkout_v3_tr');
    expect(cheap).toContain('2.99');
    const current = await openPreview(await link({ 'pw-price': 'current' }), '/checkout_v3_tr');
    expect(current).not.toContain('2.99');
  });

  it('a preview whose arm no longer exists is no preview: the page is an ordinary visit', async () => {
    const key = previewKey({ ENVIRONMENT: 'development' } as never) as string;
    const expires = Math.floor(NOW / 1000) + PREVIEW_TTL_SECONDS;
    const token = await signRouteLink(
      key,
      { id: 'default', flow: 'default', plans: null, arms: { 'pw-price': 'gone' } },
      expires,
    );
    await openPreview(`/console/preview?route=${token}`, '/');
    const lines = logs.mock.calls.map(([line]: unknown[]) => JSON.parse(String(line)));
    expect(lines).toContainEqual(
      expect.objectContaining({ warning: 'preview_cookie_ignored', reason: 'unknown_arm' }),
    );
  });
});

describe('a route with a content variant', () => {
  it('the console and the route preview show the variant, a new visitor of the route gets it', async () => {
    const answer = await visitorGets({
      ...A_GERMAN_IPHONE,
      link: 'https://funnel.test/?r=spring',
    });
    expect(answer.route).toBe('spring');
    expect(answer.landing).toMatchObject({ ref: 'one_pager', variant: 'testimonials_first' });
    const byId = await visitorGets({ ...A_GERMAN_IPHONE, route: 'spring' });
    expect(byId.landing).toEqual(answer.landing);
    const tested = await testVisitor('https://funnel.test/?r=spring');
    const preview = await openPreview(tested.preview);
    const visitor = await aBrowser(fetchApp).get('/?r=spring');
    expect(heading(preview)).toBe(heading(visitor.body));
    expect(heading(visitor.body)).not.toBe(heading((await aBrowser(fetchApp).get('/')).body));
  });
});
