import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Theme } from '../../shared/theme';
import { brandProblems } from './brand-checks';
import { type BrowserSession, startBrowserSession, watchPage } from './harness';
import { payButton } from './money-path';
import { PATIENCE_MS } from './patience';
import { interactive, postSignUp, uniqueEmail } from './visitor-steps';

/**
 * A buyer of another brand than the default meets only that brand, in their language, from the
 * checkout on, in one walk: the receipt dialog, then, in the same browser with the purchase's
 * session gone, the contract pages its footer leads to, where they withdraw by keyboard. The
 * brand check is the screen walk's (./brand-checks.ts): no other brand's name, site or support
 * address in the text, the title or any address the page links to or loads, and the title ending
 * with its own brand.
 *
 * What each of the four brands' buyers gets back is workerd's to read: every screen, the declined
 * page among them, in every theme (test/worker/render/brands.test.ts), which the screen walk also
 * checks in Chromium (every-screen.test.ts, every screen in every theme); the manage link and every
 * page after the sale (manage, cancel, guarantee, recovery and the contract pages) in each
 * buyer's brand and language, opened in an English browser too
 * (test/worker/subscriber-links/subscriber-page.test.ts); on the contract page, an unknown email
 * answered as a match and a burst refused (test/worker/contract-page/contract-page.test.ts).
 */

let session: BrowserSession;
beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(() => session?.stop());

/**
 * Types a card into the test gateway's frame by its fields' ids: its labels speak the buyer's
 * language (money-path.ts's typeTestCard reads the English ones).
 */
async function typeCard(page: Page, number: string): Promise<void> {
  const frame = page.frameLocator('iframe.card-frame');
  await frame.locator('#card-number').fill(number);
  await frame.locator('#card-expiry').fill('12/34');
  await frame.locator('#card-cvc').fill('123');
  await expect.poll(() => payButton(page).isEnabled(), { timeout: PATIENCE_MS }).toBe(true);
}

/** A row of the page's receipt rows (`dt` then `dd`), read by its label. */
const rowValue = (page: Page, label: string) =>
  page
    .locator('.receipt__row', { has: page.locator('dt', { hasText: label }) })
    .locator('dd')
    .first();

describe('after the sale, in the brand and language bought in', () => {
  // slow: a checkout paid, then three contract pages, in Chromium
  it('a Brainbloom buyer in German: the receipt, then withdraws from the footer by keyboard and is refunded', async () => {
    const theme: Theme = 'brainbloom';
    const german = { 'Accept-Language': 'de-DE,de' };
    const buyer = await session.browser.newContext({
      baseURL: session.worker.url.href,
      locale: 'de-DE',
      extraHTTPHeaders: german,
      viewport: { width: 390, height: 844 },
    });
    const page = await buyer.newPage();
    const { problems } = watchPage(page);
    const email = uniqueEmail('withdraw');
    const checkout = `/checkout_v3_tr?skip_split=true&theme=${theme}`;
    const next = await postSignUp(
      buyer,
      session.worker.url,
      `/signup?skip_split=true&theme=${theme}`,
      email,
      german,
    );
    expect(next.pathname + next.search).toBe(checkout);
    await page.goto(next.href);
    await interactive(page);
    expect(await page.locator('html').getAttribute('lang'), 'checkout language').toBe('de');

    await typeCard(page, '4242 4242 4242 4242');
    await payButton(page).click();
    // The receipt: the dialog its successful charge opens, named in the buyer's language, with
    // the order reference the contract page asks for, and links to the subscription and to it.
    const receipt = page.locator('dialog[open]');
    await receipt.waitFor({ timeout: PATIENCE_MS });
    expect(await brandProblems(page), 'receipt dialog').toEqual({});
    const manage = await receipt.locator('a[href*="/subscription/"]').getAttribute('href');
    expect(manage, 'manage link in the brand and language').toMatch(
      new RegExp(`\\.${theme}~de\\.[A-Za-z0-9_-]{43}$`),
    );
    const reference = (await rowValue(page, 'Bestellreferenz').textContent()) ?? '';
    expect(reference).toMatch(/^sub_/);
    expect(
      await receipt.getByRole('link', { name: 'Vertrag widerrufen' }).getAttribute('href'),
    ).toBe(`/contract/withdraw?theme=${theme}`);

    // The same browser without the purchase's session: never signed in, as far as anyone knows.
    await buyer.clearCookies();
    await page.evaluate(() => {
      localStorage.clear();
      sessionStorage.clear();
    });
    // The landing's footer, in the brand's look.
    await page.goto(`/?theme=${theme}`);
    await page.getByRole('link', { name: 'Verträge hier kündigen' }).click();
    await page.getByRole('heading', { level: 1, name: 'Verträge hier kündigen' }).waitFor();
    expect(await page.getByRole('button', { name: 'jetzt kündigen' }).isVisible()).toBe(true);
    expect(await page.getByRole('radio', { name: /^Ordentlich/ }).isChecked()).toBe(true);
    expect(await brandProblems(page), 'cancellation page').toEqual({});

    await page.getByRole('link', { name: 'Vertrag widerrufen' }).click();
    await page.getByRole('heading', { level: 1, name: 'Vertrag widerrufen' }).waitFor();
    // By keyboard: the email, the reference, then the one confirmation.
    await page.getByLabel('E-Mail-Adresse, mit der Sie gekauft haben').focus();
    await page.keyboard.type(email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(reference);
    await page.getByRole('button', { name: 'Widerruf bestätigen' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Ihr Widerruf ist eingegangen' }).waitFor();
    expect(await rowValue(page, 'Ihre Erklärung').textContent()).toBe(
      `Hiermit widerrufe ich meinen Vertrag mit Brainbloom, Bestellreferenz ${reference}.`,
    );
    expect(await rowValue(page, 'Eingegangen').textContent()).toMatch(
      /^\d{1,2}\. \S+ \d{4} um \d{2}:\d{2} UTC$/,
    );
    expect(await brandProblems(page), 'acknowledgement').toEqual({});
    // Within 14 days: the first charge refunded, the acknowledgement asked of the product API.
    const ended = await session.worker.portalDb
      .prepare('SELECT refunded_at FROM subscriptions WHERE id = ?')
      .bind(reference)
      .first<{ refunded_at: string | null }>();
    expect(ended?.refunded_at).not.toBeNull();
    const declared = await session.worker.portalDb
      .prepare('SELECT outcome, submitted_at, language, brand FROM contract_requests')
      .all<{ outcome: string; submitted_at: string; language: string; brand: string }>();
    expect(declared.results).toMatchObject([
      { outcome: 'withdrawn', language: 'de', brand: theme },
    ]);
    expect(Number.isFinite(Date.parse(declared.results[0]?.submitted_at ?? ''))).toBe(true);
    expect(problems).toEqual([]);
    await buyer.close();
  });
});
