import { afterAll, beforeAll, expect, it } from 'vitest';
import { QUERY_BREAKOUT, QUERY_PARAMETERS } from '../fixtures/query-breakout';
import { type BrowserSession, startBrowserSession } from './harness';

let session: BrowserSession;
beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(() => session?.stop());

/**
 * A script-context and an attribute-context breakout, one after the other in every value. That
 * no screen's HTML makes an element or a handler of it is checked in workerd for every screen
 * (test/worker/render/html-escaping.test.ts); this load proves no script runs once a browser has
 * the page, its islands hydrated.
 */
it(`no script injected through the query runs on the landing: ${QUERY_BREAKOUT}`, async () => {
  const { context, page } = await session.newVisitor();
  const dialogs: string[] = [];
  page.on('dialog', async (dialog) => {
    dialogs.push(`${page.url()}: ${dialog.message()}`);
    await dialog.dismiss();
  });
  const query = new URLSearchParams(
    QUERY_PARAMETERS.map((name) => [name, QUERY_BREAKOUT]),
  ).toString();
  await page.goto(`/?${query}&${encodeURIComponent(QUERY_BREAKOUT)}=1`);
  await page.waitForLoadState('load');
  // Escaped, not merely blocked by the CSP: the payload never becomes an element.
  expect(await page.locator('img[src="x"], script:not([nonce]):not([src])').count()).toBe(0);
  expect(await page.locator('h1').count()).toBe(1);
  expect(dialogs).toEqual([]);
  await context.close();
});
