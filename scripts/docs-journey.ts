import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';

/**
 * The README's picture of a visitor's journey, made by walking it: one visitor on a phone goes
 * from the landing through the search, sign-up and the checkout (the test gateway's 4242 card)
 * to its receipt, the upsell and success, as the browser tests' money path does, and each screen
 * is photographed. The seven photographs are then laid side by side in a page of their own and photographed once more, so
 * the picture is the browser's, never edited.
 */

const PHONE_VIEWPORT = { width: 390, height: 780 };
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

/** The page script has run and every island has hydrated. */
async function interactive(page: Page): Promise<void> {
  await page.waitForSelector('html[data-booted="yes"]', { state: 'attached', timeout: 20_000 });
}

async function arrive(page: Page, path: string): Promise<void> {
  await page.waitForURL((url) => url.pathname === path, { timeout: 30_000 });
  await interactive(page);
}

/** A phone's browser on the closed network: every other origin is refused at once. */
async function phoneContext(browser: Browser, origin: string): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: origin,
    viewport: PHONE_VIEWPORT,
    deviceScaleFactor: 1,
    userAgent: IPHONE,
    hasTouch: true,
    isMobile: true,
  });
  // Google's sign-in script and the like are refused at once, as a visitor who blocks them
  // would see the page, rather than left to time out.
  await context.route(
    (url) => url.origin !== new URL(origin).origin,
    (route) => route.abort(),
  );
  return context;
}

/** One visitor from the landing to the app's download, `shoot` at each screen. */
async function walkTheFunnel(page: Page, shoot: (name: string) => Promise<void>): Promise<void> {
  await page.goto('/?skip_split=true');
  await interactive(page);
  await page.locator('input[type="tel"]').fill('415 555 2671');
  await shoot('landing');
  await page.locator('#continue-button').click();

  await arrive(page, '/searching');
  const searched = page.locator('#continue-button:not([disabled])');
  await searched.waitFor({ timeout: 30_000 });
  await shoot('searching');
  await searched.click();

  await arrive(page, '/signup');
  await page.locator('input[type="email"]').fill(`journey-${Date.now().toString(36)}@example.com`);
  await shoot('signup');
  await page.locator('#continue-button').click();

  await arrive(page, '/checkout_v3_tr');
  const card = page.frameLocator('iframe.card-frame');
  await card.getByLabel('Card number').fill('4242 4242 4242 4242');
  await card.getByLabel('Expiry date').fill('12/34');
  await card.getByLabel('CVV').fill('123');
  await page.locator('#continue-button:not([disabled])').waitFor({ timeout: 15_000 });
  await shoot('checkout');
  await page.locator('#continue-button').click();

  // The payment confirmed before anything else is offered.
  const receipt = page.getByRole('dialog', { name: 'Payment confirmed' });
  await receipt.getByRole('button', { name: 'Continue' }).waitFor({ timeout: 30_000 });
  await shoot('receipt');
  await receipt.getByRole('button', { name: 'Continue' }).click();

  await arrive(page, '/upsell_an_private');
  // The upsell names the card it charges once the page has read the receipt.
  await page.locator('.upsell-charge__method').waitFor({ timeout: 15_000 });
  await shoot('upsell');
  await page.getByRole('button', { name: 'Add to my plan' }).click();
  await arrive(page, '/success');
  await page.locator('.qr-code, svg').first().waitFor({ timeout: 15_000 });
  await shoot('success');
}

export async function photographJourney(
  browser: Browser,
  origin: string,
  images: string,
): Promise<string> {
  const context = await phoneContext(browser, origin);
  const page = await context.newPage();
  // Each screen's photograph is only a part of the picture: it goes to a scratch folder.
  const scratch = await mkdtemp(join(tmpdir(), 'geofunnel-journey-'));
  const shots: string[] = [];
  try {
    await walkTheFunnel(page, async (name) => {
      const path = join(scratch, `${name}.png`);
      await page.screenshot({ path });
      shots.push(path);
    });
    return await composeStrip(browser, shots, `${images}journey.png`);
  } finally {
    await context.close();
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The screens side by side, with an arrow between each, photographed as one picture. */
async function composeStrip(browser: Browser, shots: string[], path: string): Promise<string> {
  const sources = await Promise.all(
    shots.map(async (shot) => `data:image/png;base64,${(await readFile(shot)).toString('base64')}`),
  );
  const page = await browser.newPage({ viewport: { width: 1400, height: 640 } });
  try {
    const figures = sources
      .map((source) => `<img src="${source}" alt="">`)
      .join('<span aria-hidden="true">→</span>');
    await page.setContent(
      `<!doctype html><style>
        body { margin: 0; background: #f3f4f6; font: 28px system-ui, sans-serif; color: #6b7280; }
        main { display: flex; align-items: center; gap: 10px; padding: 16px; width: max-content; }
        img { width: 240px; border-radius: 14px; box-shadow: 0 2px 10px rgb(0 0 0 / 0.15); }
      </style><main>${figures}</main>`,
    );
    await page.locator('main').screenshot({ path });
  } finally {
    await page.close();
  }
  return path;
}
