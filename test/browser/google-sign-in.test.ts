import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GIS_SCRIPT_URL } from '../../islands/signup/google-identity';
import { type BrowserSession, startBrowserSession } from './harness';
import { interactive, toastMessage } from './visitor-steps';

/**
 * Continue with Google on the signup screen (SPEC.md §4, §8, §9), with the real page, CSP and
 * worker. Google's script never loads from the internet here: refused (as offline), held (slow),
 * or replaced by a stand-in the test serves at Google's URL.
 */

const NOT_AVAILABLE = 'Google Sign-In is not available. Please try again later.';
const NOT_READY = 'Google Sign-In is not ready yet. Please wait a moment and try again.';
const NO_CREDENTIAL =
  'Failed to create an account using Google, please try again or use the default email method.';

/**
 * Stands in for GIS: offers `google.accounts.id`, and its rendered button answers the page's
 * callback without a credential, as GIS does when the visitor's choice yields none.
 */
const FAKE_GIS = `
window.google = { accounts: { id: {
  initialize(config) { window.fakeGisConfig = config; },
  renderButton(parent, options) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'fake-gis-button';
    button.textContent = 'Continue as Test ' + options.width;
    button.addEventListener('click', () => window.fakeGisConfig.callback({ select_by: 'btn' }));
    parent.appendChild(button);
  },
} } };`;

let session: BrowserSession;
beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(() => session?.stop());

const googleMessage = (page: Page) => page.locator('.google-signin__message');
const placeholder = (page: Page) => page.getByRole('button', { name: 'Continue with Google' });

describe('Continue with Google', () => {
  it('offline, the reason takes the button’s place and nothing on the page moves', async () => {
    const { context, page, problems, blocked } = await session.newVisitor();
    await page.setViewportSize({ width: 350, height: 740 });
    await page.goto('/signup');
    await interactive(page);
    await expect.poll(() => googleMessage(page).textContent()).toBe(NOT_AVAILABLE);
    expect(await googleMessage(page).isVisible()).toBe(true);
    // In the placeholder's own 44 px box, and no button left that could only say it does not work.
    expect((await googleMessage(page).boundingBox())?.height).toBe(44);
    expect(await page.locator('.google-signin button').count()).toBe(0);
    // Chromium's own record of layout shifts since the page began (what CLS adds up).
    const shifts = await page.evaluate(
      () =>
        new Promise<string[]>((resolve) => {
          const seen: string[] = [];
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries() as (PerformanceEntry & { value: number })[])
              seen.push(`${entry.value} at ${Math.round(entry.startTime)} ms`);
          }).observe({ type: 'layout-shift', buffered: true });
          requestAnimationFrame(() => requestAnimationFrame(() => resolve(seen)));
        }),
    );
    expect(shifts).toEqual([]);
    expect(blocked).toEqual([GIS_SCRIPT_URL]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("while Google loads, our button is labelled, keyboard-reachable and not ready; loaded, Google's 343 px button replaces it 1 s later", async () => {
    const { context, page, problems } = await session.newVisitor();
    await page.setViewportSize({ width: 992, height: 800 });
    // Google's script is held until the test has pressed our button; then the stand-in is served.
    let held: Route | undefined;
    await context.route(GIS_SCRIPT_URL, (route) => {
      held = route;
    });
    await page.goto('/signup');
    await interactive(page);
    // A hanging Google neither holds the page's load event nor the preloader (SPEC.md §2).
    await expect.poll(() => page.locator('.preloader').count(), { timeout: 5000 }).toBe(0);
    await page.locator('input[type="email"]').focus();
    let reached = false;
    for (let presses = 0; presses < 12 && !reached; presses += 1) {
      await page.keyboard.press('Tab');
      reached = await placeholder(page).evaluate((button) => button === document.activeElement);
    }
    expect(reached).toBe(true);
    await page.keyboard.press('Enter');
    expect(await toastMessage(page)).toBe(NOT_READY);
    expect(await placeholder(page).getAttribute('aria-describedby')).toBe(
      await googleMessage(page).getAttribute('id'),
    );
    expect(await googleMessage(page).textContent()).toBe(NOT_READY);

    await expect.poll(() => held !== undefined).toBe(true);
    const servedAt = Date.now();
    await held?.fulfill({ contentType: 'text/javascript', body: FAKE_GIS });
    const gisButton = page.locator('.google-signin__gis .fake-gis-button');
    // The page's CSP admitted the script our module added ('strict-dynamic').
    await gisButton.waitFor({ timeout: 5000 });
    // SPEC.md §4: preloaded 1 s after the script is ready.
    expect(Date.now() - servedAt).toBeGreaterThanOrEqual(1000);
    expect(await gisButton.textContent()).toBe('Continue as Test 343');
    expect(await placeholder(page).count()).toBe(0);
    expect(
      await page.evaluate(
        () => (window as { fakeGisConfig?: { client_id: string } }).fakeGisConfig?.client_id,
      ),
    ).toBe('000000000000-geofunnel-local.apps.googleusercontent.com');
    await gisButton.click();
    await expect.poll(() => page.locator('.toast__message').textContent()).toBe(NO_CREDENTIAL);
    expect(new URL(page.url()).pathname).toBe('/signup');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('on a 350 px phone it is as wide as the content (318 px), with no sideways scroll', async () => {
    const { context, page, problems } = await session.newVisitor();
    await page.setViewportSize({ width: 350, height: 740 });
    await context.route(GIS_SCRIPT_URL, (route) =>
      route.fulfill({ contentType: 'text/javascript', body: FAKE_GIS }),
    );
    await page.goto('/signup');
    await interactive(page);
    const gisButton = page.locator('.google-signin__gis .fake-gis-button');
    await gisButton.waitFor({ timeout: 5000 });
    expect(await gisButton.textContent()).toBe('Continue as Test 318');
    expect(
      await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      ),
    ).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });
});
