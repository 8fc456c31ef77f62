import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pinnedToVariant } from '../fixtures/signed-cookies';
import { type BrowserSession, startBrowserSession } from './harness';
import { interactive } from './visitor-steps';

let session: BrowserSession;
beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(() => session?.stop());

describe('signup screens in Chromium', () => {
  it('shows the located number, refuses a bad email and moves on with a good one', async () => {
    const { context, page, problems } = await session.newVisitor();
    await context.addCookies(await pinnedToVariant(session.worker.url.href, 'default'));
    await page.goto('/signup?gclid=s1');
    // What the landing's phone form stores: the number in E.164 and as people write it.
    await page.evaluate(() => {
      localStorage.setItem('gf:map:phone', '"+14155552671"');
      localStorage.setItem('gf:map:phoneDisplay', '"+1 415 555 2671"');
    });
    await page.reload();
    await expect
      .poll(() => page.locator('.located-banner').textContent())
      .toContain('+1 415 555 2671');
    // The message on leaving the field is the hydrated form's: the banner's island can wake
    // before the form's, and a blur before that has no script to answer it (the worker checks
    // the address when it is posted instead).
    await interactive(page);

    const email = page.getByLabel('Your email');
    await email.fill('anna@gmail');
    await email.blur();
    await expect.poll(() => page.getByText('Please enter a valid email address').count()).toBe(1);
    await page.locator('#continue-button').click();
    expect(new URL(page.url()).pathname).toBe('/signup');

    await email.fill('anna@');
    const continueTop = () =>
      page.locator('#continue-button').evaluate((b) => b.getBoundingClientRect().top);
    const before = await continueTop();
    await page.getByRole('button', { name: /example\.com/ }).click();
    expect(await email.inputValue()).toBe('anna@example.com');
    // The shortcuts narrow to the one typed, and Continue stays where the thumb is.
    expect(await page.locator('.email-input__shortcut-row:not([aria-hidden]) button').count()).toBe(
      1,
    );
    expect(await continueTop()).toBe(before);
    await email.press('Enter');
    await page.waitForURL(
      (url) => url.pathname === '/checkout_v3_tr' && url.search === '?gclid=s1',
    );
    expect(await page.evaluate(() => localStorage.getItem('gf:signup:email'))).toBe(
      '"anna@example.com"',
    );
    expect(problems).toEqual([]);
    await context.close();
  });

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
