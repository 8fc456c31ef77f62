import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenName } from '../../console/kit/content-text';
import { CONSOLE_API, type ConsoleState } from '../../shared/console-api/config';
import { HEADLINE_IN_EVERY_LANGUAGE } from '../fixtures/content';
import { runAxe } from './a11y-checks';
import { openArea } from './console-steps';
import { LIVE_TITLE, openContent, translateTheRest, writeHeadlineIn } from './content-steps';
import { type BrowserSession, startBrowserSession } from './harness';
import { portalSubscriptions, walkToSuccess } from './money-path';
import { PATIENCE_MS } from './patience';
import { interactive } from './visitor-steps';

/**
 * A composed landing in a flow, end to end, in Chromium against the built worker: a marketer
 * composes a new landing from the classic one's sections on the console's Content page (its own
 * headline in every language, the reviews above the form), puts it first in a new flow (Edit and
 * publish), sends the default route's visitors there, tests a visitor against the draft on the
 * Traffic page (the new landing named and drawn before anything is live) and publishes, then
 * finds the change in History; a new visitor opens the site, sees the new landing, and walks it
 * to a payment by the test gateway's card and on to success.
 */

let session: BrowserSession;

beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(() => session?.stop());

const NEW_TITLE = HEADLINE_IN_EVERY_LANGUAGE.en ?? '';
const TITLE = 'screens.one_pager.title';
const ONE_PAGER_NAME = screenName('one_pager');

