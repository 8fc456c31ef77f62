import { afterAll, beforeAll, expect, it } from 'vitest';
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
const PAYLOAD = '</script><script>alert(1)</script>"><img src=x onerror=alert(1)>';
/** Every query parameter the funnel reads (SPEC.md §2, §3), plus one it does not. */
const PARAMETERS = [
  'fbclid',
  'gclid',
  'ttclid',
  'skip_split',
  'appDomain',
  'custom_lng',
  'theme',
  'utm_source',
  'anything',
];

it(`no script injected through the query runs on the landing: ${PAYLOAD}`, async () => {
  const { context, page } = await session.newVisitor();
  const dialogs: string[] = [];
  page.on('dialog', async (dialog) => {
    dialogs.push(`${page.url()}: ${dialog.message()}`);
    await dialog.dismiss();
  });
  const query = new URLSearchParams(PARAMETERS.map((name) => [name, PAYLOAD])).toString();
  await page.goto(`/?${query}&${encodeURIComponent(PAYLOAD)}=1`);
  await page.waitForLoadState('load');
  // Escaped, not merely blocked by the CSP: the payload never becomes an element.
  expect(await page.locator('img[src="x"], script:not([nonce]):not([src])').count()).toBe(0);
  expect(await page.locator('h1').count()).toBe(1);
  expect(dialogs).toEqual([]);
  await context.close();
});
