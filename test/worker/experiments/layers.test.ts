import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ExperimentDocument } from '../../../shared/config/experiments';
import { parsePins } from '../../../worker/experiments/assignment/assign';
import { aiLandingTest } from '../../fixtures/ai-landing-test';
import { unsigned } from '../../fixtures/signed-cookies';
import { freshApp, putConfig } from '../fetch-app';
import { aBrowser, emptyExperiments, PRICE_TEST, putExperiments } from './experiment-fixtures';

/**
 * Several experiments at once at the edge (worker/request/visit-facts.ts, exposure.ts): a
 * landing test and a paywall price test in two layers, over the default split. A visitor's
 * variants follow from their id before exposure, each experiment exposes them where its variants
 * first differ, the page before that leaves the next screen out of its speculation rules, and
 * what an experiment's status says happens to the visitors pinned and not.
 */

const NOW = Date.UTC(2026, 10, 25, 12, 0, 0);
const DAY = 24 * 60 * 60 * 1000;

const LANDING_TEST = aiLandingTest(1);

/** The app with every draw fixed: 0.2 is each experiment's control, 0.7 its other variant. */
function app(random: number) {
  return freshApp({ random: () => random, now: () => NOW });
}

const pinsOf = (browser: ReturnType<typeof aBrowser>) =>
  parsePins(unsigned(browser.cookies.get('gf_x')));
const prefetches = (html: string, screen: string) =>
  html.includes('"type":"speculationrules"') && html.includes(`"urls":["/${screen}`);

beforeEach(async () => {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  await putConfig('split', {
    version: 1,
    defaultVariant: 'default',
    variants: { default: { weight: 1 } },
  });
  await putExperiments({ 'pw-price': PRICE_TEST, 'lp-ai': LANDING_TEST });
  await emptyExperiments();
});

describe('two experiments in two layers', () => {
  it('both run for one visitor, each exposing them where it acts', async () => {
    const browser = aBrowser(app(0.7));
    const landing = await browser.get('/');
    // The landing test acts on the first screen: exposed and pinned there.
    expect(landing.body).toContain('one_pager_ai');
    expect([...pinsOf(browser)]).toEqual([['lp-ai', 'ai']]);
    await browser.get('/searching');
    await browser.get('/signup');
    // The price test is not seen yet: still unpinned, the visitor walking on by the hash.
    expect(pinsOf(browser).has('pw-price')).toBe(false);
    const checkout = await browser.get('/checkout_v3_tr');
    expect(checkout.status).toBe(200);
    expect(checkout.body).toContain('2.99');
    expect([...pinsOf(browser)]).toEqual([
      ['lp-ai', 'ai'],
      ['pw-price', 'cheap'],
    ]);
  });

  it('the control of both sees the route as it is, and is exposed all the same', async () => {
    const browser = aBrowser(app(0.2));
    const landing = await browser.get('/');
    expect(landing.body).toContain('one_pager');
    expect(landing.body).not.toContain('one_pager_ai');
    const checkout = await browser.get('/checkout_v3_tr');
    expect(checkout.body).not.toContain('2.99');
    expect(pinsOf(browser)).toEqual(
      new Map([
        ['lp-ai', 'control'],
        ['pw-price', 'current'],
      ]),
    );
  });

  it('a visitor entering past both triggers is exposed to both on that page', async () => {
    const browser = aBrowser(app(0.7));
    await browser.get('/checkout_v3_tr');
    expect(pinsOf(browser)).toEqual(
      new Map([
        ['lp-ai', 'ai'],
        ['pw-price', 'cheap'],
      ]),
    );
  });

  it('a pinned visitor keeps their variant whatever the hash now says', async () => {
    const first = aBrowser(app(0.7));
    await first.get('/checkout_v3_tr');
    const again = aBrowser(app(0.2), first.cookies);
    const checkout = await again.get('/checkout_v3_tr');
    expect(checkout.body).toContain('2.99');
    expect((await again.get('/')).body).toContain('one_pager_ai');
  });
});

