import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ExperimentDocument, ExperimentsDocument } from '../../shared/config/experiments';
import type { HoldoutDocument } from '../../shared/config/holdout';
import type { RoutingDocument } from '../../shared/config/routing';
import {
  CONSOLE_EXPERIMENTS_PATH,
  type ExperimentResultsAnswer,
} from '../../shared/console-api/experiment-results';
import { parsePins } from '../../worker/experiments/assignment/pins';
import { holdoutGroup } from '../../worker/experiments/holdout/holdout';
import { aiLandingTest } from '../fixtures/ai-landing-test';
import { IN_APP_USER_AGENTS } from '../fixtures/in-app-user-agents';
import { rolledOutLanding } from '../fixtures/rolled-out';
import { unsigned } from '../fixtures/signed-cookies';
import { type BrowserSession, startBrowserSession } from './harness';
import { PATIENCE_MS } from './patience';
import { interactive, submitEmail, uniqueEmail } from './visitor-steps';

/**
 * Several experiments at once, in Chromium, against the built worker: a landing test and a
 * paywall price test in two layers. One visitor walks both, each exposing and pinning them
 * (`gf_x`) where its variants first differ; the page before the checkout leaves it out of its
 * speculation rules, so the move there reaches the worker; a visitor coming in at the checkout
 * through a resume link is exposed there; previews and `skip_split` expose no one. And the
 * holdout: a visitor it holds out walks the control on every screen (the landing before a winner
 * rolled out since, the route they had before a route added since), while one of its measured
 * sample walks the shipped winner and the new route, their ids drawn by the worker's own draw.
 *
 * Each test's variant gets all the weight (the control none, as a paused arm): the walks are
 * about where a visitor is exposed, not the hash's shares (test/worker/experiments/).
 */

const LANDING_TEST = aiLandingTest(0);

const PRICE_TEST: ExperimentDocument = {
  name: 'Checkout: 3-day intro at 2.99',
  status: 'running',
  layer: 'paywall',
  audience: {},
  coverage: 1,
  seed: 'pw-price',
  phase: 1,
  control: 'current',
  variants: {
    current: { weight: 0, change: {} },
    cheap: { weight: 1, change: { plans: ['monthly_3d_intro', 'quarterly'] } },
  },
};

const DESKTOP_CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const INSTAGRAM_IOS = IN_APP_USER_AGENTS.instagram.ios[0] ?? '';
const AI_TITLE = 'AI-powered phone location';
const CLASSIC_TITLE = 'Find out where your loved ones are';
const ROUTE_PLANS = ['monthly_7d_intro_usd', 'monthly_usd', 'quarterly_usd'];
const PRICE_TEST_PLANS = ['monthly_3d_intro_usd', 'quarterly_usd'];

let session: BrowserSession;
beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(async () => {
  await session?.worker.deleteConfig('experiments');
  await session?.stop();
});

function putExperiments(experiments: Record<string, ExperimentDocument>): Promise<void> {
  const document: ExperimentsDocument = { version: 'walks', experiments };
  return session.worker.putConfig('experiments', document);
}

beforeEach(() => putExperiments({ 'lp-ai': LANDING_TEST, 'pw-price': PRICE_TEST }));

/** The visitor's pins (`gf_x`), oldest first. */
/**
 * The browser's pins (`gf_x`), then its account's (`gf_ax`): a signed-in visitor's price test is
 * pinned to the account (docs/experiments.md, "A price test follows the account").
 */
async function pinsOf(context: BrowserContext): Promise<[string, string][]> {
  const cookies = await context.cookies();
  const pins = (name: string) =>
    parsePins(unsigned(cookies.find((cookie) => cookie.name === name)?.value));
  return [...pins('gf_x'), ...pins('gf_ax')];
}

/** The URLs the page's speculation rules prefetch, once its script has added them all. */
async function speculated(page: Page): Promise<string[]> {
  // The rules are among the elements the page adds after paint; boot runs after the last.
  await interactive(page);
  return page.evaluate(() =>
    [...document.querySelectorAll('script[type="speculationrules"]')].flatMap((script) => {
      const rules = JSON.parse(script.textContent ?? '{}') as { prefetch?: { urls?: string[] }[] };
      return (rules.prefetch ?? []).flatMap((rule) => rule.urls ?? []);
    }),
  );
}

const pathOf = (url: string) => new URL(url, 'http://x').pathname;

/** The plans the checkout offers, by plan id. */
function offeredPlans(page: Page): Promise<(string | null)[]> {
  return page
    .locator('.plan-picker [role="radio"]')
    .evaluateAll((radios) => radios.map((radio) => radio.getAttribute('data-plan-id')));
}

