import type { BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatInternational } from '../../shared/phone/phone-number';
import { type BrowserSession, startBrowserSession } from './harness';
import { PATIENCE_MS } from './patience';
import {
  backStaysPut,
  expectLaidOutLocated,
  interactive,
  islandsHydrated,
  JOURNEY_SCREENS,
  signupField,
  uniqueEmail,
} from './visitor-steps';

/**
 * The funnel's first screens end to end, as one visitor on a phone walks them, then each
 * searching screen once located: the built worker's pages hydrating the built islands, its /api
 * in front of the embedded portal on D1. What each island does with each answer, and each
 * screen's HTML, are proved below the browser: the phone form in happy-dom
 * (test/unit/landing/PhoneForm.test.tsx), the search (test/unit/searching/SearchProgress.test.tsx),
 * the sign-up form and the sign-up's calls, its retries and its toasts
 * (test/unit/signup/signup-form.test.tsx, sign-up.test.ts); the forms without script and the
 * islands' texts in workerd (test/worker/phone-form.test.ts, signup-form.test.ts,
 * forms-without-script.test.ts, signup-island-texts.test.ts).
 */

let session: BrowserSession;
beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(() => session?.stop());

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

const stored = (page: Page, key: string) =>
  page.evaluate((name) => localStorage.getItem(name), key);

/** The searching screen's result rows, by their labels. */
async function searchRows(page: Page): Promise<Record<string, string>> {
  return Object.fromEntries(
    await page
      .locator('.search__row')
      .evaluateAll((rows) =>
        rows.map((row) => [
          row.querySelector('dt')?.textContent ?? '',
          row.querySelector('dd')?.textContent ?? '',
        ]),
      ),
  );
}

/** Records the page's requests to other origins until `stop`, which returns them. */
function watchOffSite(page: Page): { stop(): string[] } {
  const foreign: string[] = [];
  const listener = (request: Request) => {
    if (new URL(request.url()).origin !== session.worker.url.origin) foreign.push(request.url());
  };
  page.on('request', listener);
  return {
    stop() {
      page.off('request', listener);
      return foreign;
    },
  };
}

