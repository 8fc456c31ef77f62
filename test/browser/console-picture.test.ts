import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngOf } from '../fixtures/png';
import { runAxe } from './a11y-checks';
import { openContent } from './content-steps';
import { type BrowserSession, startBrowserSession } from './harness';

/**
 * A picture on a landing, made in the console's Content area in Chromium against the built
 * worker: a marketer adds the picture section, uploads a file, describes it in every shipped
 * language (by keyboard), sees it in the phone frame, publishes, and a new visitor's landing
 * shows it with its description.
 */

let session: BrowserSession;

beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(() => session?.stop());

const ALT: Record<string, string> = {
  en: 'A parent checking on a map where their child is',
  de: 'Ein Elternteil sieht auf der Karte, wo das Kind ist',
  es: 'Una madre mira en el mapa dónde está su hijo',
  fr: 'Un parent regarde sur la carte où est son enfant',
  pt: 'Um pai vê no mapa onde o filho está',
  ru: 'Родитель смотрит на карте, где ребёнок',
  ar: 'أحد الوالدين يرى على الخريطة مكان طفله',
};

describe('a picture from the console', () => {
  it('is uploaded, described in every language, previewed and published', async () => {
    const { page, problems, content, phone } = await openContent(session);
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

    await page.getByRole('button', { name: 'Review changes' }).click();
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByText(/^Published v\d+\. It is live now\./).waitFor();

    const { context, page: visitor } = await session.newVisitor();
    await visitor.goto('/one_pager?custom_lng=de');
    const shown = visitor.locator('picture img');
    expect(await shown.getAttribute('alt')).toBe(ALT.de);
    expect(await shown.getAttribute('width')).toBe('800');
    await context.close();
    expect(problems).toEqual([]);
  });
});
