import { createRequire } from 'node:module';
import type { AxeResults } from 'axe-core';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONSOLE_API,
  CONSOLE_RESULTS_PATH,
  type ConsoleState,
  type PublishRequest,
  type ResultsAnswer,
} from '../../shared/console-api';
import { type BrowserSession, startBrowserSession } from './harness';
import { payButton, typeTestCard } from './money-path';
import { interactive, submitEmail, uniqueEmail } from './visitor-steps';

/**
 * The results page in Chromium after real visitors went through the built worker: a 50/50 split
 * of two variants on the default flow, four visitors drawn, one of them signing up and buying
 * with the test card, and one known bot. The page shows exactly those visitors and that
 * purchase, as the JSON says; axe finds nothing serious, and the keyboard reaches the phase
 * picker and the CSV download.
 */

const AXE_SOURCE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/**
 * A desktop Chrome's agent: headless Chromium's own says HeadlessChrome, a known bot, and its
 * visitors would be counted apart rather than exposed.
 */
const DESKTOP_CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

let session: BrowserSession;

beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(() => session?.stop());

/** A call to the console's JSON from its own page (same origin, the marketer's session). */
function consoleCall<T>(page: Page, url: string, body?: PublishRequest): Promise<T> {
  return page.evaluate(
    async ({ url, body }) => {
      const response = await fetch(url, {
        method: body ? 'POST' : 'GET',
        headers: body ? { 'content-type': 'application/json' } : {},
        body: body ? JSON.stringify(body) : undefined,
      });
      return response.json();
    },
    { url, body },
  );
}

/** A visitor opening `/` (drawn and exposed there); their context, page and variant. */
async function visitor(userAgent?: string) {
  const context = await session.browser.newContext({
    baseURL: session.worker.url.href,
    ...(userAgent ? { userAgent } : {}),
  });
  const page = await context.newPage();
  await page.goto('/');
  const cookies = await context.cookies();
  const variant = cookies.find((cookie) => cookie.name === 'gf_variant')?.value ?? '';
  return { context, page, variant };
}

/** Presses Tab until the focused element matches `selector`. */
async function tabTo(page: Page, selector: string): Promise<void> {
  for (let press = 0; press < 120; press += 1) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((wanted) => document.activeElement?.matches(wanted), selector)) return;
  }
  throw new Error(`Tab never reached ${selector}`);
}