describe('locate, then sign up by email (SPEC.md §1, §2, §4 Signup)', () => {
  // slow: four screens and a reload in Chromium, the searching screen's real lookup and a
  // sign-up among them
  it('a US visitor on a 350 px phone: refused, then located, searched, signed up; the token stays out of page JavaScript', async () => {
    const { context, page, problems } = await session.newVisitor({
      viewport: { width: 350, height: 740 },
      // The search's few seconds with motion allowed, Continue off throughout, are the island's
      // (test/unit/searching/SearchProgress.test.tsx): here it runs in a moment.
      reducedMotion: 'reduce',
    });
    const query = '?skip_split=true&gclid=j-1';
    const rules: string[] = [];
    page.on('request', (request) => {
      const name = /\/assets\/(phone-checks|zone-\d+)-/.exec(request.url())?.[1];
      if (name) rules.push(name);
    });
    await page.goto(`/one_pager${query}`);
    await islandsHydrated(page);
    // Each screen of the journey keeps the visitor on Back, as flows.test.ts checks its walks'.
    const held: string[] = [];
    const holdsBack = async (screen: (typeof JOURNEY_SCREENS)[number]) => {
      await backStaysPut(page, `/${screen}`);
      held.push(screen);
    };
    await holdsBack('one_pager');
    expect(rules, 'the phone rules come only once the field is touched').toEqual([]);
    // The worker sees the visitor in the US (Miniflare's request.cf): the field starts there.
    expect(await page.locator('.phone-input__summary').textContent()).toBe('US +1');

    // A number the rules refuse: the message beside the field, and the visitor stays.
    const field = page.getByLabel('Phone number to locate');
    // Every move the page starts: the Navigation API fires `navigate` as a navigation begins.
    await page.evaluate(() => {
      const counted = window as unknown as { moves: number; navigation: EventTarget };
      counted.moves = 0;
      counted.navigation.addEventListener('navigate', () => {
        counted.moves += 1;
      });
    });
    await field.fill('12345');
    await page.locator('#continue-button').click();
    await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
    const message = page.locator(`[id="${await field.getAttribute('aria-describedby')}"]`);
    expect(await message.textContent()).toBe(
      'This is not a valid phone number for the selected country. Please check it and try again.',
    );
    expect(await message.isVisible(), 'the refusal is shown').toBe(true);
    expect(await message.getAttribute('role')).toBe('alert');
    // Focusing the field is the refusal's last step, after any move on it would have begun.
    await expect.poll(() => field.evaluate((input) => input === document.activeElement)).toBe(true);
    expect(await page.evaluate(() => (window as { moves?: number }).moves), 'no move').toBe(0);
    expect(new URL(page.url()).pathname).toBe('/one_pager');
    expect(await stored(page, 'gf:map:phone')).toBeNull();

    // A valid one, formatted once the rules and the US zone have come.
    await field.fill('');
    await field.pressSequentially('2015550123');
    await expect.poll(() => field.inputValue()).toBe('(201) 555-0123');
    expect(rules, 'the rules and the visitor’s zone, fetched once').toEqual([
      'phone-checks',
      'zone-1',
    ]);
    const historyLength = await page.evaluate(() => history.length);
    const logsBefore = session.worker.logs.length;
    // The searching page draws its map itself: no third-party script, tile or image.
    const offSite = watchOffSite(page);
    await page.locator('#continue-button').click();

    // Searching: the number, its steps, the portal's answer.
    await page.waitForURL((url) => url.pathname === '/searching');
    expect(new URL(page.url()).search).toBe(query);
    expect(await stored(page, 'gf:map:phone')).toBe('"+12015550123"');
    await islandsHydrated(page);
    expect(await page.evaluate(() => history.length), 'the move pushed no entry').toBe(
      historyLength,
    );
    expect(await page.evaluate(() => window.scrollY), 'at the top').toBe(0);
    expect(await page.locator('.search__number-value').textContent()).toBe('+1 201 555 0123');
    for (const step of [
      'Connecting to the cellular base station',
      'Identifying the network operator',
      'Connecting to the phone',
      'Number located',
    ])
      expect(await page.locator('.search__step', { hasText: step }).count(), step).toBe(1);
    const continueButton = page.locator('#continue-button');
    const ring = page.getByRole('progressbar', { name: 'Search progress' });
    await expect.poll(() => continueButton.isEnabled(), { timeout: PATIENCE_MS }).toBe(true);
    expect(await ring.getAttribute('aria-valuenow')).toBe('100');
    expect(await searchRows(page)).toMatchObject({
      Country: 'United States',
      'Time zone': expect.stringMatching(/\(New York\)$/),
      City: 'Washington',
    });
    // The map's point follows the rows: geocoded after the lookup has answered.
    await expect
      .poll(() => stored(page, 'gf:map:initCoords'))
      .toBe('{"lat":38.9072,"lng":-77.0369}');
    expect(await lookupsOf('+12015550123')).toBe(1);
    expect(await page.locator('h1').innerText()).toBe('Number located');
    await expectLaidOutLocated(page);
    expect(offSite.stop(), 'requests to other sites').toEqual([]);
    await holdsBack('searching');
    // Once painted, the page's script has the next screen fetched ahead of the click.
    await expect
      .poll(() =>
        session.worker.logs
          .slice(logsBefore)
          .some((line) => line.path === '/signup' && line.prefetch === true),
      )
      .toBe(true);

    // A reload shows the kept answer (the number's owner is not texted again), keeps the
    // persisted slices and drops the error and loader state.
    await page.evaluate(() => localStorage.setItem('gf:plans:plan', '"monthly"'));
    await page.reload();
    await islandsHydrated(page);
    await expect.poll(() => continueButton.isEnabled(), { timeout: PATIENCE_MS }).toBe(true);
    expect((await searchRows(page)).City).toBe('Washington');
    expect(await lookupsOf('+12015550123'), 'one lookup, reload or not').toBe(1);
    expect(await stored(page, 'gf:plans:plan'), 'a persisted slice kept').toBe('"monthly"');
    expect(await stored(page, 'gf:app:flow')).toBe('"default"');
    expect(
      await page.evaluate(() =>
        Object.keys(localStorage).filter((key) => /^gf:(error|loader):/.test(key)),
      ),
      'no error or loader state kept',
    ).toEqual([]);

    // Sign-up: the located number, then an address refused, completed and sent.
    await continueButton.click();
    await page.waitForURL((url) => url.pathname === '/signup');
    expect(new URL(page.url()).search).toBe(query);
    await expect
      .poll(() => page.locator('.located-banner').textContent())
      .toContain('+1 201 555 0123');
    await islandsHydrated(page);
    const signupHistory = await page.evaluate(() => history.length);
    // After the reload the searching page sat on the guard entry an earlier document pushed:
    // it replaced that entry, not stepping off it (islands/boot.ts), and the sign-up pushed its
    // own guard: one entry more than a walk without a reload keeps.
    expect(signupHistory, 'one entry for the reload').toBe(historyLength + 1);
    expect(await page.evaluate(() => window.scrollY), 'at the top').toBe(0);
    await holdsBack('signup');
    const email = page.getByLabel('Your email');
    await email.fill('anna@gmail');
    await email.blur();
    await expect.poll(() => page.getByText('Please enter a valid email address').count()).toBe(1);
    await page.locator('#continue-button').click();
    expect(new URL(page.url()).pathname).toBe('/signup');

    const address = uniqueEmail('journey');
    await email.fill(address.replace(/example\.com$/, ''));
    const continueTop = () =>
      page.locator('#continue-button').evaluate((button) => button.getBoundingClientRect().top);
    const before = await continueTop();
    await page.getByRole('button', { name: /example\.com/ }).click();
    expect(await email.inputValue()).toBe(address);
    // The shortcuts narrow to the one typed, and Continue stays where the thumb is.
    expect(await page.locator('.email-input__shortcut-row:not([aria-hidden]) button').count()).toBe(
      1,
    );
    expect(await continueTop(), 'Continue stays put').toBe(before);
    await email.press('Enter');
    await page.waitForURL((url) => url.pathname === '/checkout_v3_tr', { timeout: PATIENCE_MS });
    expect(new URL(page.url()).search).toBe(query);
    expect(await page.locator('h1').textContent()).toBe('Choose your plan');
    await islandsHydrated(page);
    expect(await page.evaluate(() => history.length), 'the move pushed no entry').toBe(
      signupHistory,
    );
    expect(await page.evaluate(() => window.scrollY), 'at the top').toBe(0);
    expect(held, 'Back held on each screen').toEqual([...JOURNEY_SCREENS]);

    // The portal knows the visitor, with the uuid of their cookie.
    const uuid = (await context.cookies()).find((c) => c.name === 'userUuid')?.value;
    expect(await portalUser(address)).toMatchObject({
      email: address,
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
    expect(await signupField(page, 'email')).toBe(address);
    expect(await signupField(page, 'userId')).toBe((await portalUser(address))!.id);
    expect(await signupField(page, 'paymentSettingsStatus')).toBe('success');
    expect(await signupField(page, 'paymentProvider')).toBe('test');
    expect(await signupField(page, 'stripe')).toEqual({ key: '', name: 'Geofunnel test gateway' });
    expect(await signupField(page, 'deeplinkUrl')).toMatch(/^https?:\/\//);
    expect(await signupField(page, 'deeplinkQR')).toMatch(/^data:image\/svg\+xml/);
    expect(problems).toEqual([]);
    await context.close();
  });
});

/**
 * A visitor on a 350 px phone, preferring reduced motion, whose landing already stored `phone`
 * (E.164): what the landing's phone form stores, the number in E.164 and as people write it.
 */
async function visitorWithNumber(phone: string) {
  const visitor = await session.newVisitor({
    viewport: { width: 350, height: 740 },
    reducedMotion: 'reduce',
  });
  await visitor.page.addInitScript(
    ([value, display]) => {
      if (!localStorage.getItem('gf:map:phone')) {
        localStorage.setItem('gf:map:phone', JSON.stringify(value));
        localStorage.setItem('gf:map:phoneDisplay', JSON.stringify(display));
      }
    },
    [phone, formatInternational(phone)],
  );
  return visitor;
}

/**
 * The search played with motion allowed, taking a few seconds, is the island's
 * (test/unit/searching/SearchProgress.test.tsx);
 * opened without a number, the screen's notice and its link back to the landing with the query
 * are the island's and the screen's (test/unit/searching/SearchProgress.test.tsx,
 * searching-screens.test.tsx). The searching screen is laid out and checked the same way on the
 * journey above, searching_2 on flows.test.ts's walk through it.
 */
describe('searching screens in Chromium (SPEC.md §2)', () => {
  it('searching_ai locates the stored number: steps, ring, map and results at 350px, no console problem, nothing from another site', async () => {
    const { context, page, problems } = await visitorWithNumber('+447400123456');
    const offSite = watchOffSite(page);
    await page.goto('/searching_ai?skip_split=true');
    await interactive(page);
    const continueButton = page.locator('#continue-button');
    // Before the island hydrates, the server's Continue is enabled (so the screen works
    // without JavaScript); the finished search is what to wait for.
    await expect
      .poll(() => page.locator('.search__step--done').count(), { timeout: PATIENCE_MS })
      .toBe(4);
    expect(await continueButton.isEnabled()).toBe(true);
    expect(await page.locator('.search__number-value').textContent()).toBe('+44 7400 123456');
    const rows = await page.locator('.search__row dd').allTextContents();
    expect(rows).toEqual([
      'Mobile network',
      'United Kingdom',
      expect.stringMatching(/^GMT(\+0|\+1)? \(London\)$/),
      'London',
      '51.5074, -0.1278',
    ]);
    // Done, the title says so.
    expect(await page.locator('h1').innerText()).toBe('AI has located the number');
    await expectLaidOutLocated(page);
    expect(offSite.stop(), 'requests to other sites').toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
