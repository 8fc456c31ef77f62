import { brotliCompressSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANDING_SCREENS } from '../../screens/landing';
import { type BrowserSession, startBrowserSession } from './harness';
import { islandsHydrated } from './visitor-steps';

/**
 * The landing in Chromium: what only a real layout and a real clock show. The phone form walked
 * to the searching screen and on (a refusal beside the field, the rules fetched as the field is
 * touched, the query carried) is sign-up.test.ts's journey; the form's logic for each country
 * and answer is happy-dom's (test/unit/landing/PhoneForm.test.tsx), and the form without script
 * workerd's (test/worker/phone-form.test.ts, forms-without-script.test.ts). Every landing in every
 * theme hydrates with no console problem and no sideways scroll at 320 and 432 px in the screen
 * walk (every-screen.test.ts).
 */

let session: BrowserSession;
beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(() => session?.stop());

const LANDINGS = Object.keys(LANDING_SCREENS);
/** The page-weight budget of the benchmark (docs/performance.md): HTML at most 12 KB brotli. */
const HTML_BUDGET_BYTES = 12 * 1024;

const horizontalOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** The phone field's placeholder as the worker writes it on the landing in `language`. */
async function placeholderIn(language: string): Promise<string> {
  const url = new URL(`/one_pager?skip_split=true&custom_lng=${language}`, session.worker.url);
  const html = await (await fetch(url)).text();
  const input = /<input[^>]*class="phone-input__number"[^>]*>/.exec(html)?.[0] ?? '';
  const placeholder = /placeholder="([^"]+)"/.exec(input)?.[1];
  expect(placeholder, `${language} placeholder`).toBeDefined();
  return placeholder ?? '';
}

describe('landing in Chromium (SPEC.md §1, §2, §9)', () => {
  // slow: some 40 seconds of the page's clock run through, timer by timer and frame by frame
  it('one_pager at 350 px: no sideways scroll as its reviews slide; they stand still while paused, by mouse or keyboard (WCAG 2.2.2), and side by side at 1280 px; the placeholder fits at 320 px', async () => {
    const { context, page, problems } = await session.newVisitor({
      viewport: { width: 350, height: 740 },
      reducedMotion: 'no-preference',
    });
    // The page's timers run on Playwright's clock, which otherwise flows with real time.
    await context.clock.install();
    await page.goto('/one_pager?skip_split=true');
    await islandsHydrated(page);
    // The page's time also flows with real time, so what a step shows is read after the step:
    // on a loaded machine the reviews may slide on between two steps while they play.
    const shown = () => page.locator('.reviews__track').getAttribute('data-index');
    const away = () => page.mouse.move(5, 5);
    const start = await shown();
    await page.clock.runFor(2100);
    expect(await shown(), 'the reviews slide by themselves').not.toBe(start);
    // SPEC.md §9's phone width, once they have slid.
    expect(await horizontalOverflow(page), 'sideways scroll at 350 px').toBe(0);
    expect(await page.locator('#continue-button').isVisible()).toBe(true);
    expect((await page.locator('.phone-input__number').boundingBox())?.height).toBe(51);

    // By mouse: paused, it stays put once the pointer leaves, however long.
    await page.getByRole('button', { name: 'Pause reviews' }).click();
    await away();
    const pausedByMouse = await shown();
    await page.clock.runFor(10_000);
    expect(await shown(), 'paused by mouse').toBe(pausedByMouse);
    await page.getByRole('button', { name: 'Play reviews' }).click();
    await away();
    await page.clock.runFor(2100);
    expect(await shown(), 'played by mouse').not.toBe(pausedByMouse);

    // By keyboard: to the button, Enter, and away; still until Space on Play.
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Pause reviews');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    const pausedByKeyboard = await shown();
    await page.clock.runFor(10_000);
    expect(await shown(), 'paused by keyboard').toBe(pausedByKeyboard);
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    await page.clock.runFor(2100);
    expect(await shown(), 'played by keyboard').not.toBe(pausedByKeyboard);

    // On a desktop: several reviews side by side, still, with no control needed.
    await page.setViewportSize({ width: 1280, height: 800 });
    const boxes = () =>
      page
        .locator('.reviews__item')
        .evaluateAll((items) => items.map((item) => item.getBoundingClientRect().toJSON()));
    await expect.poll(() => page.getByRole('button', { name: 'Pause reviews' }).count()).toBe(0);
    // The sliding track's clone of the first review goes as the layout changes: under load it was
    // seen still there once the button had gone.
    await expect.poll(async () => (await boxes()).length).toBe(4);
    const before: DOMRect[] = await boxes();
    // Two or more share a row, each in the window.
    expect(
      before.filter((box) => box.top === before[0]!.top).length,
      'reviews sharing a row at 1280 px',
    ).toBeGreaterThanOrEqual(2);
    for (const box of before) expect(box.right).toBeLessThanOrEqual(1280);
    await page.clock.runFor(10_000);
    expect(await boxes(), 'still at 1280 px').toEqual(before);

    // The phone field's placeholder fits at 320 px in English, French and Russian (a language
    // changes its words, not the field's room or font: only Arabic's font differs).
    await page.setViewportSize({ width: 320, height: 640 });
    for (const language of ['en', 'fr', 'ru']) {
      const placeholder = await placeholderIn(language);
      const { needed, room } = await page
        .locator('.phone-input__number')
        .evaluate((input, text) => {
          const field = input as HTMLInputElement;
          const own = getComputedStyle(field);
          const style = getComputedStyle(field, '::placeholder');
          const pen = document.createElement('canvas').getContext('2d')!;
          pen.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
          return {
            needed: pen.measureText(text).width,
            room:
              field.clientWidth -
              Number.parseFloat(own.paddingLeft) -
              Number.parseFloat(own.paddingRight),
          };
        }, placeholder);
      expect(needed, `the ${language} placeholder's width`).toBeLessThanOrEqual(room);
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  it.each(LANDINGS)('%s HTML stays under 12 KB brotli', async (screen) => {
    const response = await fetch(new URL(`/${screen}?skip_split=true`, session.worker.url));
    const html = Buffer.from(await response.arrayBuffer());
    const size = brotliCompressSync(html).length;
    expect(size).toBeLessThan(HTML_BUDGET_BYTES);
  });
});
