import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExperimentDocument, ExperimentsDocument } from '../../shared/config/experiments';
import {
  CONSOLE_EXPERIMENTS_PATH,
  type ExperimentResultsAnswer,
} from '../../shared/console-api/experiment-results';
import { parsePins } from '../../worker/experiments/assignment/assign';
import { aiLandingTest } from '../fixtures/ai-landing-test';
import { unsigned } from '../fixtures/signed-cookies';
import { type BrowserSession, startBrowserSession } from './harness';
import { PATIENCE_MS } from './patience';
import { interactive, submitEmail, uniqueEmail } from './visitor-steps';

/**
 * Two experiments at once, in Chromium, against the built worker: a landing test and a paywall
 * price test in two layers. One visitor walks both, each exposing and pinning them (`gf_x`)
 * where its variants first differ; the page whose next screen exposes no one has Chromium
 * prefetch it, and the page before the checkout leaves it out of its speculation rules, so the
 * move there reaches the worker; each page that exposes the visitor sends its ticket back once
 * hydrated, the others send nothing, and the exposures the pages confirm are counted. What a
 * request gets back on each page, a resume link, skip_split, previews and the holdout are the
 * worker's (test/worker/experiments/layers.test.ts, experiment-walks.test.ts).
 *
 * Each test's variant gets all the weight (the control none, as a paused arm): the walk is
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
const AI_TITLE = 'AI-powered phone location';
const PRICE_TEST_PLANS = ['monthly_3d_intro_usd', 'quarterly_usd'];

let session: BrowserSession;
beforeAll(async () => {
  session = await startBrowserSession();
  await putExperiments({ 'lp-ai': LANDING_TEST, 'pw-price': PRICE_TEST });
});
afterAll(async () => {
  await session?.worker.deleteConfig('experiments');
  await session?.stop();
});

function putExperiments(experiments: Record<string, ExperimentDocument>): Promise<void> {
  const document: ExperimentsDocument = { version: 'walks', experiments };
  return session.worker.putConfig('experiments', document);
}

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

/** The experiment's results as the console reads them from the worker. */
async function resultsOf(id: string): Promise<ExperimentResultsAnswer> {
  const response = await fetch(
    new URL(`${CONSOLE_EXPERIMENTS_PATH}/${id}/results`, session.worker.url),
  );
  expect(response.status).toBe(200);
  return (await response.json()) as ExperimentResultsAnswer;
}

describe('two experiments in two layers, in Chromium', () => {
  // slow: one visitor walks the landing, the lookup, the sign-up and the checkout in Chromium,
  // then the results are polled until the exposures their pages confirmed are counted
  it('both run for one visitor, each pinned on the page where it acts, and are counted', async () => {
    // A person, as their browser says (headless Chromium's own user agent is counted as a bot,
    // apart); reduced motion: the search runs 0.9 s rather than 6.
    const { context, page, problems } = await session.newVisitor({
      reducedMotion: 'reduce',
      userAgent: DESKTOP_CHROME,
    });
    const fromLanding = session.worker.logs.length;
    await page.goto('/');
    await interactive(page);
    // The landing test acts on the first screen: its variant shows, pinned from that page on.
    expect(await page.locator('h1').textContent(), 'the landing variant').toBe(AI_TITLE);
    expect(await pinsOf(context), 'pinned on the landing').toEqual([['lp-ai', 'ai']]);
    // Hydrated, the page sent its exposure ticket back once, and the worker took it: the
    // exposure counts from now (the worker's side, a page fetched by a script that runs none of
    // it left unconfirmed: test/worker/experiments/exposure-confirmation.test.ts).
    await expect
      .poll(() =>
        requestLines(fromLanding, '/e/exposure').map((line) => [line.status, line.confirmed]),
      )
      .toEqual([[204, 1]]);

    await page.locator('input[type="tel"]').fill('415 555 2671');
    const fromSearching = session.worker.logs.length;
    await page.locator('#continue-button').click();
    await arriveAt(page, '/searching');
    // The sign-up exposes no one: the searching page prefetches it, which Chromium does, and
    // the prefetch pins nothing new.
    expect((await speculated(page)).map(pathOf), 'the searching page prefetches').toEqual([
      '/signup',
    ]);
    await expect
      .poll(() => requestLines(fromSearching, '/signup').some((line) => line.prefetch === true))
      .toBe(true);
    expect(await pinsOf(context), 'pins after the prefetch').toEqual([['lp-ai', 'ai']]);
    await page.locator('#continue-button:not([disabled])').click({ timeout: PATIENCE_MS });
    await arriveAt(page, '/signup');
    // Every variant of the price test has shown the same so far: not exposed, not pinned.
    expect(await pinsOf(context), 'pins on the sign-up').toEqual([['lp-ai', 'ai']]);
    const rules = await speculated(page);

    const fromSignup = session.worker.logs.length;
    await submitEmail(page, uniqueEmail('two-layers'));
    await arriveAt(page, '/checkout_v3_tr');
    // One request for the checkout, the visitor's own, and it exposed them. Had the sign-up
    // page fetched it ahead, Chromium would have shown that copy: no exposure, no pin.
    expect(rules.map(pathOf), 'the sign-up page fetches the checkout ahead').not.toContain(
      '/checkout_v3_tr',
    );
    expect(requestLines(fromSignup, '/checkout_v3_tr')).toEqual([
      expect.objectContaining({ method: 'GET', status: 200, exposed: 'pw-price' }),
    ]);
    expect(requestLines(fromSignup, '/checkout_v3_tr')[0]).not.toHaveProperty('prefetch');
    expect(await offeredPlans(page), 'the price variant’s plans').toEqual(PRICE_TEST_PLANS);
    expect(await pinsOf(context), 'pinned on the checkout').toEqual([
      ['lp-ai', 'ai'],
      ['pw-price', 'cheap'],
    ]);
    // Pinned now, the sign-up page still fetches nothing ahead (the sign-in changes the next
    // page): its rules, which the page's script adds as the searching page's above, are the
    // worker's (test/worker/experiments/layers.test.ts, speculation rules).
    expect(problems).toEqual([]);
    await context.close();

    // Each page's script confirmed its exposures: the landing test counts the visitor from the
    // landing, the price test from the checkout, where it acts (one who stops before it is not
    // counted: test/worker/experiments/experiment-results-route.test.ts).
    await expect
      .poll(async () => (await resultsOf('lp-ai')).reach.exposed, { timeout: PATIENCE_MS })
      .toBe(1);
    await expect
      .poll(async () => (await resultsOf('pw-price')).reach.exposed, { timeout: PATIENCE_MS })
      .toBe(1);
    // The landing's ticket and the checkout's: the searching and sign-up pages, which exposed
    // no one, carried none and sent nothing.
    expect(requestLines(fromLanding, '/e/exposure')).toHaveLength(2);
    const answer = await resultsOf('pw-price');
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
