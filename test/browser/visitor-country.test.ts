import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONSOLE_API,
  type ConsoleState,
  type PublishRequest,
} from '../../shared/console-api/config';
import type { RouteTestAnswer, RouteTestRequest } from '../../shared/console-api/routes';
import { planOf } from '../../shared/plans/catalogue';
import { keptRoute } from '../fixtures/signed-cookies';
import { TIKTOK_DACH_ROUTING as ROUTING } from '../fixtures/tiktok-dach-routing';
import { type BrowserSession, startBrowserSession } from './harness';
import { interactive, islandsHydrated } from './visitor-steps';

/**
 * A visitor from DE on a TikTok link, on a worker that is where `wrangler dev` puts every request
 * (`cf.country` "US", as `npm start` offline): a marketer publishes a route for TikTok in
 * Germany in the console, and a visitor whose requests say `CF-IPCountry: DE` (the README's way)
 * walks that route to its plans, in euros, while the same link without the header gets the
 * default route. The console's "test a visitor" preview shows the same plans through its
 * `?country=DE`, keeping nothing.
 */

/** What `wrangler dev` gives every request offline (miniflare's placeholder `request.cf`). */
const WRANGLER_DEV_CF = { country: 'US', timezone: 'America/Chicago', colo: 'DFW' };

const LINK = '/?utm_source=tiktok&ttclid=E.C.P.de1&utm_campaign=bf_de';

let session: BrowserSession;
beforeAll(async () => {
  session = await startBrowserSession({ cf: WRANGLER_DEV_CF });
});
afterAll(() => session?.stop());

/** A call to the console's JSON from its own page (same origin, the marketer's session). */
function consoleCall<T>(page: Page, url: string, body?: unknown): Promise<T> {
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

/** Enters a number on the landing and goes on; resolves with the next screen's path. */
async function continueFromLanding(page: Page, number: string): Promise<string> {
  await interactive(page);
  await page.locator('input[type="tel"]').fill(number);
  await page.locator('#continue-button:not([disabled])').click();
  await page.waitForURL((url) => url.pathname !== '/');
  return new URL(page.url()).pathname;
}

const plain = (text: string | null) => (text ?? '').replace(/\s+/g, ' ');
const euros = (family: 'monthly' | 'quarterly') =>
  `€${(planOf(family, 'EUR').price / 100).toFixed(2)}`;

async function cookiesOf(context: BrowserContext): Promise<Map<string, string>> {
  return new Map((await context.cookies()).map((cookie) => [cookie.name, cookie.value]));
}

/** The route's checkout shows its two plans in euros, not the screen's own offers in dollars. */
async function expectRoutePlansInEuros(page: Page): Promise<void> {
  expect(new URL(page.url()).pathname).toBe('/checkout_v3_pp');
  await islandsHydrated(page);
  const text = plain(await page.locator('main').textContent());
  expect(text).toContain(euros('monthly'));
  expect(text).toContain(euros('quarterly'));
  expect(text).not.toContain('$');
}

describe('a visitor from DE on a TikTok link, as npm start serves it', () => {
  let marketer: Page;

  beforeAll(async () => {
    const context = await session.browser.newContext({ baseURL: session.worker.url.href });
    marketer = await context.newPage();
    await marketer.goto('/console');
    const state = await consoleCall<ConsoleState>(marketer, CONSOLE_API.state);
    const document = structuredClone(state.live);
    document.flows.flows.tiktok_dach = ['one_pager', 'checkout_v3_pp', 'success'];
    document.routing = ROUTING;
    const published = await consoleCall<{ ok: boolean }>(marketer, CONSOLE_API.publish, {
      base: state.head?.seq ?? null,
      document,
      note: 'TikTok in DE, AT, CH',
    } satisfies PublishRequest);
    expect(published.ok).toBe(true);
  });

  it('with CF-IPCountry: DE walks the published TikTok DE route to its plans, in euros', async () => {
    const { context, page, problems } = await session.newVisitor();
    await context.setExtraHTTPHeaders({ 'CF-IPCountry': 'DE' });
    await page.goto(LINK);
    expect(await continueFromLanding(page, '030 901820')).toBe('/checkout_v3_pp');
    await expectRoutePlansInEuros(page);
    const cookies = await cookiesOf(context);
    expect(keptRoute(cookies.get('gf_route'))).toBe('tiktok_dach');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('without the header is where wrangler dev says (US): the default route', async () => {
    const { context, page, problems } = await session.newVisitor();
    await page.goto(LINK);
    expect(await continueFromLanding(page, '415 555 2671')).toBe('/searching');
    expect(keptRoute((await cookiesOf(context)).get('gf_route'))).toBe('default');
    expect(problems).toEqual([]);
    await context.close();
  });

  it("the console's test-a-visitor preview shows the same plans through ?country=DE, keeping nothing", async () => {
    const test: RouteTestRequest = {
      link: `https://funnel.example${LINK}`,
      country: 'DE',
      platform: 'ios',
      app: 'tiktok',
    };
    const answer = await consoleCall<RouteTestAnswer>(marketer, CONSOLE_API.routeTest, test);
    expect(answer.route).toBe('tiktok_dach');
    expect(answer.preview).toMatch(/&country=DE$/);
    const { context, page, problems } = await session.newVisitor();
    await page.goto(answer.preview);
    expect(new URL(page.url()).searchParams.get('country')).toBe('DE');
    await page.getByText('Preview of route').first().waitFor();
    expect(await continueFromLanding(page, '030 901820')).toBe('/checkout_v3_pp');
    await expectRoutePlansInEuros(page);
    const kept = await cookiesOf(context);
    for (const name of ['gf_route', 'gf_touch', 'gf_variant']) expect(kept.has(name)).toBe(false);
    expect(problems).toEqual([]);
    await context.close();
  });
});
