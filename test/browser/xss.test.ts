import { afterAll, beforeAll, expect, it } from 'vitest';
import { SCREEN_IDS } from '../../shared/screens';
import { type BrowserSession, startBrowserSession } from './harness';

let session: BrowserSession;
beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(() => session?.stop());

/**
 * A script-context and an attribute-context breakout, one after the other in every value: one
 * page load per screen meets both wherever a value lands.
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

it(`no script injected through the query runs on any screen: ${PAYLOAD}`, async () => {
  const { context, page } = await session.newVisitor();
  const dialogs: string[] = [];
  page.on('dialog', async (dialog) => {
    dialogs.push(`${page.url()}: ${dialog.message()}`);
    await dialog.dismiss();
  });
  const query = new URLSearchParams(PARAMETERS.map((name) => [name, PAYLOAD])).toString();
  for (const screen of [...SCREEN_IDS, 'no-such-screen']) {
    await page.goto(`/${screen}?${query}&${encodeURIComponent(PAYLOAD)}=1`);
    await page.waitForLoadState('load');
    // Escaped, not merely blocked by the CSP: the payload never becomes an element.
    expect(await page.locator('img[src="x"], script:not([nonce]):not([src])').count(), screen).toBe(
      0,
    );
    expect(await page.locator('h1').count(), screen).toBe(1);
  }
  expect(dialogs).toEqual([]);
  await context.close();
});
