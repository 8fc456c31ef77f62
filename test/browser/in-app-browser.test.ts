import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IN_APP_USER_AGENTS } from '../fixtures/in-app-user-agents';
import { type BrowserSession, startBrowserSession } from './harness';
import { payButton, portalSubscriptions, receiptDialog, typeTestCard } from './money-path';
import { PATIENCE_MS } from './patience';
import { interactive, postSignUp, signupField, uniqueEmail } from './visitor-steps';

/**
 * A visitor from an ad: inside Instagram's own browser (its real user agent), signed up by email;
 * Open in browser on the checkout makes a link that, opened in a second, fresh browser, carries
 * on as the same visitor, signed in, with the plan they chose, to one paid subscription.
 */

const INSTAGRAM_IOS = IN_APP_USER_AGENTS.instagram.ios[0] ?? '';
const DESKTOP_CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const QUERY = '?utm_source=instagram&fbclid=IwAR0inapp';

let session: BrowserSession;
beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(() => session?.stop());

async function inInstagram() {
  const context = await session.browser.newContext({
    baseURL: session.worker.url.href,
    userAgent: INSTAGRAM_IOS,
    viewport: { width: 390, height: 844 },
  });
  return { context, page: await context.newPage() };
}

/** Presses Open in browser; resolves the link the worker made. */
async function takeWayOut(page: Page): Promise<string> {
  const [answer] = await Promise.all([
    page.waitForResponse((response) => response.url().endsWith('/api/resume')),
    page.getByRole('button', { name: 'Open in browser' }).click(),
  ]);
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as { url: string }).url;
}

/** The real browser, with nothing of the app's but the link, opens it on `screen` and `QUERY`. */
async function openInRealBrowser(url: string, screen: string) {
  const context = await session.browser.newContext({
    baseURL: session.worker.url.href,
    userAgent: DESKTOP_CHROME,
  });
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForURL((landed) => landed.pathname === `/${screen}` && landed.search === QUERY);
  await interactive(page);
  return { context, page };
}

const cookie = async (
  context: { cookies(): Promise<{ name: string; value: string }[]> },
  name: string,
) => (await context.cookies()).find((each) => each.name === name)?.value;

describe('a visitor inside an ad app’s browser, in Chromium', () => {
  // The page's HTML in an app's browser (no Google button and why, the card selected, the way
  // out and its note) is the worker's (test/worker/in-app-browser.test.ts); the link, its
  // cookies, its entries and its single use too (test/worker/resume-link.test.ts). Here the
  // resume page's own script, under its policy, hands what was typed and the account to the
  // real browser's stores, and the checkout there pays.
  // slow: a checkout in the in-app browser, then a second browser that opens the link and pays
  it('after sign-up, leaves a checkout for the real browser signed in, plan kept, and pays once', async () => {
    const inApp = await inInstagram();
    const email = uniqueEmail('in-app-paid');
    const checkout = await postSignUp(inApp.context, session.worker.url, `/signup${QUERY}`, email);
    expect(checkout.pathname + checkout.search).toBe(`/checkout_v3_tr${QUERY}`);
    await inApp.page.goto(checkout.href);
    await interactive(inApp.page);
    const userId = (await signupField(inApp.page, 'userId')) as string;
    await inApp.page.getByRole('radio', { name: '3-month plan' }).click();
    // Wallets may not work here: said in words, with the way out beside the card form.
    await expect
      .poll(() => inApp.page.locator('.in-app-way-out__note').textContent())
      .toContain('Apple Pay and Google Pay may not work inside Instagram');
    const url = await takeWayOut(inApp.page);
    // iOS: no link leaves an app's browser by itself; the visitor is told what to do with it.
    await expect
      .poll(() => inApp.page.locator('.open-in-browser__message').textContent())
      .toMatch(/Safari|Copy this link/);
    const variant = await cookie(inApp.context, 'gf_variant');
    const uuid = await cookie(inApp.context, 'userUuid');
    expect(uuid).toBeTruthy();
    await inApp.context.close();

    // The real browser is the same visitor, signed in to the account by the link.
    const { context, page } = await openInRealBrowser(url, 'checkout_v3_tr');
    expect(await cookie(context, 'gf_variant')).toBe(variant);
    expect(await cookie(context, 'userUuid')).toBe(uuid);
    expect(await signupField(page, 'userId')).toBe(userId);
    expect(await signupField(page, 'email')).toBe(email);
    await expect
      .poll(() =>
        page
          .locator('.plan-picker [role="radio"][aria-checked="true"]')
          .getAttribute('data-plan-id'),
      )
      .toBe('quarterly_usd');
    // Outside the app, no way out to offer.
    expect(await page.locator('.in-app-way-out').count()).toBe(0);
    // The link worked once: the same link now says it is used up.
    expect((await context.request.get(url)).status()).toBe(410);

    await typeTestCard(page, '4242 4242 4242 4242');
    await payButton(page).click();
    await receiptDialog(page).waitFor({ timeout: PATIENCE_MS });
    expect(await portalSubscriptions(session, userId)).toEqual([
      expect.objectContaining({ plan_id: 'quarterly_usd', status: 'active' }),
    ]);
    await context.close();
  });
});
