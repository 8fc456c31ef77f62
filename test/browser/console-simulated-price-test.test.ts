import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METRIC_NAMES, verdictWord } from '../../console/kit/result-texts';
import { runExperimentsCli } from '../../scripts/experiments-cli';
import type { ExperimentDocument, ExperimentsDocument } from '../../shared/config/experiments';
import type { ExperimentResultsAnswer } from '../../shared/console-api/experiment-results';
import { CONSOLE_EXPERIMENTS_PATH } from '../../shared/console-api/experiment-results';
import { printedBy } from '../fixtures/printed';
import { click, consoleFetch } from './console-steps';
import { type BrowserSession, startBrowserSession } from './harness';

/**
 * docs/statistics.md "Trying the results page locally", in Chromium against the built
 * development worker: a price test in the live config, filled by `npm run experiments --
 * simulate` (the command itself, asking this worker's development route), and its verdict read
 * in the console by mouse only: the Experiments page, the experiment's
 * Results button (which opens the experiment's own page), each variant's mature sample, the
 * primary metric's verdict, the page speed of the visitors it sampled, and a segment view picked
 * from the list. The console is opened at the Experiments page's own address.
 *
 * 25 to 35 s alone on two busy cores: a workerd of its own starts, and the run writes 3,000
 * visitors, as few as still mature the planned 300 per arm for a verdict.
 */

const PRICE_TEST: ExperimentDocument = {
  name: 'Paywall: 3-day intro at 2.99',
  status: 'running',
  layer: 'paywall',
  audience: {},
  coverage: 1,
  seed: 'pw-price-sim',
  phase: 1,
  control: 'current',
  variants: {
    current: { name: 'Current plans', weight: 1, change: {} },
    cheap: { name: '3-day intro', weight: 1, change: { plans: ['monthly_3d_intro', 'quarterly'] } },
  },
  // A planned sample a run of a few thousand visitors matures.
  metrics: { primary: 'mature_revenue', plannedPerArm: 300 },
};

let session: BrowserSession;

beforeAll(async () => {
  // As `npm start -- --var VITALS_SAMPLE_RATE:1`: every simulated visitor reports page speed.
  session = await startBrowserSession({ bindings: { VITALS_SAMPLE_RATE: '1' } });
  const experiments: ExperimentsDocument = {
    version: 'sim',
    experiments: { 'pw-price': PRICE_TEST },
  };
  await session.worker.putConfig('experiments', experiments);
});
afterAll(() => session?.stop());

/** The command as a marketer types it, against this worker; what it printed. */
async function simulate(...args: string[]): Promise<string> {
  const { code, printed } = await printedBy(() =>
    runExperimentsCli(['simulate', ...args, '--port', session.worker.url.port]),
  );
  expect(code, printed.join('\n')).toBe(0);
  return printed.join('\n');
}

describe('a simulated price test in the console, by mouse', () => {
  // slow: the experiments CLI writes 3,000 simulated visitors before the console reads the verdict
  it('shows each variant’s mature sample and the verdict on mature net revenue', async () => {
    const printed = await simulate(
      'pw-price',
      '--visitors',
      '3000',
      '--seed',
      '5',
      '--rates',
      'cheap:purchase=0.4',
    );
    expect(printed).toContain('Simulated 3000 visitors of "pw-price"');

    const context = await session.browser.newContext({
      baseURL: session.worker.url.href,
      viewport: { width: 1280, height: 900 },
    });
    const page = await context.newPage();
    await page.goto('/console/experiments');
    // By mouse: Playwright's click moves the pointer to the button's centre and fails when
    // another element would take the click there.
    await page.getByRole('heading', { level: 2, name: 'Experiments', exact: true }).waitFor();
    const experiments = page.getByRole('region', { name: 'Experiments', exact: true });
    await click(
      experiments.getByRole('button', { name: 'Results of Paywall: 3-day intro at 2.99' }),
    );
    // The results are on the experiment's own page, an address a colleague can be sent.
    await page.waitForURL((url) => url.pathname === '/console/experiments/pw-price');
    const results = experiments.locator('.experiment-results');
    await results
      .getByRole('heading', { name: 'Results of Paywall: 3-day intro at 2.99' })
      .waitFor();
    await results.locator('.result-card').first().waitFor();

    const answer = await consoleFetch<ExperimentResultsAnswer>(
      session,
      `${CONSOLE_EXPERIMENTS_PATH}/pw-price/results`,
    );
    expect(answer.awaitingMatureSample).toBe(false);
    await expect.poll(() => results.locator('.mature-notice').count()).toBe(0);

    const cheap = results.getByRole('article', { name: '3-day intro' });
    const shown = answer.variants.find((variant) => variant.variant === 'cheap')!;
    expect(shown.matureExposed).toBeGreaterThanOrEqual(300);
    await expect
      .poll(() => cheap.textContent())
      .toContain(`${shown.matureExposed.toLocaleString('en-US')} of them in the mature sample`);
    const primary = cheap.locator('tr.results-table__primary');
    await expect
      .poll(() => primary.locator('th').textContent())
      .toContain(METRIC_NAMES.mature_revenue);
    const verdict = shown.metrics.find((metric) => metric.metric === 'mature_revenue')!.verdict;
    expect(verdict).toBe('better');
    await expect.poll(() => primary.textContent()).toContain(verdictWord('better'));

    // Page speed: the sampled visitors' field vitals the run wrote, in the variant's card.
    expect(printed).toContain("Field vitals (the results' page speed; the vitals column)");
    const lcp = shown.vitals.find((vital) => vital.metric === 'lcp')!;
    expect(lcp.samples).toBeGreaterThan(0);
    const loading = cheap.locator('tr', { hasText: 'Largest Contentful Paint' });
    await expect
      .poll(() => loading.textContent())
      .toContain(`${Math.round(lcp.p75!).toLocaleString('en-US')} ms`);
    expect(await loading.textContent()).toContain(lcp.samples.toLocaleString('en-US'));

    // The segments: picked from the list with the mouse, the countries' levels shown.
    const segment = results.getByLabel('Split the results by');
    await segment.click();
    await segment.selectOption('country');
    await results.locator('caption', { hasText: 'country US' }).waitFor();
    const countries = await consoleFetch<ExperimentResultsAnswer>(
      session,
      `${CONSOLE_EXPERIMENTS_PATH}/pw-price/results?segment=country`,
    );
    const levels = countries.segment!.levels.map((level) => `country ${level.level}`);
    expect(levels.length).toBeGreaterThan(1);
    expect(await results.locator('caption').allTextContents()).toEqual(levels);
    await context.close();
  });
});
