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