describe('speculation rules', () => {
  it('leave out the next screen when it would expose the visitor', async () => {
    const browser = aBrowser(app(0.7));
    const searching = (await browser.get('/searching')).body;
    expect(prefetches(searching, 'signup')).toBe(true);
    // The checkout after sign-up exposes the price test: fetched when the visitor goes there.
    const signup = (await browser.get('/signup')).body;
    expect(prefetches(signup, 'checkout_v3_tr')).toBe(false);
  });

  it('leave out the screen after a sign-up even when the visitor is pinned: the account draws its price', async () => {
    // Pinned by the browser, a visitor signing up is drawn again by their account in the price
    // test's layer: a checkout fetched before the sign-up would show the browser's price, and
    // the charge, made signed in, would be refused.
    const pinned = aBrowser(app(0.7));
    await pinned.get('/checkout_v3_tr');
    expect(prefetches((await pinned.get('/signup')).body, 'checkout_v3_tr')).toBe(false);
    const skipping = aBrowser(app(0.7));
    const page = (await skipping.get('/signup?skip_split=true')).body;
    expect(prefetches(page, 'checkout_v3_tr')).toBe(false);
  });

  it('a prefetch of the trigger screen exposes and pins nobody', async () => {
    const browser = aBrowser(app(0.7));
    await browser.get('/signup');
    const before = pinsOf(browser);
    await browser.get('/checkout_v3_tr', { 'sec-purpose': 'prefetch' });
    expect(pinsOf(browser)).toEqual(before);
  });
});

describe('skip_split and browsers without cookies', () => {
  it('skip_split walks every control and pins nothing', async () => {
    const browser = aBrowser(app(0.7));
    const landing = await browser.get('/?skip_split=true');
    expect(landing.body).not.toContain('one_pager_ai');
    expect((await browser.get('/checkout_v3_tr?skip_split=true')).body).not.toContain('2.99');
    expect(browser.cookies.has('gf_x')).toBe(false);
  });

  it('a same-origin page without the visitor cookie gets the controls, unexposed', async () => {
    const browser = aBrowser(app(0.7));
    const page = await browser.get('/checkout_v3_tr', { 'sec-fetch-site': 'same-origin' });
    expect(page.body).not.toContain('2.99');
    expect(browser.cookies.has('gf_x')).toBe(false);
  });
});

describe('what a status does', () => {
  it('a paused experiment keeps the pinned on their variant and takes no one new', async () => {
    const pinned = aBrowser(app(0.7));
    await pinned.get('/checkout_v3_tr');
    await putExperiments({ 'pw-price': { ...PRICE_TEST, status: 'paused' } });
    expect((await aBrowser(app(0.7), pinned.cookies).get('/checkout_v3_tr')).body).toContain(
      '2.99',
    );
    const fresh = aBrowser(app(0.7));
    expect((await fresh.get('/checkout_v3_tr')).body).not.toContain('2.99');
    expect(pinsOf(fresh).has('pw-price')).toBe(false);
  });

  it('a stopped one keeps the pinned for its drain days, then shows them the control', async () => {
    const pinned = aBrowser(app(0.7));
    await pinned.get('/checkout_v3_tr');
    const stopped = (daysAgo: number): ExperimentDocument => ({
      ...PRICE_TEST,
      status: 'stopped',
      endedAt: new Date(NOW - daysAgo * DAY).toISOString(),
    });
    await putExperiments({ 'pw-price': stopped(6) });
    expect((await aBrowser(app(0.7), pinned.cookies).get('/checkout_v3_tr')).body).toContain(
      '2.99',
    );
    await putExperiments({ 'pw-price': stopped(8) });
    expect((await aBrowser(app(0.7), pinned.cookies).get('/checkout_v3_tr')).body).not.toContain(
      '2.99',
    );
  });

  it('a variant rolled out reaches everyone in the audience, exposing no one', async () => {
    await putExperiments({
      'pw-price': {
        ...PRICE_TEST,
        status: 'shipped',
        endedAt: new Date(NOW - DAY).toISOString(),
        decision: {
          result: 'won',
          action: 'roll_out',
          variant: 'cheap',
          at: new Date(NOW - DAY).toISOString(),
          by: 'anna@example.com',
          evidence: {
            phase: 1,
            metric: 'net_revenue',
            relativeLift: 0.08,
            interval: [0.02, 0.14],
            verdict: 'better',
            srmAlarm: false,
          },
        },
      },
    });
    const browser = aBrowser(app(0.2));
    expect((await browser.get('/checkout_v3_tr')).body).toContain('2.99');
    expect(browser.cookies.has('gf_x')).toBe(false);
  });

  it('a draft or archived experiment changes nothing for anyone', async () => {
    for (const status of ['draft', 'archived'] as const) {
      await putExperiments({ 'pw-price': { ...PRICE_TEST, status } });
      const browser = aBrowser(app(0.7));
      expect((await browser.get('/checkout_v3_tr')).body).not.toContain('2.99');
      expect(browser.cookies.has('gf_x')).toBe(false);
    }
  });
});
