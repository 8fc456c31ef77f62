import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, startBrowserSession } from './harness';
import { interactive } from './visitor-steps';

let session: BrowserSession;
beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(() => session?.stop());

/**
 * The signup screen's own form walked with a located number (its banner, a refused address, a
 * domain shortcut that keeps Continue in place) is sign-up.test.ts's journey.
 */
describe('signup screens in Chromium', () => {
  it('signup_testim shows what other families say', async () => {
    const { context, page, problems } = await session.newVisitor();
    await page.goto('/signup_testim');
    expect(await page.locator('.signup__testimonial').count()).toBe(3);
    expect(await page.locator('h1').textContent()).toBe('Almost there: create your account');
    // Each quote beside a drawn portrait, decorative (the name beside it says who), that loads.
    const portraits = await page.locator('.signup__testimonial img').all();
    expect(portraits).toHaveLength(3);
    for (const portrait of portraits) {
      expect(await portrait.getAttribute('alt')).toBe('');
      await portrait.scrollIntoViewIfNeeded();
      await expect
        .poll(() => portrait.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
        .toBeGreaterThan(0);
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  it('auto-signup says the account was not created when its sign-up code cannot load', async () => {
    const { context, page } = await session.newVisitor();
    // The sign-up code loads on the press, not with the page: a network that drops it then
    // must leave the visitor on the screen with the reason, and the button ready again.
    let asked = 0;
    await page.route('**/sign-up-*.js', (route) => {
      asked += 1;
      return route.abort();
    });
    await page.goto('/auto-signup');
    await interactive(page);
    expect(asked).toBe(0);
    const button = page.locator('#continue-button');
    await button.click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toContain('Failed to create an account');
    expect(asked).toBeGreaterThan(0);
    expect(new URL(page.url()).pathname).toBe('/auto-signup');
    expect(await button.isDisabled()).toBe(false);
    await context.close();
  });
});
