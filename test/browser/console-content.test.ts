import type { Locator, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_CONTENT_API } from '../../shared/console-api/content';
import { pngOf } from '../fixtures/png';
import { runAxe } from './a11y-checks';
import { discardDraft, openArea } from './console-steps';
import { LIVE_TITLE, openContent, translateTheRest, writeHeadlineIn } from './content-steps';
import { type BrowserSession, startBrowserSession } from './harness';
import { reviewShot } from './layout-checks';
import { PATIENCE_MS } from './patience';

/**
 * The console's content editor in Chromium against the built worker, one worker for the whole
 * journey, in this order (each test starts from what the last one published). What needs a
 * browser stays here: the preview frame and what is edited over it, focus and keys, drag,
 * widths, an upload, and each publish through the built worker. A route's and a country's
 * preview, and a checkout's sections composed into a paywall, are what the editor asks the worker
 * to draw (test/unit/console/content-ui.test.tsx) and what the worker draws for it
 * (test/worker/console/content-editor-pages.test.ts).
 *
 * - The preview's texts edited where they stand: the landing's headline clicked in the phone
 *   frame and typed there (the same draft text as its field), a text reached by keyboard, one over
 *   its limit kept from saving, Escape cancelling; the frame's page carries nothing of the
 *   editor's (then discarded).
 * - The classic landing gets a new headline in every shipped language (by mouse and by keyboard),
 *   the reviews move above the phone form (by drag and by Alt+Arrow), the draft shows in the phone
 *   frame, the review on the Edit and publish page sets the live and draft screens side by side,
 *   and after the publish a new visitor's landing shows it.
 * - At 390 and 320 px the console's Content page fits, the preview under the fields, at rest and
 *   with a text open in place.
 * - A picture on the landing: the picture section added, a file uploaded, described in every
 *   shipped language (by keyboard), seen in the phone frame and published, and a new visitor's
 *   landing shows it with its description; a library picture deleted after a confirmation,
 *   never one the draft shows.
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

const NEW_TITLE = 'Know your family is safe, wherever they are';

const ALT: Record<string, string> = {
  en: 'A parent checking on a map where their child is',
  de: 'Ein Elternteil sieht auf der Karte, wo das Kind ist',
  es: 'Una madre mira en el mapa dónde está su hijo',
  fr: 'Un parent regarde sur la carte où est son enfant',
  pt: 'Um pai vê no mapa onde o filho está',
  ru: 'Родитель смотрит на карте, где ребёнок',
  ar: 'أحد الوالدين يرى على الخريطة مكان طفله',
};

describe('editing the preview in place', () => {
  // slow: a headline edited on the preview by mouse and keyboard, each edit rendered again
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
    await reviewShot(page, 'console-in-place-1280');

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
    await reviewShot(page, 'console-in-place-desktop');
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
    await reviewShot(page, 'console-in-place-ar');
    await page.keyboard.press('Escape');
    await discardDraft(page);
    expect(problems).toEqual([]);
  });
});

describe('the content editor in Chromium', () => {
  // slow: a headline edited in all seven languages, previewed, reviewed and published
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
    await reviewShot(page, 'console-content-1280');
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

    // The review, on the Edit and publish page: the text diff and the live and draft screens
    // side by side.
    await openArea(page, 'Edit and publish');
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
});

describe('the content editor on a small screen', () => {
  it('fits a 390 and a 320 px console, the preview under the fields', async () => {
    // One page, resized as a phone turned or a window narrowed: the layout is the CSS's at each
    // width, as the screen walk resizes rather than reloads.
    const { page, problems } = await session.newVisitor({ viewport: { width: 390, height: 844 } });
    await page.goto('/console/content');
    const phone = page.frameLocator('iframe[title$="phone width"]');
    await phone.locator('h1').waitFor();
    const sideways = () =>
      page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
    for (const width of [390, 320]) {
      await page.setViewportSize({ width, height: 844 });
      await reviewShot(page.locator('#content'), `console-content-${width}`);
      expect(await sideways(), `at ${width} px`).toBe(0);
      // With a text open in place over the preview.
      const button = page.getByRole('button', { name: /^Edit in place: Heading/ }).first();
      await button.click();
      const field = page.getByLabel(/^Heading in English/);
      await field.waitFor();
      await reviewShot(page.locator('.content-editor__preview'), `console-in-place-${width}`);
      expect(await sideways(), `at ${width} px, a text open in place`).toBe(0);
      await field.press('Escape');
      await field.waitFor({ state: 'detached' });
    }
    expect(problems).toEqual([]);
  });
});

describe('a picture from the console', () => {
  // slow: a picture uploaded, described in all seven languages, previewed and published
  it('is uploaded, described in every language, previewed and published', async () => {
    const { page, problems, content, phone } = await openContent(session, HEADLINES.en);
    await content.getByLabel('Add a section').selectOption('picture');
    await content.getByRole('button', { name: 'Add', exact: true }).click();
    await content.getByRole('group', { name: 'Picture' }).waitFor();

    // A file of the marketer's, uploaded: it joins the library, chosen.
    await content.getByLabel(/^Upload a picture/).setInputFiles({
      name: 'family.png',
      mimeType: 'image/png',
      buffer: Buffer.from(await pngOf(800, 500, [52, 120, 190])),
    });
    await content.getByRole('status').filter({ hasText: 'Uploaded.' }).waitFor();
    const library = content.getByRole('radiogroup', { name: 'Picture library' });
    expect(await library.getByRole('radio').first().isChecked()).toBe(true);

    // Its description, by keyboard, in every language: a publish needs each.
    for (const [language, text] of Object.entries(ALT)) {
      const name = new Intl.DisplayNames(['en'], { type: 'language' }).of(language) ?? language;
      const field = content.getByLabel(`Description in ${name}`);
      await field.focus();
      await page.keyboard.type(text);
      expect(await field.getAttribute('dir')).toBe(language === 'ar' ? 'rtl' : 'ltr');
    }
    await phone.locator(`picture img[alt="${ALT.en}"]`).waitFor();
    expect((await runAxe(page)).violations.map((v) => v.id)).toEqual([]);

    // The console's calls still unanswered, for the failure below.
    const waiting = new Set<string>();
    page.on('request', (request) => waiting.add(`${request.method()} ${request.url()}`));
    const answered = (request: Request) => waiting.delete(`${request.method()} ${request.url()}`);
    page.on('requestfinished', answered);
    page.on('requestfailed', answered);
    // The review's drawings held until Publish has been seen: it stays where the marketer aims
    // when they arrive (it once moved down under a click, and the publish never happened).
    const previews = `**${CONSOLE_CONTENT_API.preview}`;
    let drawNow = () => {};
    const drawing = new Promise<void>((resolve) => {
      drawNow = resolve;
    });
    await page.route(previews, async (route) => {
      await drawing;
      await route.continue();
    });
    await openArea(page, 'Edit and publish');
    await page.getByRole('button', { name: 'Review changes' }).click();
    const publish = page.getByRole('button', { name: 'Publish', exact: true });
    await page.getByText('Drawing…').first().waitFor();
    // Where it is on the page, not in the window: a scroll between the two is no move.
    const onPage = () =>
      publish.evaluate((button) => {
        const box = button.getBoundingClientRect();
        return { x: box.left + window.scrollX, y: box.top + window.scrollY };
      });
    const aimedAt = await onPage();
    drawNow();
    await page.getByTitle(/^Draft: /).waitFor();
    expect(await onPage()).toEqual(aimedAt);
    await page.unroute(previews);
    await publish.click();
    // Polled on the status line. A publish that does not happen fails saying what the review
    // panel showed and which calls the worker refused (it failed so twice under load, unexplained).
    try {
      await expect
        .poll(() => page.locator('#edit-status').textContent(), { timeout: PATIENCE_MS })
        .toMatch(/^Published v\d+\. It is live now\./);
    } catch (error) {
      const panel = await page.locator('.review-result, [role="alert"]').allTextContents();
      throw new Error(
        `${String(error)}\nreview panel: ${JSON.stringify(panel)}\nproblems: ${JSON.stringify(problems)}\nunanswered: ${JSON.stringify([...waiting])}`,
      );
    }

    const { context, page: visitor } = await session.newVisitor();
    await visitor.goto('/one_pager?custom_lng=de');
    const shown = visitor.locator('picture img');
    expect(await shown.getAttribute('alt')).toBe(ALT.de);
    expect(await shown.getAttribute('width')).toBe('800');
    await context.close();
    expect(problems).toEqual([]);
  });

  // slow: pictures uploaded and a draft published by mouse before the delete is tried
  it('deletes a library picture after a confirmation, never one the draft shows', async () => {
    const { page, problems, content } = await openContent(session, HEADLINES.en);
    // The landing's picture section: added, or the one a test before published.
    const adding = content.getByLabel('Add a section').locator('option[value="picture"]');
    if ((await adding.count()) > 0) {
      await content.getByLabel('Add a section').selectOption('picture');
      await content.getByRole('button', { name: 'Add', exact: true }).click();
    } else await page.locator('#content-section-picture-edit').click();
    const status = content.getByRole('status').filter({ hasText: /Uploaded\.|deleted|in use/ });
    for (const [width, height] of [
      [640, 400],
      [720, 450],
    ] as const) {
      await content.getByLabel(/^Upload a picture/).setInputFiles({
        name: `${width}.png`,
        mimeType: 'image/png',
        buffer: Buffer.from(await pngOf(width, height, [width % 256, 60, 90])),
      });
      await content.getByText(new RegExp(`^${width}×${height}, `)).waitFor();
    }
    // The draft shows the last upload: its delete is refused, saying where.
    const day = new Date().toISOString().slice(0, 10);
    await content.getByRole('button', { name: `Delete picture 720×450, ${day}` }).click();
    const dialog = page.getByRole('dialog', { name: `Delete picture 720×450, ${day}?` });
    expect((await runAxe(page)).violations.map((v) => v.id)).toEqual([]);
    await dialog.getByRole('button', { name: 'Delete picture' }).click();
    await status.filter({ hasText: 'in use in your draft: screen one_pager' }).waitFor();
    await content.getByText(`720×450, ${day}`).waitFor();

    // The other, by keyboard: Enter on its Delete, Escape keeps it, then Delete confirms.
    const other = content.getByRole('button', { name: `Delete picture 640×400, ${day}` });
    await other.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await expect.poll(() => other.evaluate((node) => node === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Delete picture', exact: true }).focus();
    await page.keyboard.press('Enter');
    await status.filter({ hasText: 'Picture deleted.' }).waitFor();
    await other.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('content-picture-upload');
    await reviewShot(page.locator('#content'), 'console-picture-delete-1280');
    // The refused delete's 409, and nothing else.
    expect(problems).toEqual([expect.stringMatching(/^409 .*\/console\/pictures\/[0-9a-f]{64}$/)]);
  });
});
