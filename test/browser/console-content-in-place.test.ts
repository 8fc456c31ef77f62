import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAxe } from './a11y-checks';
import { LIVE_TITLE, openContent } from './content-steps';
import { type BrowserSession, startBrowserSession } from './harness';

/**
 * The preview's texts edited where they stand, in Chromium against the built worker: a marketer
 * clicks the landing's headline in the phone frame and types a new one there (the same draft
 * text as its field), reaches a text by keyboard, is kept from saving one over its limit, and
 * cancels with Escape; the frame's page carries nothing of the editor's.
 */

let session: BrowserSession;

beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(() => session?.stop());

const TITLE = 'screens.one_pager.title';
const NEW_TITLE = 'Know your family is safe, wherever they are';

describe('editing the preview in place', () => {
  it('changes the headline on the preview, by mouse and keyboard, and only whole', async () => {
    const { page, problems, content, phone } = await openContent(session);
    const texts = content.getByRole('group', {
      name: 'Texts of the preview, each editable in place',
    });
    const headline = texts.getByRole('button', { name: `Edit in place: Heading, “${LIVE_TITLE}”` });

    // By mouse: the field opens over the headline, with its key's text, and Enter saves it.
    await headline.click();
    const field = content.getByLabel(`Heading in English: ${TITLE}`);
    expect(await field.inputValue()).toBe(LIVE_TITLE);
    const [box, drawn] = [await field.boundingBox(), await headline.boundingBox()];
    expect(Math.abs((box?.y ?? 0) - (drawn?.y ?? 0))).toBeLessThan(60);
    await field.fill(NEW_TITLE);
    expect((await runAxe(page)).violations.map((v) => v.id)).toEqual([]);
    await page.keyboard.press('Enter');
    await phone.locator('h1').filter({ hasText: NEW_TITLE }).waitFor();
    // The same draft text as the Heading's field beside the preview.
    expect(await content.getByLabel(`Headline ${TITLE}`, { exact: true }).inputValue()).toBe(
      NEW_TITLE,
    );
    await content
      .getByRole('status')
      .filter({ hasText: 'Heading: text changed in place.' })
      .waitFor();

    // By keyboard: Tab reaches the headline's button; Enter opens the field in focus.
    const again = texts.getByRole('button', { name: `Edit in place: Heading, “${NEW_TITLE}”` });
    await again.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => field.evaluate((node) => node === document.activeElement)).toBe(true);
    // Over the section's limit: said at the field, and nothing is saved.
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('x'.repeat(170));
    await content.getByText('10 characters over the limit').first().waitFor();
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    await page.keyboard.press('Enter');
    expect(await field.isVisible()).toBe(true);
    expect(await content.getByLabel(`Headline ${TITLE}`, { exact: true }).inputValue()).toBe(
      NEW_TITLE,
    );
    // Escape leaves the draft as it was, focus back on the text's button.
    await page.keyboard.press('Escape');
    await field.waitFor({ state: 'detached' });
    await expect.poll(() => again.evaluate((node) => node === document.activeElement)).toBe(true);
    await page.screenshot({ path: '/tmp/console-in-place-1280.png' });

    // The page in the frame is the worker's, with nothing of the editor's in it.
    expect(await phone.locator('.in-place, [data-copy-key], [contenteditable]').count()).toBe(0);
    expect(await phone.locator('script').count()).toBe(0);

    // At desktop width, the texts are there to edit too.
    await content.getByRole('button', { name: 'Desktop (1280 px)' }).click();
    await page
      .frameLocator('iframe[title$="desktop width"]')
      .locator('h1')
      .filter({ hasText: NEW_TITLE })
      .waitFor();
    await texts.getByRole('button', { name: `Edit in place: Heading, “${NEW_TITLE}”` }).click();
    await field.waitFor();
    await page.screenshot({ path: '/tmp/console-in-place-desktop.png' });
    await page.keyboard.press('Escape');

    // In Arabic, the field is written right to left, over the right-to-left page.
    await content.getByRole('button', { name: 'Phone (390 px)' }).click();
    await content.getByLabel('Language', { exact: true }).selectOption('ar');
    await phone.locator('html[dir="rtl"] h1').waitFor();
    await texts
      .getByRole('button', { name: /^Edit in place: Heading, / })
      .first()
      .click();
    const arabic = content.getByLabel(`Heading in Arabic: ${TITLE}`);
    expect(await arabic.getAttribute('dir')).toBe('rtl');
    expect(await arabic.getAttribute('lang')).toBe('ar');
    await page.screenshot({ path: '/tmp/console-in-place-ar.png' });
    await page.keyboard.press('Escape');
    expect(problems).toEqual([]);
  });

  it.each([390, 320])('fits a %i px console', async (width) => {
    const { page, problems } = await session.newVisitor({ viewport: { width, height: 844 } });
    await page.goto('/console#content');
    const phone = page.frameLocator('iframe[title$="phone width"]');
    await phone.locator('h1').waitFor();
    const button = page.getByRole('button', { name: /^Edit in place: Heading/ }).first();
    await button.click();
    await page.getByLabel(/^Heading in English/).waitFor();
    await page
      .locator('.content-editor__preview')
      .screenshot({ path: `/tmp/console-in-place-${width}.png` });
    expect(
      await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      ),
    ).toBe(0);
    expect(problems).toEqual([]);
  });
});
