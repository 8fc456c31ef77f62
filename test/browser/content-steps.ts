import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { consolePath } from '../../shared/console-api/pages';
import type { BrowserSession } from './harness';
import { PATIENCE_MS } from './patience';
import { islandsHydrated } from './visitor-steps';

/** Steps a marketer takes on the console's Content page, shared by its Chromium tests. */

/** What the landing's headline says before any content is published. */
export const LIVE_TITLE = 'Find out where your loved ones are';

/**
 * A marketer at 1280 px on the console's Content page, opened at its own address, its preview
 * showing the live landing: the page, the area and the phone frame. `liveTitle`: the landing's
 * headline, when a test before published another.
 */
export async function openContent(session: BrowserSession, liveTitle = LIVE_TITLE) {
  const { page, problems } = await session.newVisitor({ viewport: { width: 1280, height: 900 } });
  await page.goto(consolePath('content'));
  await page
    .getByRole('heading', { level: 2, name: 'Content', exact: true })
    .waitFor({ timeout: PATIENCE_MS });
  const content = page.getByRole('region', { name: 'Content', exact: true });
  const phone = page.frameLocator('iframe[title$="phone width"]');
  await phone.locator('h1').filter({ hasText: liveTitle }).waitFor();
  return { page, problems, content, phone };
}

/**
 * A new visitor on `screen` (outside the split) at `width` px in `language`, its islands awake
 * and nothing reported wrong: how the arranged screens' tests open each width and language.
 */
export async function openArranged(
  session: BrowserSession,
  screen: string,
  width: number,
  language: string,
): Promise<Page> {
  const { page, problems } = await session.newVisitor({
    viewport: { width, height: 900 },
    locale: language,
  });
  await page.goto(
    new URL(`/${screen}?skip_split=true&custom_lng=${language}`, session.worker.url).href,
  );
  await islandsHydrated(page);
  expect(problems).toEqual([]);
  return page;
}

/** Where the first element matching `selector` starts on the page's viewport. */
export const topOf = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((node) => node.getBoundingClientRect().top);

/**
 * How an arranged screen's testimonials are drawn and whether the page fits its window: the first
 * quote's corner radius (a card, as the signup screen draws them) and how far the page scrolls
 * sideways.
 */
export const arrangedLooks = (page: Page) =>
  page.evaluate(() => ({
    card: getComputedStyle(document.querySelector('.signup__testimonial')!).borderRadius,
    sideways: document.documentElement.scrollWidth - document.documentElement.clientWidth,
  }));
