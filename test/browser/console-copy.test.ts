import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_COPY_API, type CopyState } from '../../shared/console-api/copy';
import { runAxe, seriousViolations } from './a11y-checks';
import { type BrowserSession, startBrowserSession } from './harness';

/**
 * The console's Copy area in Chromium against the built worker, by mouse: a marketer finds a
 * text by its English words, edits the Spanish, sees it as it will show, reviews, publishes,
 * sees the Spanish page change, and rolls the copy back from the History.
 */

let session: BrowserSession;

beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(() => session?.stop());

const BUNDLED_TITLE = 'Descubre dónde están tus seres queridos';
const NEW_TITLE = '¡Encuentra a los tuyos en un minuto!';

/** The copy state, asked from the page (same origin, the marketer's session). */
function copyState(page: Page): Promise<CopyState> {
  return page.evaluate(async (url) => (await fetch(url)).json(), CONSOLE_COPY_API.state);
}

/** The <h1> of a page in the visitor's tab, after loading it afresh. */
async function headingOf(page: Page): Promise<string | null> {
  await page.reload();
  return page.locator('h1').first().textContent();
}

describe('the Copy area in Chromium', () => {
  it('finds a text by its English, edits the Spanish, publishes it to the page and rolls it back', async () => {
    const { page, problems } = await session.newVisitor({ viewport: { width: 1280, height: 900 } });
    await page.goto('/console');
    // A German change already live (c1), as a colleague or the CLI would have published it.
    const seeded = await page.evaluate(async (url) => {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          base: null,
          copy: { de: { continue: 'Los geht’s' } },
          note: 'German button',
        }),
      });
      return response.status;
    }, CONSOLE_COPY_API.publish);
    expect(seeded).toBe(200);
    await page.reload();

    const copy = page.getByRole('region', { name: 'Copy' });
    await page.getByRole('link', { name: 'Copy', exact: true }).click();
    await copy.getByText(/^Live copy: c1, published /).waitFor();

    // Found by the English words a marketer sees on the page.
    await copy.getByLabel('Find a text').click();
    await copy.getByLabel('Find a text').fill('where your loved ones');
    const found = copy.getByRole('button', { name: /Find out where your loved ones are/ });
    await found.click();
    const spanish = copy.getByLabel('Spanish (es)');
    expect(await spanish.inputValue()).toBe(BUNDLED_TITLE);
    await spanish.click();
    await spanish.fill(NEW_TITLE);
    // As it will show, while typing; nothing is live yet.
    const editor = copy.getByRole('article', { name: 'screens.one_pager.title' });
    expect(await editor.getByText(`Shows as: ${NEW_TITLE}`).count()).toBe(1);

    // The Spanish page in a visitor's tab, before the publish.
    const { context: visitor, page: visitorPage } = await session.newVisitor();
    await visitorPage.goto('/one_pager?custom_lng=es');
    expect(await visitorPage.locator('h1').first().textContent()).toBe(BUNDLED_TITLE);

    // The draft on the Spanish preview before anything is published; the visitor still has the
    // bundled text.
    await editor.getByRole('button', { name: 'Preview the draft in Spanish' }).click();
    const draftLink = editor.getByRole('link', {
      name: 'Open the Spanish preview with your draft',
    });
    const [draftPage] = await Promise.all([page.waitForEvent('popup'), draftLink.click()]);
    await draftPage.waitForLoadState();
    expect(await draftPage.locator('h1').first().textContent()).toBe(NEW_TITLE);
    await draftPage.close();
    expect(await headingOf(visitorPage)).toBe(BUNDLED_TITLE);

    await copy.getByRole('button', { name: 'Review copy changes (1)' }).click();
    await copy.getByRole('row', { name: `Spanish the text in code ${NEW_TITLE}` }).waitFor();
    await copy.getByLabel('Copy note (optional)').click();
    await copy.getByLabel('Copy note (optional)').fill('a shorter promise');
    await copy.getByRole('button', { name: 'Publish copy' }).click();
    await page.locator('#copy-status', { hasText: /^Published c2\./ }).waitFor();
    expect(await headingOf(visitorPage)).toBe(NEW_TITLE);
    // The German change of c1 is carried over, not lost.
    expect((await copyState(page)).live).toEqual({
      de: { continue: 'Los geht’s' },
      es: { 'screens.one_pager.title': NEW_TITLE },
    });

    // In the History: who, when, the diff; then roll back to c1 with its confirm step.
    const history = page.getByRole('region', { name: 'Copy versions' });
    const c2 = history.getByRole('article', { name: 'Copy c2 live' });
    expect(await c2.textContent()).toContain('a shorter promise');
    await c2.getByText(/^Changes \(1\)/).click();
    await c2.getByRole('row', { name: `Spanish the text in code ${NEW_TITLE}` }).waitFor();
    const c1 = history.getByRole('article', { name: 'Copy c1' });
    // By keyboard: opening the confirm step moves focus to its note, Cancel back to the opener.
    const focusedName = () =>
      page.evaluate(() => {
        const focused = document.activeElement as HTMLElement | null;
        return focused?.id
          ? document.querySelector(`label[for="${focused.id}"]`)?.textContent
          : focused?.textContent;
      });
    await c1.getByRole('button', { name: 'Roll back copy to c1…' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(focusedName).toBe('Note (optional)');
    await page.keyboard.type('back to the bundled title');
    await c1.getByRole('button', { name: 'Cancel' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(focusedName).toBe('Roll back copy to c1…');
    await page.keyboard.press('Enter');
    await c1.getByRole('button', { name: 'Confirm copy roll back to c1' }).click();
    await page
      .locator('#copy-history-status', {
        hasText: 'Rolled back: c3 publishes the copy of c1 again.',
      })
      .waitFor();
    expect(await headingOf(visitorPage)).toBe(BUNDLED_TITLE);
    const c3 = history.getByRole('article', { name: 'Copy c3 live' });
    expect(await c3.textContent()).toContain('Restoresc1');
    expect((await copyState(page)).live).toEqual({ de: { continue: 'Los geht’s' } });

    await visitor.close();
    expect(problems).toEqual([]);
  });

  it('flags a lost placeholder while typing, and the worker refuses it at review', async () => {
    const { page, problems } = await session.newVisitor({ viewport: { width: 360, height: 740 } });
    await page.goto('/console');
    const copy = page.getByRole('region', { name: 'Copy' });
    await copy.getByLabel('Find a text').fill('every month. Cancel anytime');
    await copy
      .getByRole('button', { name: /plans\.catalogue\.monthly\.disclaimer/ })
      .first()
      .click();
    const spanish = copy.getByLabel('Spanish (es)');
    expect(await spanish.inputValue()).toContain('{{price}}');
    // The example value fills the placeholder in the preview.
    await copy
      .getByText(/Shows as: €9\.99/)
      .first()
      .waitFor();
    await spanish.fill('Cada mes. Cancela cuando quieras.');
    await copy.getByText('lacks {{price}}').waitFor();
    expect(await spanish.getAttribute('aria-invalid')).toBe('true');
    // The area with a key open and a problem shown: nothing axe calls serious.
    expect(seriousViolations(await runAxe(page))).toEqual([]);
    await copy.getByRole('button', { name: /^Review copy changes/ }).click();
    const alert = copy.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain(
      'es.plans.catalogue.monthly.disclaimer: lacks {{price}}',
    );
    expect(await copy.getByRole('button', { name: 'Publish copy' }).count()).toBe(0);
    expect(
      await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      ),
    ).toBe(0);
    expect(problems.filter((p) => !/^400 .*\/console\/api\/copy\/check$/.test(p))).toEqual([]);
  });
});