describe('a composed landing in a flow', () => {
  // slow: a console journey (compose, publish) and then a visitor's walk from the landing to a payment
  it('is composed in the console, published first in a flow, and walked to a payment', async () => {
    const { page, problems, content, phone } = await openContent(session);

    // New screen: a landing from the classic one, its name checked as it is typed.
    const newScreen = content.getByRole('group', { name: 'New screen' });
    expect(await newScreen.getByLabel('Slot').inputValue()).toBe('landing');
    await newScreen.getByLabel('Start from').selectOption('one_pager');
    const name = newScreen.getByLabel('Name (its address)');
    await name.focus();
    await page.keyboard.type('checkout_spring');
    await newScreen.getByText(/begins like the screens in code/).waitFor();
    await name.fill('spring_landing');
    await newScreen.getByText('Visitors will open /spring_landing.').waitFor();
    await page.keyboard.press('Enter');
    expect(await content.getByLabel('Screen', { exact: true }).inputValue()).toBe('spring_landing');

    // Its own headline in every language, and the reviews above the form.
    await content.getByLabel(TITLE).fill(NEW_TITLE);
    await writeHeadlineIn(content, 'de').click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type(HEADLINE_IN_EVERY_LANGUAGE.de ?? '');
    await translateTheRest(page, content, HEADLINE_IN_EVERY_LANGUAGE);
    for (const _ of [1, 2, 3, 4, 5]) {
      await content.getByRole('button', { name: 'Move up: Reviews' }).click();
    }
    await content.getByLabel('Language').selectOption('en');
    await phone.locator('h1').filter({ hasText: NEW_TITLE }).waitFor();
    // The classic landing is untouched.
    await content.getByLabel('Screen', { exact: true }).selectOption('one_pager');
    await phone.locator('h1').filter({ hasText: LIVE_TITLE }).waitFor();
    expect((await runAxe(page)).violations.map((v) => v.id)).toEqual([]);

    await firstInANewFlow(page);

    // Before anything is published, "test a visitor" against the draft: the default route's
    // visitors open the new landing, named and drawn from the draft (the live funnel has none).
    const traffic = await openArea(page, 'Traffic');
    await traffic.getByLabel('Ad link').fill('https://funnel.example/?utm_source=google');
    await traffic.getByRole('button', { name: 'Test visitor' }).click();
    await traffic
      .locator('.route-test__answer')
      .getByText(
        /^Against your draft, this visitor gets route default: flow spring, opens with the landing spring_landing/,
      )
      .waitFor();
    await traffic
      .frameLocator(
        'iframe[title="The landing spring_landing as this visitor sees it, from your draft"]',
      )
      .locator('h1')
      .filter({ hasText: NEW_TITLE })
      .waitFor();

    // A flow shows it: it cannot be deleted.
    await openArea(page, 'Content');
    await content.getByLabel('Screen', { exact: true }).selectOption('spring_landing');
    await content.getByRole('button', { name: 'Delete screen spring_landing' }).click();
    await content.getByRole('alert').filter({ hasText: 'flow "spring" still shows it' }).waitFor();

    await openArea(page, 'Edit and publish');
    await page.getByRole('button', { name: 'Review changes' }).click();
    // The review draws the new screen as it will be, with nothing live beside it.
    const drawn = `spring_landing (new, from ${ONE_PAGER_NAME}) in English`;
    await page.getByRole('heading', { name: drawn }).waitFor();
    await page.getByText('Not live yet: a new screen, which this publish adds.').waitFor();
    expect(await page.locator(`iframe[title="Live: ${drawn}"]`).count()).toBe(0);
    await page
      .frameLocator(`iframe[title="Draft: ${drawn}"]`)
      .locator('h1')
      .filter({ hasText: NEW_TITLE })
      .waitFor();
    // Its change is listed in words, as every change is.
    const changes = page.getByRole('list', { name: 'Changes this publish makes' });
    await changes
      .getByText(/^New composed screen spring_landing \(Landing, from one_pager\): /)
      .waitFor();
    await page.locator('#publish-note').fill('spring landing');
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByText(/^Published v\d+\. It is live now\./).waitFor();
    const state: ConsoleState = await page.evaluate(
      async (url) => (await fetch(url)).json(),
      CONSOLE_API.state,
    );
    expect(state.live.content.composed?.spring_landing?.from).toBe('one_pager');
    // History lists it with the version, in the same words.
    const history = await openArea(page, 'History');
    const version = history.getByRole('article', { name: `${state.head?.id} live` });
    await version.getByText(/^Changes \(/).click();
    await version
      .getByText(/^New composed screen spring_landing \(Landing, from one_pager\): /)
      .waitFor();
    expect(state.live.flows.flows.spring?.[0]).toBe('spring_landing');
    expect(problems).toEqual([]);

    // A new visitor: the new landing, then the flow to a payment and success.
    const visitor = await session.newVisitor();
    let landing = '';
    const userId = await walkToSuccess(visitor.page, {
      emailLabel: 'composed',
      ready: async (walked, path) => {
        await walked.waitForURL((url) => url.pathname === path, { timeout: PATIENCE_MS });
        await interactive(walked);
        if (path === '/') landing = await walked.content();
      },
    });
    expect(landing).toContain(`>${NEW_TITLE}</h1>`);
    expect(landing.indexOf('What our users say')).toBeLessThan(
      landing.indexOf('class="phone-section"'),
    );
    expect(await visitor.page.locator('h1').count()).toBe(1);
    expect((await portalSubscriptions(session, userId)).length).toBeGreaterThan(0);
    expect(visitor.problems).toEqual([]);
  });
});

/**
 * On the Edit and publish page, a flow `spring` led by the new landing, the default route's flow;
 * on the Traffic page, the default route's flow too.
 */
async function firstInANewFlow(page: Page): Promise<void> {
  const edit = await openArea(page, 'Edit and publish');
  const addFlow = edit.getByRole('form', { name: 'Add a flow' });
  await addFlow.getByLabel('Name').fill('spring');
  await addFlow.getByRole('button', { name: 'Add flow' }).click();
  await edit.locator('summary', { hasText: 'Flow spring' }).click();
  await edit.getByLabel('Screen to add to spring').selectOption('spring_landing');
  await edit.getByRole('button', { name: 'Add screen to spring' }).click();
  for (const _ of [1, 2, 3, 4, 5, 6]) {
    const up = edit.getByRole('button', { name: 'Move spring_landing up in spring' });
    if ((await up.getAttribute('aria-disabled')) === 'true') break;
    await up.click();
  }
  await edit.getByRole('button', { name: 'Remove one_pager from spring' }).click();
  // The split's one variant and the default route both walk it.
  await edit.getByLabel('Flow of default').selectOption('spring');
  const traffic = await openArea(page, 'Traffic');
  await traffic.getByLabel('Flow of default').selectOption('spring');
}
