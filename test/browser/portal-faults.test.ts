import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type FakePortal,
  PORTAL_OWN_WORDS,
  type PortalBehaviour,
  startFakePortal,
} from './fake-portal';
import { type BrowserSession, startBrowserSession } from './harness';
import {
  expectFormUsable,
  holdStripeJs,
  interactive,
  searchNotice,
  signupField,
  submitEmail,
  toastMessage,
  uniqueEmail,
} from './visitor-steps';

/**
 * A portal that is down, slow, failing or answering garbage yields the SPEC.md §8 text
 * of the call, never a hang or an error page, and the page stays usable: once the portal is
 * back, the same screen succeeds. The worker talks to a fake portal (PORTAL_URL) whose
 * behaviour each test switches.
 */

/** The worker gives up on the portal after this long (PORTAL_TIMEOUT_MS)... */
const TIMEOUT_MS = 1500;
/** ...and the slow portal answers only after this. */
const SLOW_MS = 4000;

let portal: FakePortal;
let session: BrowserSession;
beforeAll(async () => {
  portal = await startFakePortal({ slowMs: SLOW_MS });
  session = await startBrowserSession({
    bindings: { PORTAL_URL: portal.url, PORTAL_TIMEOUT_MS: String(TIMEOUT_MS) },
  });
});
afterAll(async () => {
  await session?.stop();
  await portal?.stop();
});
afterEach(() => portal.behave('healthy'));

const apiUrl = (path: string) => new URL(`/api${path}`, session.worker.url).href;

/**
 * What the worker answers the browser for each fault (worker/api): its status, and the texts
 * the visitor reads for a lookup (SPEC.md §5: a non-200 from the portal is 'Phone number is
 * incorrect'; §8: no usable answer is 'An error occurred, please try again') and a sign-up
 * (§8: no messages, 'Failed to create an account').
 */
const FAULTS: { behaviour: PortalBehaviour; status: number; lookupText: string }[] = [
  { behaviour: 'down', status: 502, lookupText: 'An error occurred, please try again' },
  { behaviour: 'slow', status: 504, lookupText: 'An error occurred, please try again' },
  { behaviour: 'error_500', status: 500, lookupText: 'Phone number is incorrect' },
  // The API's own words in the §7 shape: the worker answers the step's text instead.
  { behaviour: 'error_500_words', status: 500, lookupText: 'Phone number is incorrect' },
  { behaviour: 'not_json', status: 502, lookupText: 'An error occurred, please try again' },
  { behaviour: 'wrong_shape', status: 502, lookupText: 'An error occurred, please try again' },
];

describe.each(FAULTS)('portal $behaviour', ({ behaviour, status, lookupText }) => {
  it(`the phone lookup reads "${lookupText}", then succeeds once the portal is back`, async () => {
    await portal.behave(behaviour);
    const { context, page, problems } = await session.newVisitor({ reducedMotion: 'reduce' });
    await page.addInitScript(() => localStorage.setItem('gf:map:phone', '"+447400123456"'));
    const started = Date.now();
    await page.goto('/searching?skip_split=true');
    await interactive(page);
    expect(await searchNotice(page)).toBe(lookupText);
    // Never a hang: a slow portal is cut off at the worker's timeout.
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 6000);
    expect(await page.locator('#continue-button').isDisabled()).toBe(true);

    await portal.behave('healthy');
    await page.reload();
    await interactive(page);
    await expect.poll(() => page.locator('#continue-button').isEnabled()).toBe(true);
    expect(await page.locator('.search__row', { hasText: 'Carrier' }).textContent()).toContain(
      'Fake Mobile',
    );
    expect(problems).toEqual([`${status} ${apiUrl('/phone-number-info/%2B447400123456')}`]);
    await context.close();
  });

  it('the email sign-up reads "Failed to create an account", and the same form then succeeds', async () => {
    await portal.behave(behaviour);
    const { context, page, problems } = await session.newVisitor();
    await holdStripeJs(context);
    await page.goto('/signup?skip_split=true');
    await interactive(page);
    const email = uniqueEmail(`fault-${behaviour}`);
    await submitEmail(page, email);
    expect(await toastMessage(page)).toBe('Failed to create an account');
    expect(await page.content()).not.toContain(PORTAL_OWN_WORDS);
    expect(new URL(page.url()).pathname).toBe('/signup');
    expect(await page.locator('input[type="email"]').inputValue()).toBe(email);
    await expectFormUsable(page);
    expect(await signupField(page, 'isSuccess')).not.toBe(true);

    await portal.behave('healthy');
    await page.locator('#continue-button').click();
    await page.waitForURL((url) => url.pathname === '/checkout_v3_tr');
    expect(await signupField(page, 'isSuccess')).toBe(true);
    expect(await signupField(page, 'paymentProvider')).toBe('stripe');
    expect(await signupField(page, 'stripe')).toEqual({
      key: 'pk_test_fake_portal',
      name: 'Fake portal',
    });
    expect(problems).toEqual([`${status} ${apiUrl('/signup')}`]);
    await context.close();
  });
});
