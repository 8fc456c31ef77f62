import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../../chromium';
import { FAKE_STRIPE_JS } from './fake-stripe';
import { answerQuiz } from './quiz';

/**
 * Visitors of the data benchmark, each a fresh Chromium context on the production worker, so the
 * pages, the islands and the real tracker (islands/analytics/) send what they send for a person:
 * - lookup-only: the quiz's two questions (./quiz.ts), the landing, a phone number, the search
 *   to its end, then gone;
 * - paying: the same, then sign-up, the checkout paid by card (Stripe.js answered by
 *   ./fake-stripe.ts), the upsell bought, the success screen, then gone.
 * Each visitor has an address of its own (CF-Connecting-IP, as Cloudflare sets it) and a number
 * of its own, as real visitors mostly do.
 */
export type JourneyKind = 'lookup' | 'paying';

/** Chromium resolves no host but localhost: nothing reaches the internet. */
const OFFLINE_FLAG = '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost';
const STEP_TIMEOUT_MS = 45_000;
/**
 * How long a visitor stays on the last screen: the tracker loads once the page is idle, and a
 * page left before it has loaded keeps its events for a later visit instead of sending them.
 */
const LAST_SCREEN_MS = 2_000;

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_FLAGS.filter((flag) => flag !== '--headless'), OFFLINE_FLAG],
    headless: true,
  });
}

async function interactive(page: Page): Promise<void> {
  await page.waitForSelector('html[data-booted="yes"]', {
    state: 'attached',
    timeout: STEP_TIMEOUT_MS,
  });
}

/** A US number of its own per visitor: its own 1000-number block, as the limits key them. */
function phoneNumber(visitor: number): string {
  const exchange = 200 + ((visitor * 37) % 700);
  const line = 1000 + ((visitor * 7919) % 9000);
  return `415 ${exchange} ${line}`;
}

/** A documentation address (TEST-NET-3, 198.51.100.0/24 and on) of its own per visitor. */
function address(visitor: number): string {
  return `198.51.${100 + Math.floor(visitor / 250)}.${1 + (visitor % 250)}`;
}

async function lookUp(page: Page, visitor: number): Promise<void> {
  await page.goto('/');
  await answerQuiz(page, visitor, STEP_TIMEOUT_MS);
  await interactive(page);
  await page.locator('input[type="tel"]').fill(phoneNumber(visitor));
  await page.locator('#continue-button').click();
  await page.waitForURL((url) => url.pathname === '/searching', { timeout: STEP_TIMEOUT_MS });
  await interactive(page);
  // Continue is enabled once the search has run to its end.
  await page
    .locator('#continue-button:not([disabled])')
    .waitFor({ state: 'visible', timeout: STEP_TIMEOUT_MS });
}

async function pay(page: Page, visitor: number): Promise<void> {
  await page.locator('#continue-button:not([disabled])').click();
  // The sign-up test's screens: /signup or /signup_testim.
  await page.waitForURL((url) => url.pathname.startsWith('/signup'), { timeout: STEP_TIMEOUT_MS });
  await interactive(page);
  await page
    .locator('input[type="email"]')
    .fill(`bench-${Date.now().toString(36)}-${visitor}@example.com`);
  await page.locator('#continue-button').click();
  await page.waitForURL((url) => url.pathname.startsWith('/checkout'), {
    timeout: STEP_TIMEOUT_MS,
  });
  await interactive(page);
  // Pay is enabled once the card fields (the fake Stripe.js's inputs) are in the page. Locators,
  // not page.waitForFunction: the page's CSP refuses the string evaluation that would need.
  await page
    .locator('[data-fake-stripe]')
    .first()
    .waitFor({ state: 'attached', timeout: STEP_TIMEOUT_MS });
  await page.locator('#continue-button:not([disabled])').click({ timeout: STEP_TIMEOUT_MS });
  // The paid checkout confirms the payment in its receipt dialog; its Continue moves on.
  await page
    .getByRole('dialog', { name: 'Payment confirmed' })
    .getByRole('button', { name: 'Continue' })
    .click({ timeout: STEP_TIMEOUT_MS });
  await page.waitForURL((url) => url.pathname.startsWith('/upsell'), { timeout: STEP_TIMEOUT_MS });
  await interactive(page);
  // The upsell test's two screens: the private mode's offer, or the guide's.
  await page.getByRole('button', { name: /^(Add to my plan|Add the guide) for / }).click();
  await page.waitForURL((url) => url.pathname === '/success', { timeout: STEP_TIMEOUT_MS });
  await interactive(page);
}

const PHONE_AGENT =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

/**
 * A journey's failure with where it stood: the screen's path, and a screenshot of it in the
 * system's temporary folder, so a step that timed out can be seen rather than guessed.
 */
async function stuckAt(page: Page, kind: JourneyKind, visitor: number, error: unknown) {
  const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
  const path = join(tmpdir(), `geofunnel-data-bench-${kind}-${visitor}.png`);
  const shot = await page
    .screenshot({ path, fullPage: true })
    .then(() => `, screenshot ${path}`)
    .catch(() => '');
  return new Error(`${message} (on ${new URL(page.url()).pathname}${shot})`);
}

async function runJourney(
  browser: Browser,
  origin: URL,
  kind: JourneyKind,
  visitor: number,
): Promise<void> {
  const context = await browser.newContext({
    baseURL: origin.href,
    // A phone's agent: headless Chromium's own says HeadlessChrome, a known bot, whose draws are
    // counted apart and write no experiment rows (worker/experiments/assignment/bots.ts).
    userAgent: PHONE_AGENT,
    extraHTTPHeaders: { 'cf-connecting-ip': address(visitor) },
  });
  try {
    await context.route('https://js.stripe.com/**', (route) =>
      route.fulfill({ contentType: 'text/javascript', body: FAKE_STRIPE_JS }),
    );
    const page = await context.newPage();
    try {
      await lookUp(page, visitor);
      if (kind === 'paying') await pay(page, visitor);
    } catch (error) {
      throw await stuckAt(page, kind, visitor, error);
    }
    await page.waitForTimeout(LAST_SCREEN_MS);
    // Leaving fires pagehide: the tracker hands what waits to sendBeacon, as when a tab closes.
    await page.goto('about:blank');
    await page.waitForTimeout(500);
  } finally {
    await context.close();
  }
}

/** Runs `count` journeys of a kind, `concurrency` at a time; numbers visitors from `first`. */
export async function runJourneys(
  browser: Browser,
  origin: URL,
  kind: JourneyKind,
  options: { count: number; first: number; concurrency: number },
): Promise<{ completed: number; failed: string[] }> {
  const failed: string[] = [];
  let completed = 0;
  let next = 0;
  const worker = async () => {
    while (next < options.count) {
      const visitor = options.first + next;
      next += 1;
      try {
        await runJourney(browser, origin, kind, visitor);
        completed += 1;
      } catch (error) {
        failed.push(
          `${kind} visitor ${visitor}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
        );
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, options.count) }, worker));
  return { completed, failed };
}