describe('the results page in Chromium', () => {
  it('shows the visitors, the purchase and the bot the worker counted', async () => {
    // axe is injected without the page's nonce: this context alone bypasses the CSP.
    const marketerContext = await session.browser.newContext({
      baseURL: session.worker.url.href,
      bypassCSP: true,
      viewport: { width: 360, height: 740 },
    });
    const marketer = await marketerContext.newPage();
    await marketer.goto('/console');
    await marketer.getByRole('heading', { level: 2, name: 'Results' }).waitFor();

    // Two variants on the default flow's screens, drawn 50/50: a new phase.
    const state = await consoleCall<ConsoleState>(marketer, CONSOLE_API.state);
    const edited = structuredClone(state.live);
    edited.split.variants = { default: { weight: 50 }, lp1ch2: { weight: 50 } };
    const published = await consoleCall<{ ok: boolean }>(marketer, CONSOLE_API.publish, {
      base: state.head?.seq ?? null,
      document: edited,
      note: 'results test',
    });
    expect(published.ok).toBe(true);

    const people = [];
    for (let i = 0; i < 4; i += 1) people.push(await visitor(DESKTOP_CHROME));
    const bot = await visitor();
    await bot.context.close();
    const drawn = people.map((person) => person.variant);
    expect(drawn.every((variant) => variant === 'default' || variant === 'lp1ch2')).toBe(true);

    // The first signs up and pays with the test card.
    const buyer = people[0]!;
    await buyer.page.goto('/signup');
    await interactive(buyer.page);
    await submitEmail(buyer.page, uniqueEmail('results'));
    await buyer.page.waitForURL((url) => url.pathname === '/checkout_v3_tr', { timeout: 20_000 });
    await interactive(buyer.page);
    await typeTestCard(buyer.page, '4242 4242 4242 4242');
    await payButton(buyer.page).click();
    await buyer.page.waitForURL((url) => url.pathname === '/upsell_an_private', {
      timeout: 20_000,
    });
    for (const person of people) await person.context.close();

    // The sign-up and checkout arrive through the event queue: the JSON is asked until they have.
    const arm = (answer: ResultsAnswer, variant: string) =>
      answer.variants.find((result) => result.variant === variant);
    const count = (answer: ResultsAnswer, variant: string, metric: string) =>
      arm(answer, variant)?.metrics.find((result) => result.metric === metric)?.count;
    let answer = await consoleCall<ResultsAnswer>(marketer, CONSOLE_RESULTS_PATH);
    await expect
      .poll(
        async () => {
          answer = await consoleCall<ResultsAnswer>(marketer, CONSOLE_RESULTS_PATH);
          return ['signup', 'checkout', 'purchase'].map((m) => count(answer, buyer.variant, m));
        },
        { timeout: 20_000, interval: 500 },
      )
      .toEqual([1, 1, 1]);
    for (const variant of ['default', 'lp1ch2']) {
      expect(arm(answer, variant)?.exposed).toBe(drawn.filter((v) => v === variant).length);
    }
    expect(answer.variants.reduce((sum, result) => sum + result.bots, 0)).toBe(1);
    const revenue = arm(answer, buyer.variant)?.metrics.find((m) => m.metric === 'revenue');
    expect(revenue?.count).toBe(1);
    expect(revenue?.mean).toBeGreaterThan(0);

    // The page, loaded afresh, says the same.
    await marketer.reload();
    const results = marketer.getByRole('region', { name: 'Results' });
    await results.getByRole('article').first().waitFor();
    for (const variant of ['default', 'lp1ch2']) {
      const card = results.getByRole('article', { name: new RegExp(`^${variant}`) });
      const exposed = drawn.filter((v) => v === variant).length;
      expect(await card.getByText(/visitors exposed/).textContent()).toMatch(
        new RegExp(`^${exposed} visitors exposed, 50% of new visitors`),
      );
    }
    const buyerTable = results.getByRole('table', {
      name: buyer.variant === 'default' ? 'default (control)' : 'lp1ch2 against default',
      exact: true,
    });
    const purchaseRow = buyerTable.getByRole('row', { name: /^Purchase/ });
    expect(await purchaseRow.getByRole('cell').first().textContent()).toBe('1');
    expect(await results.getByText(/Split healthy: |The split is broken: /).count()).toBe(1);
    expect(await results.getByText(/known bot not counted/).count()).toBe(1);

    // Nothing serious for assistive technology, and no sideways scrolling on the phone.
    await marketer.addScriptTag({ path: AXE_SOURCE });
    const axe = (await marketer.evaluate(() =>
      (window as unknown as { axe: typeof import('axe-core') }).axe.run(document, {
        resultTypes: ['violations'],
      }),
    )) as AxeResults;
    const serious = axe.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => `${violation.id}: ${violation.nodes.map((n) => n.target).join(', ')}`);
    expect(serious).toEqual([]);
    expect(
      await marketer.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      ),
    ).toBe(0);

    // The keyboard reaches the phase picker, then the CSV of the phase shown.
    await marketer.getByRole('heading', { level: 2, name: 'Results' }).click();
    await tabTo(marketer, '#results select');
    await tabTo(marketer, '#results a[download]');
    const csvLink = marketer.getByRole('link', { name: /^Download CSV/ });
    expect(await csvLink.evaluate((link) => link === document.activeElement)).toBe(true);
    const href = (await csvLink.getAttribute('href')) ?? '';
    expect(href).toBe(`${CONSOLE_RESULTS_PATH}?format=csv&phase=${answer.phase}`);
    const csv = await marketer.evaluate(async (url) => {
      const response = await fetch(url);
      return { type: response.headers.get('content-type'), text: await response.text() };
    }, href);
    expect(csv.type).toMatch(/^text\/csv/);
    expect(csv.text).toContain('lp1ch2');
    await marketerContext.close();
  });
});