/** The worker's request lines for `path` since `from` (an index into its log). */
const requestLines = (from: number, path: string) =>
  session.worker.logs.slice(from).filter((line) => line.path === path && 'status' in line);

async function arriveAt(page: Page, path: string): Promise<void> {
  await page.waitForURL((url) => url.pathname === path, { timeout: PATIENCE_MS });
  await interactive(page);
}

describe('two experiments in two layers, in Chromium', () => {
  // slow: one visitor walks the landing, the lookup, the sign-up and the checkout in Chromium
  it('both run for one visitor, each pinned on the page where it acts', async () => {
    // Reduced motion: the search runs 0.9 s rather than 6.
    const { context, page, problems } = await session.newVisitor({ reducedMotion: 'reduce' });
    await page.goto('/');
    await interactive(page);
    // The landing test acts on the first screen: its variant shows, pinned from that page on.
    expect(await page.locator('h1').textContent()).toBe(AI_TITLE);
    expect(await pinsOf(context)).toEqual([['lp-ai', 'ai']]);

    await page.locator('input[type="tel"]').fill('415 555 2671');
    await page.locator('#continue-button').click();
    await arriveAt(page, '/searching');
    expect(await pinsOf(context)).toEqual([['lp-ai', 'ai']]);
    await page.locator('#continue-button:not([disabled])').click({ timeout: PATIENCE_MS });
    await arriveAt(page, '/signup');
    // Every variant of the price test has shown the same so far: not exposed, not pinned.
    expect(await pinsOf(context)).toEqual([['lp-ai', 'ai']]);

    await submitEmail(page, uniqueEmail('two-layers'));
    await arriveAt(page, '/checkout_v3_tr');
    expect(await offeredPlans(page)).toEqual(PRICE_TEST_PLANS);
    expect(await pinsOf(context)).toEqual([
      ['lp-ai', 'ai'],
      ['pw-price', 'cheap'],
    ]);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('counting, in Chromium', () => {
  /** The experiment's results as the console reads them from the worker. */
  async function resultsOf(id: string): Promise<ExperimentResultsAnswer> {
    const response = await fetch(
      new URL(`${CONSOLE_EXPERIMENTS_PATH}/${id}/results`, session.worker.url),
    );
    expect(response.status).toBe(200);
    return (await response.json()) as ExperimentResultsAnswer;
  }

  // slow: two visitors walk the landing, the lookup and the sign-up in Chromium, one on to the
  // checkout, then the results are polled until the exposures written after the answers land
  it('a paywall price test counts only the visitors who reach the paywall', async () => {
    // Fresh ids: the counts are the worker's, kept across this file's tests.
    const suffix = Date.now().toString(36);
    const landing = `lp-count-${suffix}`;
    const price = `pw-count-${suffix}`;
    await putExperiments({
      [landing]: { ...LANDING_TEST, seed: landing },
      [price]: { ...PRICE_TEST, seed: price },
    });
    // One visitor stops at the sign-up, one goes on to the checkout; people, as their browser
    // says (headless Chromium's own user agent is counted as a bot, apart).
    for (const goesOn of [false, true]) {
      const { context, page, problems } = await session.newVisitor({
        reducedMotion: 'reduce',
        userAgent: DESKTOP_CHROME,
      });
      await page.goto('/');
      await interactive(page);
      await page.locator('input[type="tel"]').fill('415 555 2671');
      await page.locator('#continue-button').click();
      await arriveAt(page, '/searching');
      await page.locator('#continue-button:not([disabled])').click({ timeout: PATIENCE_MS });
      await arriveAt(page, '/signup');
      if (goesOn) {
        await submitEmail(page, uniqueEmail('counted'));
        await arriveAt(page, '/checkout_v3_tr');
      }
      expect(problems).toEqual([]);
      await context.close();
    }
    // Exposures are written after each answer: the landing test counts both, the price test one.
    await expect
      .poll(async () => (await resultsOf(landing)).reach.exposed, { timeout: PATIENCE_MS })
      .toBe(2);
    await expect
      .poll(async () => (await resultsOf(price)).reach.exposed, { timeout: PATIENCE_MS })
      .toBe(1);
    const answer = await resultsOf(price);
    expect(answer.triggers).toEqual([{ route: 'default', screen: 'checkout_v3_tr' }]);
    expect(answer.metricsShown[0]).toBe('checkout');
    expect(
      answer.variants.map((variant) => [variant.variant, variant.exposed, variant.bots]),
    ).toEqual([
      ['current', 0, 0],
      ['cheap', 1, 0],
    ]);
  });
});

describe('speculation rules and exposure, in Chromium', () => {
  it('a page whose next screen exposes no one prefetches it', async () => {
    const { context, page, problems } = await session.newVisitor();
    const from = session.worker.logs.length;
    await page.goto('/searching');
    expect((await speculated(page)).map(pathOf)).toEqual(['/signup']);
    // Chromium takes the rule: the worker sees the prefetch, which pins nothing new.
    await expect
      .poll(() => requestLines(from, '/signup').some((line) => line.prefetch === true))
      .toBe(true);
    expect(await pinsOf(context)).toEqual([['lp-ai', 'ai']]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('the page before the trigger leaves it out, so the move there reaches the worker and pins', async () => {
    const { context, page, problems } = await session.newVisitor();
    const from = session.worker.logs.length;
    await page.goto('/signup');
    const rules = await speculated(page);
    expect(await pinsOf(context)).toEqual([['lp-ai', 'ai']]);

    await submitEmail(page, uniqueEmail('trigger'));
    await arriveAt(page, '/checkout_v3_tr');
    // One request for the checkout, the visitor's own, and it exposed them. Had the sign-up
    // page fetched it ahead, Chromium would have shown that copy: no exposure, no pin.
    expect(requestLines(from, '/checkout_v3_tr')).toEqual([
      expect.objectContaining({ method: 'GET', status: 200, exposed: 'pw-price' }),
    ]);
    expect(requestLines(from, '/checkout_v3_tr')[0]).not.toHaveProperty('prefetch');
    expect(await pinsOf(context)).toEqual([
      ['lp-ai', 'ai'],
      ['pw-price', 'cheap'],
    ]);
    // The checkout would expose the visitor to the price test: no rule fetched it ahead.
    expect(rules.map(pathOf)).not.toContain('/checkout_v3_tr');
    // Pinned now, the sign-up page still fetches nothing ahead: the sign-in changes the next
    // page (a price test follows the account), so a copy fetched signed out would be wrong.
    await page.goto('/signup');
    expect(await speculated(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('a deep entry through a resume link, in Chromium', () => {
  it('is exposed to the price test on the checkout, the first page served', async () => {
    // An ad app's browser on the checkout, while the price test is still a draft: the landing
    // test exposes them there (its trigger is behind them), the price test does not yet run.
    await putExperiments({ 'lp-ai': LANDING_TEST, 'pw-price': { ...PRICE_TEST, status: 'draft' } });
    const inApp = await session.browser.newContext({
      baseURL: session.worker.url.href,
      userAgent: INSTAGRAM_IOS,
      viewport: { width: 390, height: 844 },
    });
    const inAppPage = await inApp.newPage();
    await inAppPage.goto('/checkout_v3_tr');
    await interactive(inAppPage);
    expect(await offeredPlans(inAppPage)).toEqual(ROUTE_PLANS);
    expect(await pinsOf(inApp)).toEqual([['lp-ai', 'ai']]);
    const [answer] = await Promise.all([
      inAppPage.waitForResponse((response) => response.url().endsWith('/api/resume')),
      inAppPage.getByRole('button', { name: 'Open in browser' }).click(),
    ]);
    expect(answer.status()).toBe(200);
    const link = ((await answer.json()) as { url: string }).url;
    await inApp.close();

    // The marketer starts the price test; the visitor opens the link in their real browser.
    await putExperiments({ 'lp-ai': LANDING_TEST, 'pw-price': PRICE_TEST });
    const { context, page, problems } = await session.newVisitor();
    const from = session.worker.logs.length;
    const [opened] = await Promise.all([
      page.waitForResponse((response) => pathOf(response.url()).startsWith('/resume/')),
      page.goto(link),
    ]);
    // The link carries the pin the visitor has, and pins nothing itself.
    const setCookies = (await opened.headersArray())
      .filter((header) => header.name.toLowerCase() === 'set-cookie')
      .map((header) => header.value);
    expect(setCookies.filter((cookie) => cookie.startsWith('gf_x='))).toEqual([
      expect.stringMatching(/^gf_x=lp-ai~ai\.\.[\w-]{43};/),
    ]);
    await arriveAt(page, '/checkout_v3_tr');
    expect(await offeredPlans(page)).toEqual(PRICE_TEST_PLANS);
    expect(requestLines(from, '/checkout_v3_tr')).toEqual([
      expect.objectContaining({ method: 'GET', status: 200, exposed: 'pw-price' }),
    ]);
    expect(await pinsOf(context)).toEqual([
      ['lp-ai', 'ai'],
      ['pw-price', 'cheap'],
    ]);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('what exposes no one, in Chromium', () => {
  it('skip_split walks the controls and pins nothing', async () => {
    const { context, page, problems } = await session.newVisitor();
    const from = session.worker.logs.length;
    await page.goto('/?skip_split=true');
    await interactive(page);
    expect(await page.locator('h1').textContent()).toBe(CLASSIC_TITLE);
    await page.goto('/signup?skip_split=true');
    // A sign-up page fetches nothing ahead, for anyone: the sign-in changes the next page.
    expect(await speculated(page)).toEqual([]);
    await page.goto('/checkout_v3_tr?skip_split=true');
    await interactive(page);
    expect(await offeredPlans(page)).toEqual(ROUTE_PLANS);
    expect(await pinsOf(context)).toEqual([]);
    expect(session.worker.logs.slice(from).filter((line) => 'exposed' in line)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a marketer’s preview walks the route as it is and pins nothing', async () => {
    const { context, page, problems } = await session.newVisitor();
    const from = session.worker.logs.length;
    await page.goto('/console/preview/default');
    await arriveAt(page, '/');
    expect(await page.locator('h1').textContent()).toBe(CLASSIC_TITLE);
    await page.goto('/checkout_v3_tr');
    await interactive(page);
    expect(await offeredPlans(page)).toEqual(ROUTE_PLANS);
    expect(await pinsOf(context)).toEqual([]);
    expect(session.worker.logs.slice(from).filter((line) => 'exposed' in line)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('the holdout, in Chromium', () => {
  const DAY = 24 * 60 * 60 * 1000;
  const now = Date.now();
  const HOLDOUT: HoldoutDocument = {
    seed: 'h-chromium',
    percent: 10,
    status: 'running',
    startedAt: new Date(now - 2 * DAY).toISOString(),
  };
  /** Since the holdout: the AI landing won and was rolled out everywhere, a route was added. */
  const SHIPPED_SINCE = new Date(now - DAY).toISOString();
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

  /** The first id of a fixed series that the holdout puts in `group` (the worker's own draw). */
  function idIn(group: 'held_out' | 'measured'): string {
    for (let n = 1; ; n++) {
      const id = `62000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
      if (holdoutGroup(HOLDOUT, id, now) === group) return id;
    }
  }

  beforeEach(async () => {
    const winner = { ...rolledOutLanding(now), audience: {}, startedAt: SHIPPED_SINCE };
    const document: ExperimentsDocument = {
      version: 'holdout',
      holdout: HOLDOUT,
      experiments: { 'lp-ai': winner },
    };
    await session.worker.putConfig('experiments', document);
    await session.worker.putConfig('routing', SPRING_ROUTING);
  });
  afterAll(() => session?.worker.deleteConfig('routing'));

  /** A visitor with `visitorId` walking from the spring link to the checkout: what they saw. */
  async function walk(visitorId: string) {
    const { context, page, problems } = await session.newVisitor({ reducedMotion: 'reduce' });
    await context.addCookies([
      { name: 'userUuid', value: visitorId, url: session.worker.url.href },
    ]);
    await page.goto('/?r=spring');
    await interactive(page);
    const landing = await page.locator('h1').textContent();
    await page.locator('input[type="tel"]').fill('415 555 2671');
    await page.locator('#continue-button').click();
    await arriveAt(page, '/searching');
    await page.locator('#continue-button:not([disabled])').click({ timeout: PATIENCE_MS });
    await arriveAt(page, '/signup');
    await submitEmail(page, uniqueEmail('holdout'));
    await page.waitForURL((url) => url.pathname.startsWith('/checkout_'), {
      timeout: PATIENCE_MS,
    });
    await interactive(page);
    const route = unsigned((await context.cookies()).find((c) => c.name === 'gf_route')?.value);
    const seen = { landing, route: route?.split('.')[0], checkout: pathOf(page.url()) };
    expect(problems).toEqual([]);
    await context.close();
    return seen;
  }

  // slow: two visitors walk the funnel to the paywall and past it in Chromium
  it('a held-out visitor sees the control everywhere; a measured one the shipped winner', async () => {
    expect(await walk(idIn('held_out'))).toEqual({
      landing: CLASSIC_TITLE,
      route: 'default',
      checkout: '/checkout_v3_tr',
    });
    expect(await walk(idIn('measured'))).toEqual({
      landing: AI_TITLE,
      route: 'spring',
      checkout: '/checkout_h3_pp',
    });
  });
});
