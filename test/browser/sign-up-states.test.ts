import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GIS_SCRIPT_URL } from '../../islands/signup/google-identity';
import { type BrowserSession, startBrowserSession } from './harness';
import {
  emailFieldMessage,
  expectFormUsable,
  interactive,
  submitEmail,
  uniqueEmail,
} from './visitor-steps';

/**
 * The signup screen when something stands in the way (SPEC.md §4, §5, §8): Google's script does
 * not load, or the address already has an account. Either way the email form stays the way
 * forward, and what happened is said where the visitor looks, for as long as it holds. Then
 * auto-signup when its code cannot load.
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

/**
 * An address another visitor has just signed up with, as their browser without script posts the
 * signup form (test/worker/signup-form.test.ts): the account is all this needs of them.
 */
async function takenAddress(label: string): Promise<string> {
  const email = uniqueEmail(label);
  const { url } = session.worker;
  const posted = await fetch(new URL('/signup?skip_split=true', url), {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: url.origin },
    body: new URLSearchParams({ email }),
  });
  expect(posted.status).toBe(303);
  return email;
}

describe('Google’s script cannot load, then the address typed already has an account', () => {
  // One signup page for both: the email form is the way forward after each.
  it('a keyboard user on our Google button is taken to the email field, told quietly; an address taken in other letters is explained beside the field with where to log in, until the address changes; “Use another email” empties it and the form signs up', async () => {
    const email = await takenAddress('taken');
    const signupApi = new URL('/api/signup', session.worker.url).href;
    const { context, page, problems } = await session.newVisitor();
    let held: Route | undefined;
    await page.route(`${GIS_SCRIPT_URL}*`, (route) => {
      held = route;
    });
    // The page's clock, running as the real one until the test moves it on.
    await page.clock.install();
    await openSignup(page);

    // Google's script fails while the visitor is on our Google button.
    const placeholder = page.getByRole('button', { name: 'Continue with Google' });
    await placeholder.focus();
    await expect.poll(() => held !== undefined).toBe(true);
    await held?.abort('blockedbyclient');
    await expect
      .poll(() => emailField(page).evaluate((field) => field === document.activeElement))
      .toBe(true);
    expect(await placeholder.count(), 'no dead button').toBe(0);
    // The reason in muted text, no red box.
    const message = page.locator('.google-signin__message');
    await expect.poll(() => message.textContent()).toBe(NOT_AVAILABLE);
    const look = await message.evaluate((element) => {
      const style = getComputedStyle(element);
      return { color: style.color, border: style.borderTopStyle, role: element.role };
    });
    expect(look.color, 'not in the error red').not.toBe(ERROR_RED);
    expect(look.border, 'no box').toBe('none');
    // Still said to a screen reader, politely.
    expect(look.role).toBe('status');
    expect(await page.locator('.google-signin button').count()).toBe(0);
    // No toast either: nothing shouts about a way the visitor need not take.
    expect(await page.locator('.toast__message').count()).toBe(0);

    // The email form: the taken address in capitals (the portal keys addresses by their lower
    // case).
    await submitEmail(page, email.toUpperCase());
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
    expect(saidBox!.y - (fieldBox!.y + fieldBox!.height), 'beside the field').toBeLessThan(16);
    expect(await page.locator('.toast__message').count()).toBe(0);
    // Where an existing account logs in: the app.
    expect(await page.getByRole('link', { name: 'App Store' }).getAttribute('href')).toMatch(
      /^https:\/\/apps\.apple\.com\//,
    );
    expect(new URL(page.url()).pathname).toBe('/signup');
    expect(await field.inputValue(), 'the address kept as typed').toBe(email.toUpperCase());
    await expectFormUsable(page);

    // Editing the address clears it.
    await field.press('End');
    await field.press('Backspace');
    expect(await field.getAttribute('aria-invalid')).toBeNull();
    expect(await emailFieldMessage(page)).toBe('');
    expect(await said.textContent()).toBe('');

    // Sent again as it was, then “Use another email”: the field emptied, the visitor in it.
    await field.press(email.toUpperCase().slice(-1));
    await field.press('Enter');
    const another = page.getByRole('link', { name: 'Use another email' });
    await another.click();
    expect(await field.inputValue()).toBe('');
    expect(await field.evaluate((input) => input === document.activeElement)).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/signup');
    // A new address goes through from the same form: signed up and on the way (the checkout
    // itself is the money path's).
    await submitEmail(page, uniqueEmail('another'));
    await page.waitForURL((url) => url.pathname === '/checkout_v3_tr', { waitUntil: 'commit' });
    expect(problems).toEqual([`422 ${signupApi}`, `422 ${signupApi}`]);
    await context.close();
  });
});

/**
 * The signup screen's own form walked with a located number (its banner, a refused address, a
 * domain shortcut that keeps Continue in place) is sign-up.test.ts's journey; signup_testim's
 * testimonials and their portraits are checked on flows.test.ts's walk through it.
 */
describe('the signup screens’ variants in Chromium', () => {
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
