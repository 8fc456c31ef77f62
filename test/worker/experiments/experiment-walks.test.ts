import { beforeEach, describe, expect, it } from 'vitest';
import { RESUME_API_PATH } from '../../../shared/api/resume-paths';
import type { ExperimentDocument, ExperimentsDocument } from '../../../shared/config/experiments';
import type { HoldoutDocument } from '../../../shared/config/holdout';
import type { RoutingDocument } from '../../../shared/config/routing';
import { parsePins } from '../../../worker/experiments/assignment/assign';
import { holdoutGroup } from '../../../worker/experiments/holdout/holdout';
import { aiLandingTest } from '../../fixtures/ai-landing-test';
import { IN_APP_USER_AGENTS } from '../../fixtures/in-app-user-agents';
import { rolledOutLanding } from '../../fixtures/rolled-out';
import { unsigned } from '../../fixtures/signed-cookies';
import { freshApp, ORIGIN, putConfig } from '../fetch-app';
import { pageStateOf } from '../page-html';
import {
  aBrowser,
  exposuresOf,
  putExperiments,
  startEachTestAfresh,
  PRICE_TEST as THREE_DAY_INTRO,
} from './experiment-fixtures';

/**
 * Visitors walking a landing test and a paywall price test in two layers (each variant with all
 * the weight, the control none, as a paused arm): a deep entry through a resume link is exposed
 * on the checkout it opens; skip_split and a marketer's preview walk the controls and expose no
 * one; and the holdout's two arms each walk their own screens. Chromium walks the two layers
 * with their speculation rules in test/browser/experiments.test.ts.
 */

startEachTestAfresh();
beforeEach(() =>
  putConfig('split', {
    version: 'one',
    defaultVariant: 'default',
    variants: { default: { weight: 1 } },
  }),
);

const LANDING_TEST = aiLandingTest(0);

/** The price test with its control paused: every new visitor gets `cheap`, the 3-day intro. */
const PRICE_TEST: ExperimentDocument = {
  ...THREE_DAY_INTRO,
  variants: { ...THREE_DAY_INTRO.variants, current: { weight: 0, change: {} } },
};

const INSTAGRAM_IOS = IN_APP_USER_AGENTS.instagram.ios[0] ?? '';
const ROUTE_PLANS = ['monthly_7d_intro_usd', 'monthly_usd', 'quarterly_usd'];
const PRICE_TEST_PLANS = ['monthly_3d_intro_usd', 'quarterly_usd'];

/** The plans a checkout's HTML offers, by plan id. */
const offeredPlans = (html: string) => [
  ...new Set([...html.matchAll(/data-plan-id="([^"]+)"/g)].map((match) => match[1])),
];

const pinsOf = (cookies: Map<string, string>) => [...parsePins(unsigned(cookies.get('gf_x')))];

describe('a deep entry through a resume link', () => {
  it('is exposed to the price test on the checkout, the first page served', async () => {
    const fetchApp = freshApp();
    // An ad app's browser on the checkout, while the price test is still a draft: the landing
    // test exposes them there (its trigger is behind them), the price test does not yet run.
    await putExperiments({ 'lp-ai': LANDING_TEST, 'pw-price': { ...PRICE_TEST, status: 'draft' } });
    const inApp = aBrowser(fetchApp);
    const inAppCheckout = await inApp.get('/checkout_v3_tr', { 'user-agent': INSTAGRAM_IOS });
    expect(offeredPlans(inAppCheckout.body)).toEqual(ROUTE_PLANS);
    expect(pinsOf(inApp.cookies)).toEqual([['lp-ai', 'ai']]);
    // Its Open in browser button (islands/OpenInBrowser.tsx) asks for the link.
    const asked = await inApp.request(RESUME_API_PATH, {
      method: 'POST',
      headers: {
        'user-agent': INSTAGRAM_IOS,
        'content-type': 'application/json',
        'sec-fetch-site': 'same-origin',
        origin: ORIGIN,
      },
      body: JSON.stringify({ screen: 'checkout_v3_tr', search: '', entered: {} }),
    });
    expect(asked.status).toBe(200);
    const link = new URL((JSON.parse(asked.body) as { url: string }).url);

    // The marketer starts the price test; the visitor opens the link in their real browser.
    await putExperiments({ 'lp-ai': LANDING_TEST, 'pw-price': PRICE_TEST });
    const opened = await fetchApp(link.pathname);
    expect(opened.status).toBe(200);
    // The link carries the pin the visitor has, and pins nothing itself.
    expect(opened.headers.getSetCookie().filter((cookie) => cookie.startsWith('gf_x='))).toEqual([
      expect.stringMatching(/^gf_x=lp-ai~ai\.\.[\w-]{43};/),
    ]);
    // Its page moves the browser on to the checkout.
    expect(/data-target="([^"]*)"/.exec(await opened.text())?.[1]).toBe('/checkout_v3_tr');
    const visitor = inApp.visitorId();
    expect(await exposuresOf(visitor)).toEqual(['lp-ai=ai']);

    const real = aBrowser(fetchApp);
    for (const cookie of opened.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      real.cookies.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
    }
    expect(real.visitorId()).toBe(visitor);
    const checkout = await real.get('/checkout_v3_tr');
    expect(offeredPlans(checkout.body)).toEqual(PRICE_TEST_PLANS);
    expect(pinsOf(real.cookies)).toEqual([
      ['lp-ai', 'ai'],
      ['pw-price', 'cheap'],
    ]);
    expect(await exposuresOf(visitor)).toEqual(['lp-ai=ai', 'pw-price=cheap']);
  });
});

