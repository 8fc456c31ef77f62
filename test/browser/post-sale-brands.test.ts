import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Theme } from '../../shared/theme';
import { brandProblems } from './brand-checks';
import { type BrowserSession, startBrowserSession, watchPage } from './harness';
import { payButton } from './money-path';
import { PATIENCE_MS } from './patience';
import { interactive, submitEmail, uniqueEmail } from './visitor-steps';

/**
 * A buyer of each brand meets only that brand, in their language, from the checkout on: the
 * declined page, the receipt dialog, and the subscriber's page its manage link opens in another
 * browser set to English (the link carries the purchase's brand and language, signed:
 * worker/subscriber-links/link-token.ts). The brand check is the screen walk's
 * (./brand-checks.ts): no other brand's name, site or support address in the text, the title or
 * any address the page links to or loads, and the title ending with its own brand. The pages the
 * manage link opens are read in every brand in workerd too
 * (test/worker/subscriber-links/subscriber-page.test.ts).
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

const BUYERS: readonly (readonly [Theme, string])[] = [
  ['brainbloom', 'de'],
  ['findo', 'pt'],
  ['family-locator', 'es'],
  ['geozilla', 'ar'],
];

describe('after the sale, in the brand and language bought in', () => {
  // slow: a sign-up, a declined charge and a paid one in Chromium, then a second browser
  it.each(BUYERS)(
    'a %s buyer in %s: the declined page, the receipt and the manage link',
    async (theme, language) => {
      const buyer = await session.browser.newContext({
        baseURL: session.worker.url.href,
        locale: language,
        extraHTTPHeaders: { 'Accept-Language': language },
        viewport: { width: 390, height: 844 },
      });
      const page = await buyer.newPage();
      const { problems } = watchPage(page);
      const checkout = `/checkout_v3_tr?skip_split=true&theme=${theme}`;
      await page.goto(`/signup?skip_split=true&theme=${theme}`);
      await interactive(page);
      await submitEmail(page, uniqueEmail(`brand-${theme}`));
      await page.waitForURL((url) => url.pathname === '/checkout_v3_tr', { timeout: PATIENCE_MS });
      await interactive(page);

      await typeCard(page, '4000 0000 0000 0002');
      await payButton(page).click();
      await page.waitForURL((url) => url.pathname === '/payment_declined', {
        timeout: PATIENCE_MS,
      });
      await interactive(page);
      expect(await page.locator('html').getAttribute('lang')).toBe(language);
      expect(await brandProblems(page), 'declined page').toEqual({});

      // As its Try again does: back to the checkout, where 4242 pays.
      await page.goto(checkout);
      await interactive(page);
      await typeCard(page, '4242 4242 4242 4242');
      await payButton(page).click();
      // The receipt: the dialog its successful charge opens, named in the buyer's language.
      const receipt = page.locator('dialog[open]');
      await receipt.waitFor({ timeout: PATIENCE_MS });
      expect(await brandProblems(page), 'receipt dialog').toEqual({});
      const manage = await receipt.locator('a[href*="/subscription/"]').getAttribute('href');
      expect(manage).toMatch(new RegExp(`\\.${theme}~${language}\\.[A-Za-z0-9_-]{43}$`));
      expect(problems).toEqual([]);
      await buyer.close();

      // The link opened from the email on another device, in English.
      const elsewhere = await session.newVisitor({ locale: 'en-US' });
      await elsewhere.page.goto(new URL(manage ?? '').pathname);
      await interactive(elsewhere.page);
      expect(await elsewhere.page.locator('html').getAttribute('lang')).toBe(language);
      expect(await brandProblems(elsewhere.page), 'manage page').toEqual({});
      await elsewhere.context.close();
    },
  );
});

/** A row of the page's receipt rows (`dt` then `dd`), read by its label. */
const rowValue = (page: Page, label: string) =>
  page
    .locator('.receipt__row', { has: page.locator('dt', { hasText: label }) })
    .locator('dd')
    .first();

