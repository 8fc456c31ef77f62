import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSession, startBrowserSession } from './harness';
import { PATIENCE_MS } from './patience';
import {
  interactive,
  islandsHydrated,
  signupField,
  submitEmail,
  uniqueEmail,
} from './visitor-steps';

let session: BrowserSession;
beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(() => session?.stop());

/**
 * That every screen hydrates its islands with no console error or warning, in every theme and
 * language walked, is every-screen.test.ts's walk's, in the same loads as its layout checks.
 * The next screen fetched ahead of the click, and the persisted slices kept across a reload
 * while the error and loader state is dropped, are proved along sign-up.test.ts's journey; the
 * landing's and the signup's forms without script in workerd (test/worker/forms-without-script.test.ts,
 * phone-form.test.ts, signup-form.test.ts), and posted by Chromium itself, the prefetched next
 * screen not shown, when the form's island never comes (chunk-load-failure.test.ts).
 */
describe('pages in Chromium', () => {
  it('fetches no script before the first paint, then hydrates every island', async () => {
    // Every screen's markup asks for no script but the one module that waits for the paint
    // (test/worker/routes.test.tsx): Chromium keeping that wait is read on the checkout, the
    // screen with the most modules and the card fields' frame.
    const { context, page, problems } = await session.newVisitor({ emptyCache: true });
    await page.goto('/checkout_v3_tr');
    await islandsHydrated(page);
    const { firstPaint, scripts } = await page.evaluate(() => ({
      firstPaint: performance.getEntriesByName('first-paint')[0]?.startTime ?? null,
      scripts: performance
        .getEntriesByType('resource')
        .filter((entry) => new URL(entry.name).pathname.endsWith('.js'))
        .map((entry) => ({ url: entry.name, at: entry.startTime })),
    }));
    expect(firstPaint).not.toBeNull();
    expect(scripts.length).toBeGreaterThan(0);
    const early = scripts.filter((script) => script.at < (firstPaint ?? Number.POSITIVE_INFINITY));
    expect(early, `scripts fetched before the first paint at ${firstPaint}`).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('acts on a number and an address typed before the forms’ islands hydrated', async () => {
    // A slow phone shows the forms well before their script runs: the visitor types meanwhile,
    // and taps once the page answers. Scripts wait here until the typing is done.
    const { context, page, problems } = await session.newVisitor({ emptyCache: true });
    let release = () => {};
    const typed = new Promise<void>((done) => {
      release = done;
    });
    await page.route(/\.js$/, async (route) => {
      await typed;
      await route.continue();
    });
    await page.goto('/?skip_split=true');
    await page.locator('select[name="country"]').selectOption('GB');
    await page.locator('input[type="tel"]').fill('07400 123456');
    release();
    await interactive(page);
    await page.locator('#continue-button').click();
    // The form acted: the number kept and the next screen asked for (the screen itself is
    // sign-up.test.ts's).
    await page.waitForURL((url) => url.pathname === '/searching', { waitUntil: 'commit' });
    expect(await page.evaluate(() => localStorage.getItem('gf:map:phone'))).toBe('"+447400123456"');

    let releaseSignup = () => {};
    const typedEmail = new Promise<void>((done) => {
      releaseSignup = done;
    });
    await page.unrouteAll();
    await page.route(/\.js$/, async (route) => {
      await typedEmail;
      await route.continue();
    });
    await page.goto('/signup?skip_split=true');
    const email = uniqueEmail('before-hydration');
    await page.locator('input[type="email"]').fill(email);
    releaseSignup();
    await interactive(page);
    await page.locator('.signup-form button[type="submit"]').click();
    await page.waitForURL((url) => url.pathname === '/checkout_v3_tr', {
      timeout: PATIENCE_MS,
      waitUntil: 'commit',
    });
    expect(await signupField(page, 'email')).toBe(email);
    expect(await signupField(page, 'isSuccess')).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('moves on to the next screen from a Back guard entry an earlier page pushed', async () => {
    // What a reload racing the page's boot leaves behind: the page starts on a guard entry it did
    // not push, with another page's entry below it. Stepping back off it would leave the funnel.
    const { context, page, problems } = await session.newVisitor();
    await page.addInitScript(() => history.replaceState({ geofunnelGuard: true }, ''));
    await page.goto('/signup?gclid=guard');
    await interactive(page);
    await page.getByLabel('Your email').fill('guard@example.com');
    await page.getByLabel('Your email').press('Enter');
    await page.waitForURL((url) => url.pathname === '/checkout_v3_tr', {
      timeout: PATIENCE_MS,
      waitUntil: 'commit',
    });
    expect(new URL(page.url()).search).toBe('?gclid=guard');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('asks for the next screen once, however slow it is to come', async () => {
    // Leaving steps off the Back guard entry, and a timer stands behind the step: both lead to
    // the next screen. A screen slower to come than the timer (a loaded phone, a slow network)
    // is still asked for once, its navigation not cut short by a second one.
    const { context, page, problems } = await session.newVisitor();
    const asked: string[] = [];
    await page.route(
      (url) => url.pathname === '/checkout_v3_tr',
      async (route) => {
        asked.push(route.request().resourceType());
        await new Promise((done) => setTimeout(done, 1500));
        await route.continue().catch(() => {});
      },
    );
    await page.goto('/signup?gclid=slow');
    await interactive(page);
    await submitEmail(page, uniqueEmail('slow-next'));
    await page.waitForURL((url) => url.pathname === '/checkout_v3_tr', { timeout: PATIENCE_MS });
    await interactive(page);
    expect(asked).toEqual(['document']);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a visitor in a used browser finds nothing the last one left, only cached scripts', async () => {
    const first = await session.newVisitor();
    await first.page.goto('/one_pager');
    await interactive(first.page);
    const uuidCookie = async (context: BrowserContext) =>
      (await context.cookies()).find((cookie) => cookie.name === 'userUuid')?.value;
    const firstUuid = await uuidCookie(first.context);
    const scriptsOf = (page: typeof first.page) =>
      page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .filter((entry) => entry.name.endsWith('.js'))
          .map((entry) => ({
            name: entry.name,
            transferSize: (entry as PerformanceResourceTiming).transferSize,
          })),
      );
    const firstScripts = new Set((await scriptsOf(first.page)).map((script) => script.name));
    await first.page.evaluate(async () => {
      localStorage.setItem('left-behind', '1');
      sessionStorage.setItem('left-behind', '1');
      await new Promise((done) => {
        indexedDB.open('left-behind').onsuccess = (event) => {
          (event.target as IDBOpenDBRequest).result.close();
          done(null);
        };
      });
    });
    await first.context.addCookies([
      { name: 'left-behind', value: '1', url: session.worker.url.href },
    ]);
    await first.context.close();

    const second = await session.newVisitor();
    expect(second.context).toBe(first.context);
    await second.page.goto('/one_pager');
    await interactive(second.page);
    expect(
      await second.page.evaluate(async () => ({
        local: localStorage.getItem('left-behind'),
        session: sessionStorage.getItem('left-behind'),
        cookie: document.cookie.includes('left-behind='),
        databases: (await indexedDB.databases()).map((database) => database.name),
      })),
    ).toEqual({ local: null, session: null, cookie: false, databases: [] });
    expect(await uuidCookie(second.context)).not.toBe(firstUuid);
    // The scripts the last visitor loaded came from the HTTP cache: nothing crossed the network
    // for them. Only those: this visitor may be in the field vitals' sample (a tenth of visitors,
    // by their new uuid) where the last was not, and load the vitals' chunk for the first time.
    const again = (await scriptsOf(second.page)).filter((script) => firstScripts.has(script.name));
    expect(again.length).toBeGreaterThan(0);
    expect(again.filter((script) => script.transferSize !== 0)).toEqual([]);
    await second.context.close();

    // A browser given an init script keeps it for every page: it is not handed on.
    const changed = await session.newVisitor();
    expect(changed.context).toBe(first.context);
    await changed.context.addInitScript(() => undefined);
    await changed.context.close();
    const next = await session.newVisitor();
    expect(next.context).not.toBe(changed.context);
    await next.context.close();
  });

  it('runs no inline script without the page nonce: the CSP is enforced', async () => {
    const { context, page, problems } = await session.newVisitor();
    // Stand-in for an escaping bug: an injected inline script arrives inside the real page.
    await page.route('**/one_pager', async (route) => {
      // A kept-alive socket the worker closed in the meantime resets; the GET is safe to repeat.
      const response = await route.fetch({ maxRetries: 2 });
      const html = (await response.text()).replace(
        '</main>',
        '</main><script>window.injected = true</script>',
      );
      await route.fulfill({ response, body: html });
    });
    await page.goto('/one_pager');
    await expect.poll(() => problems.join('\n')).toContain('Content Security Policy');
    expect(await page.evaluate(() => (window as { injected?: boolean }).injected)).toBeUndefined();
    // The page's own nonced script still ran.
    await interactive(page);
    await context.close();
  });
});
