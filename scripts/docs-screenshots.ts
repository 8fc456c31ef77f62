import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium, type Locator, type Page } from 'playwright-core';
import {
  AD_COSTS_CSV_TYPE,
  CONSOLE_API,
  type ConfigDocument,
  type ConsoleState,
} from '../shared/console-api/config';
import { type CONSOLE_AREAS, consolePath } from '../shared/console-api/pages';
import { startBuiltWorker } from './built-worker';
import { CHROMIUM_FLAGS, TEST_CHROMIUM_PATH } from './chromium';
import { photographJourney } from './docs-journey';
import { browserFetch, openPage } from './load/journey';

/**
 * `npm run docs:screenshots`: the pictures of README.md and docs/, made, never pasted. Starts the
 * built development worker (npm run build first), walks one visitor through the funnel for the
 * README's journey (docs-journey.ts), publishes an example config through the console's own API,
 * sends a few visitors through the routes so the map has counts, and photographs the console's
 * pages into docs/images/. Nothing in the pictures is edited by hand.
 */

const IMAGES = fileURLToPath(new URL('../docs/images/', import.meta.url));

const PHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 musical_ly_34.1.0 JsSdk/2.0 NetType/WIFI Channel/App Store ByteLocale/de Region/DE';
const DESKTOP =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';

/**
 * The examples' guarded ramps, as docs/routes.md's example writes one: three steps of a day
 * each, started now.
 */
const EXAMPLE_RAMP = {
  steps: [
    { coverage: 0.05, holdHours: 24, minPerArm: 500 },
    { coverage: 0.25, holdHours: 24, minPerArm: 2000 },
    { coverage: 0.5, holdHours: 24, minPerArm: 0 },
  ],
  state: { step: 0, since: new Date().toISOString(), status: 'running' as const },
};

/**
 * docs/routes.md's example: TikTok ads from the DACH countries, a Black Friday link, a new Meta
 * ads route on a guarded ramp, the rest.
 */
const EXAMPLE_ROUTING: ConfigDocument['routing'] = {
  version: 'docs',
  audiences: {
    tiktok_dach: {
      label: 'TikTok ads in DE, AT, CH',
      groups: [
        [
          { attribute: 'source', operator: 'in', values: ['tiktok'] },
          { attribute: 'country', operator: 'in', values: ['DE', 'AT', 'CH'] },
        ],
      ],
    },
    black_friday: {
      label: 'The Black Friday link',
      groups: [[{ attribute: 'entry', operator: 'equals', values: ['bf26'] }]],
    },
    meta_ads: {
      label: 'Meta ads',
      groups: [[{ attribute: 'source', operator: 'in', values: ['meta'] }]],
    },
  },
  routes: [
    {
      id: 'tiktok_dach',
      audience: 'tiktok_dach',
      flow: 'lp17ch17pr5',
      plans: ['monthly', 'quarterly'],
    },
    {
      id: 'black_friday',
      audience: 'black_friday',
      flow: 'lp11ch8',
      schedule: { from: '2026-11-27T00:00Z', until: '2026-12-01T00:00Z' },
    },
    // docs/routes.md, "A new route on a ramp": photographed on its card (photographRouteRamp).
    {
      id: 'meta_new',
      audience: 'meta_ads',
      flow: 'lp17ch17pr5',
      ramp: EXAMPLE_RAMP,
    },
    { id: 'default', flow: 'default' },
  ],
};

/** Two running experiments in two layers, so the results and experiments pages have rows. */
const EXAMPLE_EXPERIMENTS: ConfigDocument['experiments'] = {
  version: 'docs',
  experiments: {
    'price-us': {
      name: 'Price: 3-day intro',
      hypothesis: 'A cheaper 3-day intro brings more net revenue once renewals are in.',
      status: 'running',
      layer: 'paywall',
      range: [0, 0.5],
      audience: { routes: ['default'] },
      coverage: 1,
      seed: 'docs-price',
      control: 'a',
      variants: {
        a: { weight: 1, change: {} },
        b: { weight: 1, change: { plans: ['monthly_3d_intro', 'quarterly'] } },
      },
      metrics: { primary: 'mature_revenue', plannedPerArm: 5000 },
    },
    'landing-dach': {
      name: 'AI landing for TikTok DACH',
      status: 'running',
      layer: 'landing',
      audience: { routes: ['tiktok_dach'] },
      coverage: 0.5,
      seed: 'docs-landing',
      control: 'a',
      variants: {
        a: { weight: 1, change: {} },
        b: { weight: 1, change: { screens: { landing: 'one_pager_ai' } } },
      },
      metrics: { primary: 'lookup', plannedPerArm: 10000 },
    },
    // docs/experiments.md, "Guarded ramps": rehearsed in the Alerts area (photographRehearsal).
    'checkout-h3': {
      name: 'Checkout with the plans above the card',
      status: 'running',
      layer: 'paywall',
      range: [0.5, 1],
      audience: { routes: ['default'] },
      coverage: 1,
      seed: 'docs-checkout',
      control: 'a',
      variants: {
        a: { weight: 1, change: {} },
        b: { weight: 1, change: { screens: { paywall: 'checkout_h3_pp' } } },
      },
      ramp: EXAMPLE_RAMP,
    },
  },
};