describe('withdrawing and cancelling online, without a login', () => {
  // slow: a purchase in Chromium, then the contract pages in a second browser
  it('a German buyer reaches both from the footer, withdraws in one confirmation and is refunded; an unknown email reads the same; a burst is refused', async () => {
    const theme: Theme = 'brainbloom';
    const german = {
      baseURL: session.worker.url.href,
      locale: 'de-DE',
      extraHTTPHeaders: { 'Accept-Language': 'de-DE,de' },
      viewport: { width: 390, height: 844 },
    };
    const buyer = await session.browser.newContext(german);
    const page = await buyer.newPage();
    const email = uniqueEmail('withdraw');
    await page.goto(`/signup?skip_split=true&theme=${theme}`);
    await interactive(page);
    await submitEmail(page, email);
    await page.waitForURL((url) => url.pathname === '/checkout_v3_tr', { timeout: PATIENCE_MS });
    await interactive(page);
    await typeCard(page, '4242 4242 4242 4242');
    await payButton(page).click();
    // The receipt names the order reference the contract page asks for, and links to it.
    const receipt = page.locator('dialog[open]');
    await receipt.waitFor({ timeout: PATIENCE_MS });
    const reference = (await rowValue(page, 'Bestellreferenz').textContent()) ?? '';
    expect(reference).toMatch(/^sub_/);
    expect(
      await receipt.getByRole('link', { name: 'Vertrag widerrufen' }).getAttribute('href'),
    ).toBe(`/contract/withdraw?theme=${theme}`);
    await buyer.close();

    // Another browser, never signed in: the landing's footer, in the brand's look.
    const stranger = await session.browser.newContext(german);
    const visitor = await stranger.newPage();
    const { problems } = watchPage(visitor);
    await visitor.goto(`/?theme=${theme}`);
    await visitor.getByRole('link', { name: 'Verträge hier kündigen' }).click();
    await visitor.getByRole('heading', { level: 1, name: 'Verträge hier kündigen' }).waitFor();
    expect(await visitor.getByRole('button', { name: 'jetzt kündigen' }).isVisible()).toBe(true);
    expect(await visitor.getByRole('radio', { name: /^Ordentlich/ }).isChecked()).toBe(true);
    expect(await brandProblems(visitor), 'cancellation page').toEqual({});

    await visitor.getByRole('link', { name: 'Vertrag widerrufen' }).click();
    await visitor.getByRole('heading', { level: 1, name: 'Vertrag widerrufen' }).waitFor();
    // By keyboard: the email, the reference, then the one confirmation.
    await visitor.getByLabel('E-Mail-Adresse, mit der Sie gekauft haben').focus();
    await visitor.keyboard.type(email);
    await visitor.keyboard.press('Tab');
    await visitor.keyboard.type(reference);
    await visitor.getByRole('button', { name: 'Widerruf bestätigen' }).focus();
    await visitor.keyboard.press('Enter');
    await visitor
      .getByRole('heading', { level: 1, name: 'Ihr Widerruf ist eingegangen' })
      .waitFor();
    expect(await rowValue(visitor, 'Ihre Erklärung').textContent()).toBe(
      `Hiermit widerrufe ich meinen Vertrag mit Brainbloom, Bestellreferenz ${reference}.`,
    );
    expect(await rowValue(visitor, 'Eingegangen').textContent()).toMatch(
      /^\d{1,2}\. \S+ \d{4} um \d{2}:\d{2} UTC$/,
    );
    expect(await brandProblems(visitor), 'acknowledgement').toEqual({});
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
    const acknowledged = await visitor.locator('main').innerText();

    // Someone else's email: the very same page, nothing told.
    await visitor.goto(`/contract/withdraw?theme=${theme}`);
    await visitor
      .getByLabel('E-Mail-Adresse, mit der Sie gekauft haben')
      .fill('jemand@example.test');
    await visitor.getByLabel('Bestellreferenz').fill(reference);
    await visitor.getByRole('button', { name: 'Widerruf bestätigen' }).click();
    await visitor
      .getByRole('heading', { level: 1, name: 'Ihr Widerruf ist eingegangen' })
      .waitFor();
    const stranger_ = (await visitor.locator('main').innerText()).replaceAll(
      'jemand@example.test',
      email,
    );
    const same = (text: string) =>
      text.replace(/\d{2}:\d{2} UTC/, '<time>').replace(/ctr_[\w-]+/, '<number>');
    expect(same(stranger_)).toBe(same(acknowledged));

    // A burst of declarations from this address: refused once past its hourly limit.
    const statuses = await visitor.evaluate(async () => {
      const answered: number[] = [];
      for (let n = 0; n < 10; n += 1) {
        const body = new URLSearchParams({ email: `burst${n}@example.test`, reference: 'sub_x' });
        answered.push((await fetch('/contract/withdraw', { method: 'POST', body })).status);
      }
      return answered;
    });
    expect(statuses.slice(0, 8)).toEqual(Array(8).fill(200));
    expect(statuses.slice(8)).toEqual([429, 429]);
    // Nothing failed on the way but the two refusals the burst was meant to meet.
    expect(problems).toEqual(Array(2).fill(expect.stringMatching(/^429 .*\/contract\/withdraw$/)));
    await stranger.close();
  });
});
