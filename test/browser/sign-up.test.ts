import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, startBrowserSession } from './harness';
import { PATIENCE_MS } from './patience';
import {
  emailFieldMessage,
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
 * The product API end to end: the built worker's /api in front of the embedded portal
 * on D1, driven by a visitor in Chromium.
 */

let session: BrowserSession;
beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(() => session?.stop());

const visitor = (options: { locale?: string } = {}) => session.newVisitor(options);

const apiUrl = (path: string) => new URL(`/api${path}`, session.worker.url).href;

async function lookupsOf(phone: string): Promise<number> {
  const row = await session.worker.portalDb
    .prepare('SELECT COUNT(*) AS n FROM phone_lookups WHERE phone = ?')
    .bind(phone)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

async function portalUser(email: string) {
  return session.worker.portalDb
    .prepare(
      'SELECT id, email, user_uuid, landing_type, registration_source FROM users WHERE email_key = ?',
    )
    .bind(email.toLowerCase())
    .first<Record<string, string>>();
}

async function switchFaultOn(call: string, count: number) {
  await session.worker.portalDb
    .prepare(
      'INSERT INTO emulator_faults (call, remaining) VALUES (?, ?) ON CONFLICT (call) DO UPDATE SET remaining = excluded.remaining',
    )
    .bind(call, count)
    .run();
}

async function openSignup(page: Page, query = '?skip_split=true') {
  await page.goto(`/signup${query}`);
  await interactive(page);
}

/** Everything page JavaScript can read of the visitor's storage and cookies, as one string. */
async function whatPageScriptSees(page: Page): Promise<string> {
  return page.evaluate(() => {
    const dump = (storage: Storage) =>
      Object.keys(storage).map((key) => `${key}=${storage.getItem(key)}`);
    return [document.cookie, ...dump(localStorage), ...dump(sessionStorage)].join('\n');
  });
}

async function sessionCookie(context: BrowserContext) {
  return (await context.cookies()).find((cookie) => cookie.name === 'gf_session');
}

describe('locate, then sign up by email (SPEC.md §4 Signup)', () => {
  // slow: four screens in Chromium, the searching screen's real lookup and a sign-up among them
  it('walks landing → searching (real lookup) → signup → checkout; the token stays out of page JavaScript', async () => {
    // The search animation is searching.test.ts's; with reduced motion it takes a moment.
    const { context, page, problems } = await session.newVisitor({ reducedMotion: 'reduce' });
    await page.goto('/?skip_split=true&gclid=j-1');
    await interactive(page);
    await page.getByLabel('Phone number to locate').fill('201 555 0123');
    await page.locator('#continue-button').click();

    // Searching shows what the portal answered for the number.
    await page.waitForURL((url) => url.pathname === '/searching');
    await interactive(page);
    const continueButton = page.locator('#continue-button');
    await expect.poll(() => continueButton.isEnabled(), { timeout: PATIENCE_MS }).toBe(true);
    const rows = async () =>
      Object.fromEntries(
        await page
          .locator('.search__row')
          .evaluateAll((items) =>
            items.map((row) => [
              row.querySelector('dt')?.textContent,
              row.querySelector('dd')?.textContent,
            ]),
          ),
      );
    expect(await rows()).toMatchObject({
      Country: 'United States',
      'Time zone': expect.stringMatching(/\(New York\)$/),
      City: 'Washington',
    });
    expect(await lookupsOf('+12015550123')).toBe(1);

    // A reload shows the kept answer: the number's owner is not texted again.
    await page.reload();
    await interactive(page);
    await expect.poll(() => continueButton.isEnabled(), { timeout: PATIENCE_MS }).toBe(true);
    expect((await rows()).City).toBe('Washington');
    expect(await lookupsOf('+12015550123')).toBe(1);

    await continueButton.click();
    await page.waitForURL((url) => url.pathname === '/signup');
    await interactive(page);
    const email = uniqueEmail('journey');
    await submitEmail(page, email);
    await page.waitForURL((url) => url.pathname === '/checkout_v3_tr');
    expect(new URL(page.url()).search).toBe('?skip_split=true&gclid=j-1');
    expect(await page.locator('h1').textContent()).toBe('Choose your plan');

    // The portal knows the visitor, with the uuid of their cookie.
    const uuid = (await context.cookies()).find((c) => c.name === 'userUuid')?.value;
    expect(await portalUser(email)).toMatchObject({
      email,
      user_uuid: uuid,
      registration_source: 'email',
      landing_type: expect.stringMatching(/^split_/),
    });

    // The token lives in an HttpOnly cookie only the worker reads.
    const cookie = await sessionCookie(context);
    expect(cookie).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Lax' });
    expect(cookie!.value.length).toBeGreaterThan(20);
    const visible = await whatPageScriptSees(page);
    expect(visible).not.toContain(cookie!.value);
    expect(visible).not.toMatch(/gf_session|access_token/);
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);

    // The signup slice holds the account and the portal's payment settings (SPEC.md §3).
    expect(await signupField(page, 'isSuccess')).toBe(true);
    expect(await signupField(page, 'email')).toBe(email);
    expect(await signupField(page, 'userId')).toBe((await portalUser(email))!.id);
    expect(await signupField(page, 'paymentSettingsStatus')).toBe('success');
    expect(await signupField(page, 'paymentProvider')).toBe('test');
    expect(await signupField(page, 'stripe')).toEqual({ key: '', name: 'Geofunnel test gateway' });
    expect(await signupField(page, 'deeplinkUrl')).toMatch(/^https?:\/\//);
    expect(await signupField(page, 'deeplinkQR')).toMatch(/^data:image\/svg\+xml/);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a second sign-up with the same address, in other letters, says it is taken and stays usable', async () => {
    const email = uniqueEmail('twice');
    const first = await visitor();
    await openSignup(first.page);
    await submitEmail(first.page, email);
    await first.page.waitForURL((url) => url.pathname === '/checkout_v3_tr');
    await first.context.close();

    const { context, page, problems } = await visitor();
    await openSignup(page);
    await submitEmail(page, email.toUpperCase());
    await expect
      .poll(() => emailFieldMessage(page))
      .toMatch(/^The email has already been taken\. This email already has an account/);
    expect(new URL(page.url()).pathname).toBe('/signup');
    expect(await page.locator('input[type="email"]').inputValue()).toBe(email.toUpperCase());
    await expectFormUsable(page);
    // A new address goes through from the same form.
    await submitEmail(page, uniqueEmail('second-try'));
    await page.waitForURL((url) => url.pathname === '/checkout_v3_tr');
    expect(problems).toEqual([`422 ${apiUrl('/signup')}`]);
    await context.close();
  });

  it('says the address is taken in the visitor’s language (German)', async () => {
    const email = uniqueEmail('zweimal');
    const first = await visitor();
    await openSignup(first.page);
    await submitEmail(first.page, email);
    await first.page.waitForURL((url) => url.pathname === '/checkout_v3_tr');
    await first.context.close();

    const { context, page, problems } = await visitor({ locale: 'de-DE' });
    await openSignup(page);
    expect(await page.getAttribute('html', 'lang')).toBe('de');
    await submitEmail(page, email);
    await expect
      .poll(() => emailFieldMessage(page))
      .toMatch(/^Diese E-Mail-Adresse wird bereits verwendet\. Zu dieser Adresse/);
    await expectFormUsable(page);
    expect(problems).toEqual([`422 ${apiUrl('/signup')}`]);
    await context.close();
  });

  it("the portal failing (npm run portal -- fail signup): the toast reads §8's text, never the portal's words", async () => {
    await switchFaultOn('signup', 1);
    const { context, page, problems } = await visitor();
    await openSignup(page);
    await submitEmail(page, uniqueEmail('emulated-failure'));
    expect(await toastMessage(page)).toBe('Failed to create an account');
    expect(await page.content()).not.toContain('Emulated failure');
    await expectFormUsable(page);
    expect(problems).toEqual([`500 ${apiUrl('/signup')}`]);
    await context.close();
  });
});

describe('payment settings after sign-up (SPEC.md §4: 2 retries, 1 s apart)', () => {
  it('two failures are retried away: status success', async () => {
    await switchFaultOn('payments-settings', 2);
    const { context, page, problems } = await visitor();
    await openSignup(page);
    const started = Date.now();
    await submitEmail(page, uniqueEmail('retry'));
    await page.waitForURL((url) => url.pathname === '/checkout_v3_tr', { timeout: PATIENCE_MS });
    // Two pauses of 1000 ms before the third try.
    expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
    expect(await signupField(page, 'paymentSettingsStatus')).toBe('success');
    expect(await signupField(page, 'paymentProvider')).toBe('test');
    const settingsUrl = apiUrl('/users/me/payments-settings');
    expect(problems).toEqual([`500 ${settingsUrl}`, `500 ${settingsUrl}`]);
    await context.close();
  });

  it('three failures: status fail with the default card provider, and the visitor moves on', async () => {
    await switchFaultOn('payments-settings', 3);
    const { context, page, problems } = await visitor();
    await holdStripeJs(context);
    await openSignup(page);
    await submitEmail(page, uniqueEmail('settings-down'));
    await page.waitForURL((url) => url.pathname === '/checkout_v3_tr', { timeout: PATIENCE_MS });
    expect(await signupField(page, 'isSuccess')).toBe(true);
    expect(await signupField(page, 'paymentSettingsStatus')).toBe('fail');
    expect(await signupField(page, 'paymentProvider')).toBe('stripe');
    expect(await signupField(page, 'stripe')).toEqual({ key: '', name: '' });
    expect(problems).toEqual(Array(3).fill(`500 ${apiUrl('/users/me/payments-settings')}`));
    await context.close();
  });
});

describe('an invalid number (SPEC.md §5, §8 Phone and map)', () => {
  it('a number the page accepts but the portal refuses reads "Phone number is incorrect"', async () => {
    const { context, page, problems } = await visitor();
    // Well-formed E.164, but no such US area code: the portal answers 400.
    await page.addInitScript(() => localStorage.setItem('gf:map:phone', '"+19995550123"'));
    await page.goto('/searching?skip_split=true');
    await interactive(page);
    expect(await searchNotice(page)).toBe('Phone number is incorrect');
    expect(await toastMessage(page)).toBe('Phone number is incorrect');
    expect(await page.locator('#continue-button').isDisabled()).toBe(true);
    expect(await page.getByRole('link', { name: 'Enter a phone number' }).count()).toBe(1);
    expect(problems).toEqual([`400 ${apiUrl('/phone-number-info/%2B19995550123')}`]);
    await context.close();
  });
});