/** A split of two variants and the example's routes and experiments, on top of what is live. */
function exampleDocument(live: ConfigDocument): ConfigDocument {
  return {
    ...live,
    // Two variants, so the results page has a comparison to show.
    split: {
      ...live.split,
      variants: { default: { weight: 50 }, lp11ch8: { weight: 50 } },
    },
    routing: EXAMPLE_ROUTING,
    experiments: EXAMPLE_EXPERIMENTS,
  };
}

/** Publishes through the console's API from its page, as the console itself does. */
async function publishExample(page: Page): Promise<void> {
  const state = await page.evaluate(
    async (url) => (await (await fetch(url)).json()) as ConsoleState,
    CONSOLE_API.state,
  );
  const status = await page.evaluate(
    async ({ url, body }) =>
      (
        await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      ).status,
    {
      url: CONSOLE_API.publish,
      body: {
        base: state.head?.seq ?? null,
        document: exampleDocument(state.live),
        note: 'docs example',
      },
    },
  );
  if (status !== 200) throw new Error(`publishing the example config answered ${status}`);
}

/**
 * First visits for the map and the results: TikTok ads from Germany, and everyone else, each a
 * new browser from an address of its own, its exposure confirmed as its page script confirms it
 * (scripts/load/journey.ts openPage): a visit whose page never ran is no exposure.
 */
async function sendVisitors(origin: string): Promise<void> {
  const visit = (path: string, country: string, userAgent: string, index: number) => {
    const visitor = browserFetch({
      origin,
      address: `198.51.100.${index + 1}`,
      firstVisit: true,
      headers: { 'user-agent': userAgent, 'MF-CF-Blob': JSON.stringify({ country }) },
    });
    return openPage(visitor.fetch, path);
  };
  const visits: Promise<unknown>[] = [];
  for (let i = 0; i < 7; i++)
    visits.push(visit(`/?ttclid=E.C.P.${i}&utm_source=tiktok&utm_campaign=dach`, 'DE', PHONE, i));
  for (let i = 0; i < 40; i++) visits.push(visit('/', 'US', DESKTOP, 7 + i));
  await Promise.all(visits);
}

/**
 * docs/marketers.md, "The funnel by campaign": the visitors sent, with the day's ad costs of the
 * TikTok campaign imported as a marketer's file is (POST text/csv, as the page sends it).
 */
async function photographFunnel(page: Page, origin: string): Promise<void> {
  const day = new Date().toISOString().slice(0, 10);
  const imported = await fetch(new URL(CONSOLE_API.adCosts, origin), {
    method: 'POST',
    headers: { origin, 'sec-fetch-site': 'same-origin', 'content-type': AD_COSTS_CSV_TYPE },
    body: `day,source,campaign,currency,amount\n${day},tiktok,dach,EUR,35.00\n`,
  });
  if (!imported.ok) throw new Error(`the ad costs' import answered ${imported.status}`);
  const funnel = await openArea(page, 'Funnel by campaign');
  await funnel.getByRole('table', { name: 'Campaigns, every route' }).waitFor();
  await funnel.screenshot({ path: `${IMAGES}console-funnel.png` });
}

/**
 * Opens an area's page by its link in the console's navigation, as a marketer does, and gives
 * its region once drawn: the console is a page per area (shared/console-api/pages.ts).
 */
async function openArea(
  page: Page,
  title: (typeof CONSOLE_AREAS)[keyof typeof CONSOLE_AREAS]['title'],
): Promise<Locator> {
  const nav = page.getByRole('navigation', { name: 'Sections' });
  // "Alerts" carries its count of new alerts after its name.
  await nav.getByRole('link', { name: new RegExp(`^${title}\\b`) }).click();
  await page.getByRole('heading', { level: 2, name: title, exact: true }).waitFor();
  return page.getByRole('region', { name: title, exact: true });
}

/**
 * The content editor with a headline being changed and the reviews moved above the form, the
 * phone preview beside it: its top, where a marketer starts.
 */
