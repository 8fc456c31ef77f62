import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONSOLE_API,
  type ConfigDocument,
  type ConsoleState,
} from '../../shared/console-api/config';
import { HEADLINE_IN_EVERY_LANGUAGE } from '../fixtures/content';
import { runAxe } from './a11y-checks';
import { LIVE_TITLE, openContent } from './content-steps';
import { type BrowserSession, startBrowserSession } from './harness';

/**
 * The content editor's preview of a route, in Chromium against the built worker: with a route
 * that shows a content variant of the landing published, a marketer picks the route (by
 * keyboard) and the preview shows the landing as its visitors see it, the variant's headline and
 * the route's name on the preview bar, and picks a country, whose phone code the form starts at.
 */

let session: BrowserSession;

beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(() => session?.stop());

const SPRING_TITLE = HEADLINE_IN_EVERY_LANGUAGE.en ?? '';

/** The live config with route `spring` (German visitors) showing variant `spring` of the landing. */
function withSpringRoute(live: ConfigDocument): ConfigDocument {
  return {
    ...live,
    content: {
      screens: {
        one_pager: {
          variants: {
            spring: {
              copy: Object.fromEntries(
                Object.entries(HEADLINE_IN_EVERY_LANGUAGE).map(([language, text]) => [
                  language,
                  { 'screens.one_pager.title': text },
                ]),
              ),
            },
          },
        },
      },
    },
    routing: {
      ...live.routing,
      audiences: {
        ...live.routing.audiences,
        germany: { groups: [[{ attribute: 'country', operator: 'in', values: ['DE'] }]] },
      },
      routes: [
        { id: 'spring', audience: 'germany', flow: 'lp11ch8', content: { one_pager: 'spring' } },
        ...live.routing.routes,
      ],
    },
  };
}

describe('previewing content as a route shows it', () => {
  it('shows the route’s variant and a country’s visitor', async () => {
    const { page, problems, content, phone } = await openContent(session);
    const published = await page.evaluate(
      async ([stateUrl, publishUrl]) => {
        const state = (await (await fetch(stateUrl)).json()) as ConsoleState;
        return { state, publishUrl };
      },
      [CONSOLE_API.state, CONSOLE_API.publish] as const,
    );
    const document = withSpringRoute(published.state.live);
    const status = await page.evaluate(
      async ([url, body]) =>
        (
          await fetch(url, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body,
          })
        ).status,
      [
        CONSOLE_API.publish,
        JSON.stringify({ base: published.state.head?.seq ?? null, document, note: 'spring' }),
      ] as const,
    );
    expect(status).toBe(200);
    await page.reload();
    await phone.locator('h1').filter({ hasText: LIVE_TITLE }).waitFor();

    // The route, by keyboard: the preview shows its variant, and the editor edits it.
    const route = content.getByLabel('Preview as route');
    await route.focus();
    await page.keyboard.press('ArrowDown');
    expect(await route.inputValue()).toBe('spring');
    await phone.locator('h1').filter({ hasText: SPRING_TITLE }).waitFor();
    expect(await phone.locator('.preview-bar').textContent()).toContain('Preview of route spring');
    expect(await content.getByLabel('Version').inputValue()).toBe('spring');
    await content
      .getByRole('status')
      .filter({ hasText: 'The preview shows route spring’s visitors' })
      .waitFor();

    // A visitor from Germany: the phone form starts at +49.
    await content.getByLabel('Visitor’s country').selectOption('DE');
    await expect
      .poll(() =>
        phone.locator('select[name="country"], .phone-input__select').first().inputValue(),
      )
      .toBe('DE');
    expect(await page.locator('iframe[title$="phone width"]').getAttribute('title')).toContain(
      'as route spring shows it, to a visitor from DE',
    );
    expect((await runAxe(page)).violations.map((v) => v.id)).toEqual([]);
    await page.screenshot({ path: '/tmp/console-content-route-1280.png' });

    // No route chosen, the visitor from Germany is routed as the edge routes them: to spring.
    await route.selectOption('');
    await phone.locator('h1').filter({ hasText: SPRING_TITLE }).waitFor();
    // From where the worker places them (no country here): the default route's landing.
    await content.getByLabel('Visitor’s country').selectOption('');
    await phone.locator('h1').filter({ hasText: LIVE_TITLE }).waitFor();
    expect(await content.getByLabel('Version').inputValue()).toBe('');
    expect(problems).toEqual([]);
  });
});
