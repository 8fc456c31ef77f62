import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExperimentsDocument } from '../../shared/config/experiments';
import { aiLandingTest } from '../fixtures/ai-landing-test';
import { type BrowserSession, startBrowserSession } from './harness';
import { analyticsStarted, interactive } from './visitor-steps';

/**
 * The heatmap (Microsoft Clarity, islands/heatmap/) in Chromium against the built worker. Clarity's
 * hosts are answered by fakes: its loader takes over the snippet's queue and reports every call
 * it gets to the test, with whether the page had loaded when it ran; it then uploads and syncs
 * as Clarity's recorder does, so a CSP that refused either would show as a problem.
 *
 * Where it never loads (no project id, after a Decline, a screen with card fields), the worker
 * gives the page no heatmap and a CSP that refuses Clarity (test/worker/pixels/heatmap.test.ts),
 * and a page given none never asks for the loader (test/unit/analytics/tracker-in-page.test.ts);
 * a Decline never loads it (test/unit/heatmap/run-heatmap.test.ts, the banner's answer in
 * test/unit/pixels/consent-banner.test.tsx).
 */

const PROJECT = 'abcde12345';
const LOADER = `https://www.clarity.ms/tag/${PROJECT}`;
const REPORT = '__clarityCall';

const FAKE_CLARITY = `(() => {
  const navigation = performance.getEntriesByType('navigation')[0];
  window.${REPORT}(['loaded', { readyState: document.readyState, afterLoad: navigation.loadEventEnd > 0 }]);
  const queued = (window.clarity && window.clarity.q) || [];
  window.clarity = (...args) => window.${REPORT}(JSON.parse(JSON.stringify(args)));
  for (const args of queued) window.clarity(...Array.from(args));
  fetch('https://k.clarity.ms/collect', { method: 'POST', body: 'x', mode: 'no-cors' })
    .then(() => window.${REPORT}(['uploaded']));
  const image = new Image();
  image.onload = () => window.${REPORT}(['synced']);
  image.src = 'https://c.clarity.ms/c.gif';
})();`;

const PIXEL_GIF = Buffer.from('R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw==', 'base64');

interface ClarityLog {
  /** Every request to a Clarity or Bing host, in order. */
  requested: string[];
  /** Every call the fake recorder got, on every page of the context. */
  calls: unknown[][];
}

/** Answers Clarity's hosts with the fakes; every request to them is recorded. */
async function serveClarity(context: BrowserContext): Promise<ClarityLog> {
  const log: ClarityLog = { requested: [], calls: [] };
  await context.exposeFunction(REPORT, (call: unknown[]) => void log.calls.push(call));
  await context.route(
    (url) => url.hostname.endsWith('clarity.ms') || url.hostname === 'c.bing.com',
    (route) => {
      const url = route.request().url();
      log.requested.push(url);
      if (url === LOADER) {
        return route.fulfill({ contentType: 'text/javascript', body: FAKE_CLARITY });
      }
      if (url.endsWith('/c.gif'))
        return route.fulfill({ contentType: 'image/gif', body: PIXEL_GIF });
      return route.fulfill({ status: 204 });
    },
  );
  return log;
}

const banner = (page: Page) => page.getByRole('region', { name: 'Cookie choice' });
const tags = (log: ClarityLog) => log.calls.filter(([method]) => method === 'set');

describe('with a project id', () => {
  const LANDING_TEST = aiLandingTest(0);

  let session: BrowserSession;
  beforeAll(async () => {
    session = await startBrowserSession({ bindings: { CLARITY_PROJECT_ID: PROJECT } });
    const experiments: ExperimentsDocument = {
      version: 'heatmap',
      experiments: { 'lp-ai': LANDING_TEST },
    };
    await session.worker.putConfig('experiments', experiments);
  });
  afterAll(async () => {
    await session?.worker.deleteConfig('experiments');
    await session?.stop();
  });

  it('asked on the landing, nothing until Accept; then loaded once the page has loaded, tagged, and by itself on the next page, its fields masked', async () => {
    const { context, page, problems } = await session.newVisitor();
    const log = await serveClarity(context);
    await page.goto('/');
    await interactive(page);
    await analyticsStarted(page);
    await expect.poll(() => banner(page).isVisible()).toBe(true);
    expect(log.requested).toEqual([]);
    await banner(page).getByRole('button', { name: 'Accept' }).click();

    await expect.poll(() => log.calls.some(([method]) => method === 'synced')).toBe(true);
    await expect.poll(() => log.calls.some(([method]) => method === 'uploaded')).toBe(true);
    expect(log.requested[0]).toBe(LOADER);
    expect(log.calls[0]).toEqual(['loaded', { readyState: 'complete', afterLoad: true }]);
    // The consent signal first (analytics storage only), then the tags, before the recorder's work.
    expect(log.calls[1]).toEqual([
      'consentv2',
      { ad_Storage: 'denied', analytics_Storage: 'granted' },
    ]);
    // The landing test's variant is the page shown, and the tags say so.
    expect(await page.locator('h1').textContent()).toBe('AI-powered phone location');
    expect(tags(log)).toEqual(
      expect.arrayContaining([
        ['set', 'screen_name', 'one_pager_ai'],
        ['set', 'variant', 'default'],
        ['set', 'route', 'default'],
        ['set', 'traffic_source', 'direct'],
        ['set', 'exp_lp-ai', 'ai'],
      ]),
    );
    // Nothing of the visitor: no uuid among the values.
    const visitor = (await context.cookies()).find((cookie) => cookie.name === 'userUuid')?.value;
    expect(JSON.stringify(tags(log))).not.toContain(visitor);

    // Consent given, the next page loads it by itself, once.
    log.requested.length = 0;
    log.calls.length = 0;
    await page.goto('/signup');
    await interactive(page);
    // The loader is asked for, then runs: its calls arrive a moment after the request.
    await expect.poll(() => tags(log)).toContainEqual(['set', 'screen_name', 'signup']);
    expect(log.requested.filter((url) => url === LOADER)).toHaveLength(1);
    expect(await page.locator('input[type="email"]').getAttribute('data-clarity-mask')).toBe(
      'True',
    );
    // The loader came through our nonce'd module and the CSP refused neither of its hosts.
    expect(problems).toEqual([]);
    await context.close();
  });
});
