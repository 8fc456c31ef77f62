import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAxe } from './a11y-checks';
import { LIVE_TITLE, openContent, translateTheRest, writeHeadlineIn } from './content-steps';
import { type BrowserSession, startBrowserSession } from './harness';

/**
 * The console's content editor in Chromium against the built worker: a marketer gives the
 * classic landing a new headline in every shipped language (by mouse and by keyboard), moves the
 * reviews above the phone form (by drag and by Alt+Arrow), sees the draft in the phone frame,
 * reviews it with the live and draft screens side by side, publishes, and a new visitor's
 * landing shows it.
 */

let session: BrowserSession;

beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(() => session?.stop());

const TITLE = 'screens.one_pager.title';
const HEADLINES: Record<string, string> = {
  en: 'See your family on one map',
  de: 'Sieh deine Familie auf einer Karte',
  es: 'Ve a tu familia en un mapa',
  fr: 'Voyez votre famille sur une carte',
  pt: 'Veja sua família em um mapa',
  ru: 'Вся семья на одной карте',
  ar: 'شاهد عائلتك على خريطة واحدة',
};

/** The section ids of a page's landing, in the order it draws them. */
function sectionOrder(frame: Locator) {
  return frame
    .locator('.phone-section, [data-island="ReviewsCarousel"]')
    .evaluateAll((nodes) =>
      nodes.map((node) => (node.classList.contains('phone-section') ? 'form' : 'reviews')),
    );
}

async function rowIds(page: Page): Promise<string[]> {
  return page
    .locator('.content-section')
    .evaluateAll((rows) => rows.map((row) => (row as HTMLElement).dataset.section ?? ''));
}

describe('the content editor in Chromium', () => {
  it('changes the headline in every language and the order, previews, reviews and publishes', async () => {
    const { page, problems, content, phone } = await openContent(session);

    // The English headline by mouse: the field shows what visitors read now.
    const english = content.getByLabel(TITLE);
    expect(await english.inputValue()).toBe(LIVE_TITLE);
    await english.click();
    await english.fill(HEADLINES.en ?? '');
    await content.getByText(`${HEADLINES.en?.length} / 160 characters`).waitFor();
    await phone
      .locator('h1')
      .filter({ hasText: HEADLINES.en ?? '' })
      .waitFor();

    // German by keyboard, from the list of what each language's visitors see of the change.
    const said = content.getByRole('list', { name: 'What visitors in other languages see' });
    expect(await said.getByRole('listitem').first().textContent()).toContain(
      'see their current text, outdated until',
    );
    await writeHeadlineIn(content, 'de').focus();
    await page.keyboard.press('Enter');
    const german = page.locator('#content-copy-de-screens-one_pager-title');
    await expect.poll(() => german.evaluate((node) => node === document.activeElement)).toBe(true);
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type(HEADLINES.de ?? '');
    await translateTheRest(page, content, HEADLINES);

    // The reviews dragged up two places by mouse, then by Alt+Up above the phone form.
    expect(await rowIds(page)).toEqual([
      'hero',
      'phone_form',
      'illustration',
      'claims',
      'features',
      'how_it_works',
      'reviews',
      'guarantee',
      'footer',
    ]);
    await page
      .locator('.content-section[data-section="reviews"] .content-section__grip')
      .dragTo(page.locator('.content-section[data-section="claims"] .content-section__grip'));
    expect((await rowIds(page)).indexOf('reviews')).toBe(3);
    const reviews = content.getByRole('button', { name: /^Reviews, position 4 of 9/ });
    await reviews.focus();
    for (const _ of [1, 2]) await page.keyboard.press('Alt+ArrowUp');
    await content
      .getByRole('status')
      .filter({ hasText: 'Reviews moved to position 2 of 9.' })
      .waitFor();
    expect((await rowIds(page)).slice(0, 3)).toEqual(['hero', 'reviews', 'phone_form']);
    expect(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.id)).toBe(
      'content-section-reviews-edit',
    );
    // A required section says why it stays, on its disabled controls.
    const hideForm = content.getByRole('button', { name: 'Show: Phone form' });
    expect(await hideForm.getAttribute('aria-disabled')).toBe('true');
    const reason = await hideForm.getAttribute('aria-describedby');
    expect(await page.locator(`#${reason}`).textContent()).toContain('Required.');

    // The phone frame in English and Arabic; the desktop width on demand.
    await content.getByLabel('Language').selectOption('en');
    await phone
      .locator('h1')
      .filter({ hasText: HEADLINES.en ?? '' })
      .waitFor();
    await expect.poll(() => sectionOrder(phone.locator('body'))).toEqual(['reviews', 'form']);
    await page.screenshot({ path: '/tmp/console-content-1280.png', fullPage: false });
    await content.getByLabel('Language').selectOption('ar');
    await phone
      .locator('html[dir="rtl"] h1')
      .filter({ hasText: HEADLINES.ar ?? '' })
      .waitFor();
    await content.getByRole('button', { name: 'Desktop (1280 px)' }).click();
    await page
      .frameLocator('iframe[title$="desktop width"]')
      .locator('h1')
      .filter({ hasText: HEADLINES.ar ?? '' })
      .waitFor();
    await content.getByRole('button', { name: 'Phone (390 px)' }).click();
    await content.getByLabel('Language').selectOption('en');
    await phone
      .locator('h1')
      .filter({ hasText: HEADLINES.en ?? '' })
      .waitFor();
    expect((await runAxe(page)).violations.map((v) => v.id)).toEqual([]);

    // The review: the text diff and the live and draft screens side by side.
    await page.getByRole('button', { name: 'Review changes' }).click();
    await page.getByText('How the screens change').waitFor();
    await page
      .frameLocator('iframe[title^="Live:"]')
      .locator('h1')
      .filter({ hasText: LIVE_TITLE })
      .waitFor();
    await page
      .frameLocator('iframe[title^="Draft:"]')
      .locator('h1')
      .filter({ hasText: HEADLINES.en ?? '' })
      .waitFor();
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByText(/^Published v\d+\. It is live now\./).waitFor();

    // A new visitor, in English and in German.
    const { context, page: visitor } = await session.newVisitor();
    await visitor.goto('/one_pager');
    expect(await visitor.locator('h1').first().textContent()).toBe(HEADLINES.en);
    expect(await sectionOrder(visitor.locator('body'))).toEqual(['reviews', 'form']);
    await visitor.goto('/one_pager?custom_lng=de');
    expect(await visitor.locator('h1').first().textContent()).toBe(HEADLINES.de);
    await context.close();
    expect(problems).toEqual([]);
  });

  it('fits a 390 px screen, the preview under the fields', async () => {
    const { page, problems } = await session.newVisitor({ viewport: { width: 390, height: 844 } });
    await page.goto('/console#content');
    await page.frameLocator('iframe[title$="phone width"]').locator('h1').waitFor();
    await page.locator('#content').screenshot({ path: '/tmp/console-content-390.png' });
    expect(
      await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      ),
    ).toBe(0);
    expect(problems).toEqual([]);
  });
});
