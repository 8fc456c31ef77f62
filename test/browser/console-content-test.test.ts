import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_API, type ConsoleState } from '../../shared/console-api/config';
import { HEADLINE_IN_EVERY_LANGUAGE } from '../fixtures/content';
import { runAxe } from './a11y-checks';
import { headingOf, newVisitorHtml, openArea } from './console-steps';
import { LIVE_TITLE, openContent, translateTheRest, writeHeadlineIn } from './content-steps';
import { type BrowserSession, startBrowserSession } from './harness';

/**
 * A content test made in the console, in Chromium against the built worker: a marketer makes a
 * variant of the classic landing on the Content page (a new headline in every language, the
 * reviews above the form), creates a landing content test showing it as variant b on the
 * Experiments page, starts it, publishes both in one review on the Edit and publish page (which
 * draws the variant live and draft side by side), and new visitors drawn into b see the variant
 * while those in a see today's landing; then ends it with b made the route's default, after which
 * every new visitor sees b.
 */

let session: BrowserSession;

beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(() => session?.stop());

const VARIANT_TITLE = HEADLINE_IN_EVERY_LANGUAGE.en ?? '';
const TITLE = 'screens.one_pager.title';

describe('a content test from the console', () => {
  // slow: a content test built, published, visited in both arms and shipped, by keyboard
  it('makes a variant, tests it as b, shows each arm its landing, and ships b to its route', async () => {
    const { page, problems, content, phone } = await openContent(session);

    // A new variant, by keyboard: its name, Enter; the editor now edits it.
    await content.getByLabel('New variant').focus();
    await page.keyboard.type('Testimonials');
    await page.keyboard.press('Enter');
    await content.getByText(/^Use lower-case letters/).waitFor();
    await content.getByLabel('New variant').fill('testimonials_first');
    await content.getByRole('button', { name: 'Create', exact: true }).click();
    expect(await content.getByLabel('Version').inputValue()).toBe('testimonials_first');

    // Its headline in English by mouse, then German and the rest from the list of languages.
    const english = content.getByLabel(TITLE);
    await english.fill(VARIANT_TITLE);
    // English alone is no refusal: the worker says German visitors would not be in the test.
    const said = content.getByRole('list', { name: 'What visitors in other languages see' });
    expect(await said.getByRole('listitem').first().textContent()).toContain(
      'are not shown a test of this variant and are not counted',
    );
    await writeHeadlineIn(content, 'de').click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type(HEADLINE_IN_EVERY_LANGUAGE.de ?? '');
    await translateTheRest(page, content, HEADLINE_IN_EVERY_LANGUAGE);
    // The reviews above the form, by the Move up button.
    for (const _ of [1, 2, 3, 4, 5]) {
      await content.getByRole('button', { name: 'Move up: Reviews' }).click();
    }
    // The preview in English again (the languages' list moved it to the last one given).
    await content.getByLabel('Language').selectOption('en');
    await phone.locator('h1').filter({ hasText: VARIANT_TITLE }).waitFor();

    // What every visitor sees is untouched.
    await content.getByLabel('Version').selectOption('');
    await phone.locator('h1').filter({ hasText: LIVE_TITLE }).waitFor();
    expect((await runAxe(page)).violations.map((v) => v.id)).toEqual([]);

    // The test, on the Experiments page: the landing content preset, variant b showing the
    // variant, on route default.
    const area = await openArea(page, 'Experiments');
    await area
      .getByLabel('What to test')
      .selectOption({ label: 'Landing content (headline, picture, sections)' });
    await area.getByLabel('Experiment name').fill('Testimonials first');
    await area.getByRole('checkbox', { name: 'default' }).check();
    await area
      .getByLabel('The content variant b shows')
      .selectOption('one_pager:testimonials_first');
    await area.getByRole('button', { name: 'Create draft experiment' }).click();
    const card = area.getByRole('article', { name: /Testimonials first/ });
    expect(await card.textContent()).toContain('the content testimonials_first of one_pager');
    await card.getByRole('button', { name: 'Start Testimonials first…' }).click();
    await page
      .getByRole('dialog', { name: 'Start Testimonials first?' })
      .getByRole('button', { name: 'Start Testimonials first' })
      .click();
    // The start opens the Edit and publish page, whose review draws the variant live and draft
    // side by side, named by screen and variant.
    const named = 'Landing: classic (one_pager), variant testimonials_first in English';
    await page.getByRole('heading', { name: named }).waitFor();
    await page
      .frameLocator(`iframe[title="Live: ${named}"]`)
      .locator('h1')
      .filter({ hasText: LIVE_TITLE })
      .waitFor();
    await page
      .frameLocator(`iframe[title="Draft: ${named}"]`)
      .locator('h1')
      .filter({ hasText: VARIANT_TITLE })
      .waitFor();
    await page.locator('#publish-note').fill('headline test');
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.locator('#edit-status', { hasText: /^Published / }).waitFor();
    const state: ConsoleState = await page.evaluate(
      async (url) => (await fetch(url)).json(),
      CONSOLE_API.state,
    );
    expect(state.live.content.screens.one_pager?.variants?.testimonials_first).toBeDefined();
    expect(state.live.experiments.experiments['testimonials-first']?.status).toBe('running');
    expect(problems).toEqual([]);

    // New visitors: each arm's landing, until both arms are seen (the worker's pages, asked
    // without a browser: which landing a visitor is drawn is the server's).
    const seen = new Map<string, string>();
    for (let visitor = 0; visitor < 16 && seen.size < 2; visitor++) {
      const html = await newVisitorHtml(session, '/');
      const title = headingOf(html);
      const reviewsFirst =
        html.indexOf('What our users say') < html.indexOf('class="phone-section"');
      seen.set(title, reviewsFirst ? 'reviews first' : 'form first');
    }
    expect(Object.fromEntries(seen)).toEqual({
      [LIVE_TITLE]: 'form first',
      [VARIANT_TITLE]: 'reviews first',
    });

    // The winner shipped to its route, by mouse: the experiment ends with variant b as the
    // default of route default, and every new visitor of the route sees it, outside any test.
    await openArea(page, 'Experiments');
    await card.getByRole('button', { name: 'End Testimonials first with a decision…' }).click();
    const end = page.getByRole('dialog', { name: 'End Testimonials first' });
    // A marketer decides on the results: once they are read, the fields stop moving under the
    // pointer (the notice that replaces "Reading its results…" moves them).
    await end.getByText('Reading its results…').waitFor({ state: 'detached' });
    await end.getByRole('radio', { name: /^Inconclusive/ }).check();
    await end.getByRole('radio', { name: 'Make variant b the default of default' }).check();
    await end.getByLabel('Reason (required)').fill('the reviews-first landing is our new standard');
    await end.getByRole('button', { name: 'Record the decision' }).click();
    // The decision opens the Edit and publish page; its card in the draft says it, and the
    // notice every other page shows leads back to the review.
    await page.getByRole('heading', { level: 2, name: 'Edit and publish', exact: true }).waitFor();
    await openArea(page, 'Experiments');
    await card.getByText(/^Decided: inconclusive, variant b made its routes' default/).waitFor();
    await page.getByRole('link', { name: 'Review and publish them' }).click();
    await page.getByRole('heading', { level: 2, name: 'Edit and publish', exact: true }).waitFor();
    await page.locator('#publish-note').fill('ship the reviews-first landing');
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.locator('#edit-status', { hasText: /^Published / }).waitFor();
    const shipped: ConsoleState = await page.evaluate(
      async (url) => (await fetch(url)).json(),
      CONSOLE_API.state,
    );
    expect(shipped.live.experiments.experiments['testimonials-first']?.status).toBe('shipped');
    expect(shipped.live.routing.routes.find((route) => route.id === 'default')?.content).toEqual({
      one_pager: 'testimonials_first',
    });
    for (let visitor = 0; visitor < 4; visitor++) {
      expect(headingOf(await newVisitorHtml(session, '/'))).toBe(VARIANT_TITLE);
    }
    expect(problems).toEqual([]);
  });
});
