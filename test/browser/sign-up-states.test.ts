import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GIS_SCRIPT_URL } from '../../islands/signup/google-identity';
import { type BrowserSession, startBrowserSession } from './harness';
import { emailFieldMessage, interactive, submitEmail, uniqueEmail } from './visitor-steps';

/**
 * The signup screen when something stands in the way (SPEC.md §4, §5, §8): Google's script does
 * not load, or the address already has an account. Either way the email form stays the way
 * forward, and what happened is said where the visitor looks, for as long as it holds.
 */

let session: BrowserSession;
beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(() => session?.stop());

const NOT_AVAILABLE = 'Google Sign-In is not available. Please try again later.';
const TAKEN = 'The email has already been taken.';
const TAKEN_NEXT =
  'This email already has an account: log in to the app with it, or use another email.';
/** The toast's red (SPEC.md §8 UI toast) and the field's error red. */
const ERROR_RED = 'rgb(180, 35, 24)';

const emailField = (page: Page) => page.locator('input[type="email"]');

async function openSignup(page: Page): Promise<void> {
  await page.goto('/signup?skip_split=true');
  await interactive(page);
}

describe('Google’s script cannot load', () => {
  it('its button steps aside quietly: the reason in muted text, no red box, no dead button', async () => {
    const { context, page, problems } = await session.newVisitor();
    await context.route(`${GIS_SCRIPT_URL}*`, (route) => route.abort('blockedbyclient'));
    await openSignup(page);
    const message = page.locator('.google-signin__message');
    await expect.poll(() => message.textContent()).toBe(NOT_AVAILABLE);
    const look = await message.evaluate((element) => {
      const style = getComputedStyle(element);
      return { color: style.color, border: style.borderTopStyle, role: element.role };
    });
    expect(look.color).not.toBe(ERROR_RED);
    expect(look.border).toBe('none');
    // Still said to a screen reader, politely.
    expect(look.role).toBe('status');
    expect(await page.locator('.google-signin button').count()).toBe(0);
    // No toast either: nothing shouts about a way the visitor need not take.
    expect(await page.locator('.toast__message').count()).toBe(0);
    // The email form still signs up.
    await submitEmail(page, uniqueEmail('no-google'));
    await page.waitForURL((url) => url.pathname === '/checkout_v3_tr');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a keyboard user on our Google button when it fails is taken to the email field', async () => {
    const { context, page, problems } = await session.newVisitor();
    let held: Route | undefined;
    await context.route(`${GIS_SCRIPT_URL}*`, (route) => {
      held = route;
    });
    await openSignup(page);
    const placeholder = page.getByRole('button', { name: 'Continue with Google' });
    await placeholder.focus();
    await expect.poll(() => held !== undefined).toBe(true);
    await held?.abort('blockedbyclient');
    await expect
      .poll(() => emailField(page).evaluate((field) => field === document.activeElement))
      .toBe(true);
    expect(await placeholder.count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });
});

/** An address another visitor has just signed up with. */
async function takenAddress(label: string): Promise<string> {
  const email = uniqueEmail(label);
  const first = await session.newVisitor();
  await openSignup(first.page);
  await submitEmail(first.page, email);
  await first.page.waitForURL((url) => url.pathname === '/checkout_v3_tr');
  await first.context.close();
  return email;
}

describe('an address that already has an account', () => {
  it('is explained beside the field, with where to log in, until the address changes', async () => {
    const email = await takenAddress('taken');

    const { context, page, problems } = await session.newVisitor();
    // The page's clock, running as the real one until the test moves it on.
    await page.clock.install();
    await openSignup(page);
    await submitEmail(page, email);
    const field = emailField(page);
    await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
    // Past the toast's 3 s: still there, still the field's description.
    await page.clock.fastForward(3500);
    expect(await emailFieldMessage(page)).toBe(
      `${TAKEN} ${TAKEN_NEXT} App StoreGoogle PlayUse another email`,
    );
    const said = page.locator('.email-input__error');
    // Announced when it appears (a live region), and beside the field, not over the page.
    expect(await said.getAttribute('aria-live')).toBe('polite');
    const [fieldBox, saidBox] = [await field.boundingBox(), await said.boundingBox()];
    expect(saidBox!.y - (fieldBox!.y + fieldBox!.height)).toBeLessThan(16);
    expect(await page.locator('.toast__message').count()).toBe(0);
    // Where an existing account logs in: the app.
    expect(await page.getByRole('link', { name: 'App Store' }).getAttribute('href')).toMatch(
      /^https:\/\/apps\.apple\.com\//,
    );
    expect(new URL(page.url()).pathname).toBe('/signup');

    // Editing the address clears it.
    await field.press('End');
    await field.press('Backspace');
    expect(await field.getAttribute('aria-invalid')).toBeNull();
    expect(await emailFieldMessage(page)).toBe('');
    expect(await said.textContent()).toBe('');
    expect(problems).toEqual([`422 ${new URL('/api/signup', session.worker.url).href}`]);
    await context.close();
  });

  it('“Use another email” empties the field and puts the visitor in it', async () => {
    const email = await takenAddress('taken-again');

    const { context, page } = await session.newVisitor();
    await openSignup(page);
    await submitEmail(page, email);
    const another = page.getByRole('link', { name: 'Use another email' });
    await another.click();
    const field = emailField(page);
    expect(await field.inputValue()).toBe('');
    expect(await field.evaluate((input) => input === document.activeElement)).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/signup');
    await submitEmail(page, uniqueEmail('another'));
    await page.waitForURL((url) => url.pathname === '/checkout_v3_tr');
    await context.close();
  });
});