async function photographContentEditor(page: Page): Promise<void> {
  const content = page.getByRole('region', { name: 'Content' });
  const phone = page.frameLocator('iframe[title$="phone width"]');
  // What every visitor sees, after the variant photographed before.
  await content.getByLabel('Version').selectOption('');
  await phone.locator('h1').waitFor();
  await content.scrollIntoViewIfNeeded();
  await content.getByLabel('screens.one_pager.title').fill('See your family on one map');
  await content.getByRole('button', { name: /^Reviews, position/ }).focus();
  for (const _ of [1, 2, 3, 4, 5]) await page.keyboard.press('Alt+ArrowUp');
  await phone.locator('h1', { hasText: 'See your family on one map' }).waitFor();
  await phone.locator('.landing-section__title').first().waitFor();
  // The box is where the viewport shows it; a full-page clip takes page coordinates, and the
  // page goes back to its top so the sticky preview stands where it starts.
  await page.screenshot({
    path: `${IMAGES}console-content.png`,
    fullPage: true,
    clip: await contentClip(page, content, 1150),
  });
}

/** The clip of the content editor, from its top, at most `height` tall, in page coordinates. */
async function contentClip(page: Page, content: Locator, height: number) {
  const box = await content.boundingBox();
  if (!box) throw new Error('the content editor is not on the page');
  const scrolled = await page.evaluate<number>('window.scrollY');
  await page.evaluate('window.scrollTo(0, 0)');
  return { x: box.x, y: box.y + scrolled, width: box.width, height: Math.min(box.height, height) };
}

/**
 * A content test's variant b being made: a new version of the landing, its own headline, the
 * reviews above the form, in the phone preview (docs/experiments.md, "A content test").
 */
async function photographContentVariant(page: Page): Promise<void> {
  // A fresh console: the decision dialog photographed before it is left open.
  await page.goto(consolePath('content'));
  const content = page.getByRole('region', { name: 'Content' });
  const phone = page.frameLocator('iframe[title$="phone width"]');
  await phone.locator('h1').waitFor();
  await content.scrollIntoViewIfNeeded();
  await content.getByLabel('New variant').fill('testimonials_first');
  await content.getByRole('button', { name: 'Create', exact: true }).click();
  await content.getByLabel('screens.one_pager.title').fill('Know your family is safe');
  for (const _ of [1, 2, 3, 4, 5]) {
    await content.getByRole('button', { name: 'Move up: Reviews' }).click();
  }
  await phone.locator('h1', { hasText: 'Know your family is safe' }).waitFor();
  await page.screenshot({
    path: `${IMAGES}console-content-variant.png`,
    fullPage: true,
    clip: await contentClip(page, content, 1000),
  });
}

/**
 * A guarded ramp's rollback rehearsed from the console alone (docs/experiments.md, "Guarded
 * ramps"): test traffic with the variant's payments declined, the 15-minute check run now, and
 * the Alerts page with what it did and the rollback's alert in the inbox.
 */
async function photographRehearsal(page: Page): Promise<void> {
  await page.goto(consolePath('alerts'));
  const alerts = page.getByRole('region', { name: 'Alerts' });
  const form = alerts.getByRole('form', { name: 'Send test traffic' });
  await form.getByLabel('Experiment').selectOption('checkout-h3');
  await form.getByLabel('Visitors', { exact: true }).fill('2000');
  await form
    .getByRole('group', { name: 'Variant b' })
    .getByLabel('Declined payments, % of those reaching the checkout')
    .fill('60');
  await form.getByRole('button', { name: 'Send test traffic' }).click();
  await form.getByText(/^Sent 2,000 test visitors/).waitFor({ timeout: 120_000 });
  await alerts.getByRole('button', { name: 'Check the guardrails now' }).click();
  await alerts.getByText(/^Checked just now: 1 guarded ramp moved/).waitFor({ timeout: 60_000 });
  await alerts
    .getByText(/rolled back/)
    .first()
    .waitFor();
  await alerts.screenshot({ path: `${IMAGES}console-alerts-rehearsal.png` });
  const overview = page.locator('#overview');
  await page.goto(consolePath('overview'));
  await overview.getByText(/Guarded ramp rolled back by guardrail: /).waitFor();
  await overview.getByRole('list', { name: 'Live experiments' }).screenshot({
    path: `${IMAGES}console-overview-status.png`,
  });
}

/**
 * The Experiments page (docs/experiments.md): the layers, the list by status, a price test being
 * created, the same started on a guarded ramp, and the decision that ends one.
 */