describe('what exposes no one', () => {
  beforeEach(() => putExperiments({ 'lp-ai': LANDING_TEST, 'pw-price': PRICE_TEST }));

  it('skip_split walks the controls and pins nothing', async () => {
    const browser = aBrowser(freshApp());
    const landing = await browser.get('/?skip_split=true');
    expect(pageStateOf(landing.body).screen).toBe('one_pager');
    // A sign-up page fetches nothing ahead, for anyone: the sign-in changes the next page.
    expect((await browser.get('/signup?skip_split=true')).body).not.toContain('speculationrules');
    const checkout = await browser.get('/checkout_v3_tr?skip_split=true');
    expect(offeredPlans(checkout.body)).toEqual(ROUTE_PLANS);
    expect(browser.cookies.has('gf_x')).toBe(false);
    expect(await exposuresOf(browser.visitorId())).toEqual([]);
  });

  it('a marketer’s preview walks the route as it is and pins nothing', async () => {
    const browser = aBrowser(freshApp({}, { CONSOLE_PREVIEW_KEY: 'preview-key-of-this-test' }));
    const link = await browser.request('/console/preview/default', { redirect: 'manual' });
    expect(link.status).toBe(303);
    expect(pageStateOf((await browser.get('/')).body).screen).toBe('one_pager');
    const checkout = await browser.get('/checkout_v3_tr');
    expect(offeredPlans(checkout.body)).toEqual(ROUTE_PLANS);
    expect(browser.cookies.has('gf_x')).toBe(false);
    expect(await exposuresOf(browser.visitorId())).toEqual([]);
  });
});

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const HOLDOUT: HoldoutDocument = {
  seed: 'h-walk',
  percent: 10,
  status: 'running',
  startedAt: new Date(NOW - 2 * DAY).toISOString(),
};
/** Since the holdout: the AI landing won and was rolled out everywhere, a route was added. */
const SHIPPED_SINCE = new Date(NOW - DAY).toISOString();
const SPRING_ROUTING: RoutingDocument = {
  version: 'spring',
  audiences: {
    spring: { groups: [[{ attribute: 'entry', operator: 'in', values: ['spring'] }]] },
  },
  routes: [
    // The lp11ch8 flow: its checkout is checkout_h3_pp, the default flow's checkout_v3_tr.
    { id: 'spring', audience: 'spring', flow: 'lp11ch8', since: SHIPPED_SINCE },
    { id: 'default', flow: 'default' },
  ],
};

/** The first of the ids …-000000000001, …-000000000002… that the holdout puts in `group`. */
function idIn(group: 'held_out' | 'measured'): string {
  for (let n = 1; ; n++) {
    const id = `62000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    if (holdoutGroup(HOLDOUT, id, NOW) === group) return id;
  }
}

/** A visitor with `visitorId` walking from the spring link to the sign-up: what they saw. */
async function walk(fetchApp: ReturnType<typeof freshApp>, visitorId: string) {
  const browser = aBrowser(fetchApp, new Map([['userUuid', visitorId]]));
  const screenOf = async (path: string) => pageStateOf((await browser.get(path)).body);
  const landing = (await screenOf('/?r=spring')).screen;
  await screenOf('/searching?r=spring');
  const signup = await screenOf('/signup?r=spring');
  return { landing, route: browser.route(), checkout: signup.next };
}

/**
 * The holdout over a whole walk: a visitor it holds out walks the control on every screen (the
 * landing before a winner rolled out since, the route they had before a route added since, so
 * its checkout), while one of its measured sample walks the shipped winner and the new route,
 * their ids drawn by the worker's own draw.
 */
describe('the holdout over a walk', () => {
  it('a held-out visitor sees the control everywhere; a measured one the shipped winner', async () => {
    const winner = { ...rolledOutLanding(NOW), audience: {}, startedAt: SHIPPED_SINCE };
    const document: ExperimentsDocument = {
      version: 'holdout',
      holdout: HOLDOUT,
      experiments: { 'lp-ai': winner },
    };
    await putConfig('experiments', document);
    await putConfig('routing', SPRING_ROUTING);
    const fetchApp = freshApp({ now: () => NOW });

    expect(await walk(fetchApp, idIn('held_out'))).toEqual({
      landing: 'one_pager',
      route: 'default',
      checkout: '/checkout_v3_tr?r=spring',
    });
    expect(await walk(fetchApp, idIn('measured'))).toEqual({
      landing: 'one_pager_ai',
      route: 'spring',
      checkout: '/checkout_h3_pp?r=spring',
    });
  });
});
