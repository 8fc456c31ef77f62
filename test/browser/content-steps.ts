import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { openArea } from './console-steps';
import type { BrowserSession } from './harness';
import { islandsHydrated } from './visitor-steps';

/** Steps a marketer takes on the console's Content page, shared by its Chromium tests. */

/**
 * The button that opens the headline's field in `language`, from the list of what visitors in
 * other languages see of the changed English (its current text, outdated, until given): named
 * in words as the field is, its key as detail.
 */
export function writeHeadlineIn(content: Locator, language: string): Locator {
  const name = new Intl.DisplayNames(['en'], { type: 'language' }).of(language) ?? language;
  return content
    .getByRole('list', { name: 'What visitors in other languages see' })
    .getByRole('button', {
      name: `Write Headline (screens.one_pager.title) in ${name}`,
      exact: true,
    });
}

/**
 * Every other language the changed English leaves outdated, given by keyboard, on the Content
 * page (opened first unless it is the page shown).
 */
export async function translateTheRest(
  page: Page,
  content: Locator,
  headlines: Readonly<Record<string, string>>,
): Promise<void> {
  await openArea(page, 'Content');
  for (const language of ['es', 'fr', 'pt', 'ru', 'ar']) {
    await writeHeadlineIn(content, language).click();
    const field = page.locator(`#content-copy-${language}-screens-one_pager-title`);
    await expect.poll(() => field.evaluate((node) => node === document.activeElement)).toBe(true);
    expect(await field.getAttribute('lang')).toBe(language);
    expect(await field.getAttribute('dir')).toBe(language === 'ar' ? 'rtl' : 'ltr');
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type(headlines[language] ?? '');
  }
  await content
    .getByRole('list', { name: 'What visitors in other languages see' })
    .waitFor({ state: 'detached' });
}

/** What the landing's headline says before any content is published. */
export const LIVE_TITLE = 'Find out where your loved ones are';

/**
 * A marketer at 1280 px on the console's Content page, opened from the Overview by its link in
 * the navigation, its preview showing the live landing: the page, the area and the phone frame.
 * `liveTitle`: the landing's headline, when a test before published another.
 */
export async function openContent(session: BrowserSession, liveTitle = LIVE_TITLE) {
  const { page, problems } = await session.newVisitor({ viewport: { width: 1280, height: 900 } });
  await page.goto('/console');
  const content = await openArea(page, 'Content');
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
