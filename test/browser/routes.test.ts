import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planOf } from '../../shared/plans/catalogue';
import { DEFAULT_FLOWS } from '../../worker/config/defaults';
import { keptRoute } from '../fixtures/signed-cookies';
import { TIKTOK_DACH_ROUTING as ROUTING } from '../fixtures/tiktok-dach-routing';
import { type BrowserSession, startBrowserSession } from './harness';
import { interactive, islandsHydrated } from './visitor-steps';

/**
 * Routes in Chromium: a TikTok ad opened in Germany gets the TikTok route's own
 * funnel, with its own plans, and keeps it for the visit; anyone else gets the default route and
 * the split test, as before routes existed.
 */

const FLOWS = {
  version: 'routes',
  flows: { ...DEFAULT_FLOWS.flows, tiktok_dach: ['one_pager', 'checkout_v3_pp', 'success'] },
};

let session: BrowserSession;
beforeAll(async () => {
  session = await startBrowserSession();
  await session.worker.putConfig('flows', FLOWS);
  await session.worker.putConfig('routing', ROUTING);
});
afterAll(async () => {
  await session?.worker.deleteConfig('routing');
  await session?.worker.deleteConfig('flows');
  await session?.stop();
});

/** The visitor's cookies of ours, by name. */
async function cookiesOf(context: BrowserContext): Promise<Map<string, string>> {
  return new Map((await context.cookies()).map((cookie) => [cookie.name, cookie.value]));
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

describe('routes in Chromium', () => {
  it('a TikTok ad opened in Germany walks the TikTok route, with its plans', async () => {
    const { context, page, problems } = await session.newVisitor();
    await context.setExtraHTTPHeaders({
      'CF-IPCountry': 'DE',
      'MF-CF-Blob': JSON.stringify({ country: 'DE' }),
    });
    await page.goto('/?ttclid=E.C.P.abc&utm_source=tiktok&utm_campaign=bf_de');
    expect(await continueFromLanding(page, '030 901820')).toBe('/checkout_v3_pp');
    await islandsHydrated(page);
    // The route's two plans (39.99 a month, 59.99 a quarter), not the screen's own intro offers.
    const text = plain(await page.locator('main').textContent());
    const priceOf = (family: 'monthly' | 'quarterly') =>
      (planOf(family, 'USD').price / 100).toFixed(2);
    expect(text).toContain(priceOf('monthly'));
    expect(text).toContain(priceOf('quarterly'));
    expect(text).not.toContain('6.99');
    const cookies = await cookiesOf(context);
    expect(keptRoute(cookies.get('gf_route'))).toBe('tiktok_dach');
    // Not in the split test: no variant drawn, so never counted in its results.
    expect(cookies.has('gf_variant')).toBe(false);

    // Kept for the visit: the route is paused meanwhile, and this visitor still walks it...
    await session.worker.putConfig('routing', {
      ...ROUTING,
      routes: [{ ...ROUTING.routes[0], paused: true }, ROUTING.routes[1]],
    });
    await page.goto('/?ttclid=E.C.P.abc&utm_source=tiktok&utm_campaign=bf_de');
    expect(await continueFromLanding(page, '030 901820')).toBe('/checkout_v3_pp');
    // ...while a new visitor from the same ad gets the default route.
    const { context: later, page: laterPage } = await session.newVisitor();
    await later.setExtraHTTPHeaders({ 'MF-CF-Blob': JSON.stringify({ country: 'DE' }) });
    await laterPage.goto('/?ttclid=E.C.P.def&utm_source=tiktok');
    expect(await continueFromLanding(laterPage, '030 901820')).toBe('/searching');
    await later.close();
    await session.worker.putConfig('routing', ROUTING);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('anyone else gets the default route, unpinned under a split of one variant', async () => {
    const { context, page, problems } = await session.newVisitor();
    // TikTok, but from the United States: the audience wants DE, AT or CH.
    await context.setExtraHTTPHeaders({ 'MF-CF-Blob': JSON.stringify({ country: 'US' }) });
    await page.goto('/?ttclid=E.C.P.xyz&utm_source=tiktok');
    expect(await continueFromLanding(page, '415 555 2671')).toBe('/searching');
    const cookies = await cookiesOf(context);
    expect(keptRoute(cookies.get('gf_route'))).toBe('default');
    // The split's one variant tests nothing: it applies its flow, pinning and counting no one.
    expect(cookies.has('gf_variant')).toBe(false);
    expect(problems).toEqual([]);
    await context.close();
  });
});