async function photographExperiments(page: Page): Promise<void> {
  const experiments = await openArea(page, 'Experiments');
  const area = (heading: string) =>
    experiments.locator('.block', {
      has: page.getByRole('heading', { name: heading, exact: true }),
    });
  await area('Layers').screenshot({ path: `${IMAGES}console-experiment-layers.png` });
  await experiments.locator('.experiment-groups').screenshot({
    path: `${IMAGES}console-experiment-list.png`,
  });
  await experiments.getByLabel('Experiment name').fill('Price: 5-day intro');
  await experiments.getByRole('checkbox', { name: 'black_friday' }).check();
  await experiments.getByRole('checkbox', { name: /^monthly_5d_intro:/ }).check();
  await area('Create an experiment').screenshot({
    path: `${IMAGES}console-experiment-create.png`,
  });
  // docs/experiments.md, "Guarded ramps": the same form started on the careful schedule.
  await experiments.getByRole('checkbox', { name: 'Start on a guarded ramp' }).check();
  await experiments.getByLabel('Fill the steps from a schedule').selectOption('careful');
  await experiments.locator('.ramp-fields').screenshot({
    path: `${IMAGES}console-experiment-ramp.png`,
  });
  await experiments
    .getByRole('button', { name: 'End Price: 3-day intro with a decision…' })
    .click();
  const decision = page.getByRole('dialog', { name: 'End Price: 3-day intro' });
  await decision.getByRole('radio', { name: /^Inconclusive/ }).check();
  await decision.getByRole('radio', { name: /^Roll variant b out/ }).check();
  await decision.getByLabel('Reason (required)').waitFor();
  await decision.screenshot({ path: `${IMAGES}console-experiment-decision.png` });
}

async function main(): Promise<void> {
  await mkdir(IMAGES, { recursive: true });
  const worker = await startBuiltWorker({ quiet: true });
  const browser = await chromium.launch({
    executablePath: TEST_CHROMIUM_PATH,
    args: CHROMIUM_FLAGS,
  });
  try {
    await photographJourney(browser, worker.url.origin, IMAGES);
    const page = await browser.newPage({
      baseURL: worker.url.href,
      viewport: { width: 1100, height: 900 },
      deviceScaleFactor: 1,
    });
    await page.goto(consolePath('overview'));
    const overview = page.locator('#overview');
    await overview.getByRole('heading', { name: 'Overview' }).waitFor();
    await publishExample(page);
    await sendVisitors(worker.url.origin);
    await page.reload();
    await overview
      .getByRole('list', { name: 'Live experiments' })
      .getByText('Price: 3-day intro')
      .waitFor();
    await overview.screenshot({ path: `${IMAGES}console-overview.png` });

    const results = await openArea(page, 'Results');
    await results.locator('.result-card').first().waitFor();
    await results.screenshot({ path: `${IMAGES}console-results.png` });

    const traffic = await openArea(page, 'Traffic');
    await traffic.getByRole('article', { name: /tiktok_dach/ }).waitFor();
    // The map's counts and each route's screens, once the worker has answered them.
    const asking = traffic.getByText(/^(Counting first visits|Reading what its visitors get)…$/);
    while ((await asking.count()) > 0) await asking.first().waitFor({ state: 'detached' });
    const block = (heading: string) =>
      traffic.locator('.block', { has: page.getByRole('heading', { name: heading, exact: true }) });
    await block('Traffic map').screenshot({ path: `${IMAGES}console-traffic-map.png` });
    await block('Audiences').screenshot({ path: `${IMAGES}console-audience-editor.png` });
    // docs/routes.md, "A new route on a ramp": where it stands, with Hold and Roll back.
    const routeRamp = traffic.getByRole('region', { name: 'Guarded ramp of route meta_new' });
    await routeRamp.getByRole('button', { name: /^Hold the ramp/ }).waitFor();
    await routeRamp.screenshot({ path: `${IMAGES}console-route-ramp.png` });

    await traffic
      .getByLabel('Ad link')
      .fill('https://funnel.example/?utm_source=tiktok&utm_campaign=dach&ttclid=E.C.P.x1');
    await traffic.getByLabel('Visitor’s country').selectOption({ label: 'Germany (DE)' });
    await traffic.getByRole('button', { name: 'Test visitor' }).click();
    await traffic.locator('.route-test__answer').waitFor();
    await block('Test a visitor').screenshot({ path: `${IMAGES}console-test-visitor.png` });

    await photographFunnel(page, worker.url.origin);
    await photographExperiments(page);
    await photographContentVariant(page);
    await photographContentEditor(page);
    await photographRehearsal(page);
    console.log(
      `wrote journey, console-overview, console-results, console-traffic-map, console-audience-editor, console-route-ramp, console-test-visitor, console-funnel, console-experiment-* (with -ramp), console-content, console-content-variant, console-alerts-rehearsal, console-overview-status to ${IMAGES}`,
    );
  } finally {
    await browser.close();
    await worker.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
