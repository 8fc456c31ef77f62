import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_API, type ConsoleState } from '../../shared/console-api/config';
import { runAxe, seriousViolations, unnamedControls } from './a11y-checks';
import { discardDraft } from './console-steps';
import { type BrowserSession, startBrowserSession } from './harness';

/**
 * The console's Traffic area in Chromium against the built worker: a marketer saves
 * an audience and adds a route with the keyboard, reviews and publishes it, sees it on the
 * traffic map, and tests a TikTok visitor from Germany, whose preview opens the route's funnel
 * and keeps no visitor cookie. And by mouse, an offer tied to paid TikTok clicks: an audience of
 * TikTok ads that came with TikTok's click id, a route with its own plan, a test visitor with a
 * hand-typed `?utm_source=tiktok` (not taken) and with a TikTok click id (taken), and the review
 * before publishing, which says anyone with the link still gets the plan. The two share one
 * worker; the click-id journey publishes nothing, so it goes first and the map is as shipped.
 */

let session: BrowserSession;

beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(() => session?.stop());

/** What the worker says is live, asked from the page (same origin, the marketer's session). */
function liveState(page: Page): Promise<ConsoleState> {
  return page.evaluate(async (url) => (await fetch(url)).json(), CONSOLE_API.state);
}

/** Picks an option of a closed select as a keyboard user does: focus it and type its name. */
async function typeInto(control: Locator, text: string): Promise<void> {
  await control.focus();
  await control.page().keyboard.type(text);
}

/** Focuses the control and presses Enter, as a keyboard user presses a button. */
async function press(control: Locator, key = 'Enter'): Promise<void> {
  await control.focus();
  await control.page().keyboard.press(key);
}

describe('a route on paid TikTok clicks, built by mouse in Chromium', () => {
  // slow: a console journey by mouse (route, review, publish), then visitors with and without a click id
  it('takes only visitors with a TikTok click id, and the review warns of its plans', async () => {
    const { context, page, problems } = await session.newVisitor({
      viewport: { width: 1280, height: 900 },
    });
    await page.goto('/console');
    const traffic = page.getByRole('region', { name: 'Traffic' });
    await traffic.getByRole('heading', { name: 'Traffic map' }).waitFor();

    // The audience: source TikTok, and a TikTok click id.
    await traffic.getByLabel('Audience name').click();
    await page.keyboard.type('tiktok_paid');
    await traffic.getByLabel('Source to add to condition 1').selectOption('tiktok');
    await traffic.getByRole('button', { name: 'Add value to condition 1' }).click();
    await traffic.getByRole('button', { name: 'Add a condition' }).click();
    await traffic.getByLabel('Attribute of condition 2').selectOption({ label: 'Ad click id' });
    const network = traffic.getByLabel('Ad click id to add to condition 2');
    expect(await network.locator('option').allTextContents()).toEqual([
      'Meta (fbclid)',
      'TikTok (ttclid)',
      'Google (gclid, gbraid, wbraid)',
      'None (no click id in the link)',
    ]);
    await network.selectOption({ label: 'TikTok (ttclid)' });
    await traffic.getByRole('button', { name: 'Add value to condition 2' }).click();
    expect(await traffic.getByRole('list', { name: 'Values of condition 2' }).textContent()).toBe(
      'TikTok (ttclid) ×',
    );
    await traffic.getByRole('button', { name: 'Save audience' }).click();
    const saved = traffic.getByRole('list', { name: 'Saved audiences' });
    await saved.getByText('TikTok ads with a TikTok click id').waitFor();

    // The route, with the quarterly plan.
    await traffic.getByLabel('Route name').click();
    await page.keyboard.type('tiktok_paid');
    await traffic.getByLabel('Flow of the new route').selectOption('lp17ch17pr5');
    await traffic.getByRole('button', { name: 'Add route' }).click();
    const routes = traffic.getByRole('list', { name: 'Routes in the draft, in order' });
    const route = routes.getByRole('listitem').filter({ hasText: 'Route tiktok_paid' });
    await route.getByRole('button', { name: 'Choose plans of route tiktok_paid' }).click();
    await route.getByRole('checkbox', { name: /^quarterly:/ }).click();
    await route.getByText('Anyone who opens this link gets these plans.').waitFor();

    // A link tagged by hand is not a paid click; the same link with TikTok's click id is.
    await traffic.getByLabel('Ad link').click();
    await page.keyboard.type('https://funnel.example/?utm_source=tiktok');
    const test = traffic.getByRole('button', { name: 'Test visitor' });
    await test.click();
    const answer = traffic.locator('.route-test__answer');
    await answer.filter({ hasText: 'this visitor gets route default' }).waitFor();
    expect(await answer.textContent()).toContain('The link reads as: tiktok · no click id');
    await traffic.getByLabel('Ad click id', { exact: true }).selectOption('tiktok');
    await test.click();
    await answer.filter({ hasText: 'this visitor gets route tiktok_paid' }).waitFor();
    expect(await answer.textContent()).toContain('The link reads as: tiktok · click id tiktok');

    // The review, before publishing: the plan goes to whoever opens the link.
    await page.getByRole('button', { name: 'Review changes' }).click();
    const named = page.getByRole('list', { name: 'Routes whose plans anyone with the link gets' });
    await named.waitFor();
    expect(await named.getByRole('listitem').allTextContents()).toEqual([
      'Route tiktok_paid (plans quarterly): Anyone who opens this link gets these plans. Source, UTM tags, entry alias and click ids are typed into links, not verified. A link alone is enough, from anywhere: require a country in the audience too to keep the plans where you buy the ads.',
    ]);
    // It does not stop the publish.
    await page.getByRole('button', { name: 'Publish' }).waitFor();
    await discardDraft(page);

    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('the Traffic area of the console in Chromium', () => {
  // slow: a console journey by keyboard (audience, route, publish), then the route tested
  it('adds an audience and a route by keyboard, publishes them, and tests a TikTok visitor from DE', async () => {
    const { context, page, problems } = await session.newVisitor({
      viewport: { width: 1024, height: 900 },
    });
    await page.goto('/console');
    const traffic = page.getByRole('region', { name: 'Traffic' });
    await traffic.getByRole('heading', { name: 'Traffic map' }).waitFor();
    const map = traffic.getByRole('list', { name: 'Live routes in order' });
    expect(await map.getByRole('article').count()).toBe(1);
    // The session's earlier visitors, if any, all took the one route there is.
    await map.getByText(/^\d+ of \d+ first visits.* in the last 7 days\.$/).waitFor();

    // The audience: TikTok ads in DE, AT, CH, with pickers only.
    await typeInto(traffic.getByLabel('Audience name'), 'tiktok_dach');
    await typeInto(traffic.getByLabel('Source to add to condition 1'), 'tiktok');
    await press(traffic.getByRole('button', { name: 'Add value to condition 1' }));
    await press(traffic.getByRole('button', { name: 'Add a condition' }));
    await typeInto(traffic.getByLabel('Attribute of condition 2'), 'Country');
    const country = traffic.getByLabel('Country to add to condition 2');
    const addCountry = traffic.getByRole('button', {
      name: 'Add value to condition 2',
    });
    for (const name of ['Germany', 'Austria', 'Switzerland']) {
      await typeInto(country, name);
      await press(addCountry);
    }
    expect(await traffic.getByRole('list', { name: 'Values of condition 2' }).textContent()).toBe(
      'Germany (DE) ×Austria (AT) ×Switzerland (CH) ×',
    );
    await press(traffic.getByRole('button', { name: 'Save audience' }));
    const saved = traffic.getByRole('list', { name: 'Saved audiences' });
    await saved.getByText('TikTok ads in DE, AT, CH').waitFor();
    expect(await saved.getByText('Not used by any route.').count()).toBe(1);

    // The route, above default, walking lp17's flow with the quarterly plan.
    await typeInto(traffic.getByLabel('Route name'), 'tiktok_de');
    await typeInto(traffic.getByLabel('Flow of the new route'), 'lp17');
    await press(traffic.getByRole('button', { name: 'Add route' }));
    const routes = traffic.getByRole('list', { name: 'Routes in the draft, in order' });
    await routes.getByRole('heading', { name: /Route tiktok_de/ }).waitFor();
    expect(await routes.getByRole('heading').allTextContents()).toEqual([
      '1. Route tiktok_de ',
      '2. Route default ',
    ]);
    expect(await saved.getByText('Used by tiktok_de.').count()).toBe(1);
    const tiktokRoute = routes.getByRole('listitem').first();
    // The card says what it sells in one line; its plan boxes open on Enter.
    expect(await tiktokRoute.getByText(/^Plans:/).textContent()).toBe('Plans: each screen’s own');
    await press(tiktokRoute.getByRole('button', { name: 'Choose plans of route tiktok_de' }));
    await press(tiktokRoute.getByRole('checkbox', { name: /^quarterly:/ }), 'Space');
    expect(await tiktokRoute.getByText(/^Plans:/).textContent()).toBe(
      'Plans: quarterly: $59.99 every 3 months',
    );
    // TikTok is read from the link: whoever opens it gets the plans.
    await tiktokRoute.getByText('Anyone who opens this link gets these plans.').waitFor();

    // Review and publish, by keyboard.
    await press(page.getByRole('button', { name: 'Review changes' }));
    // Nothing was published before: the diff adds the whole document, routing among it.
    await page.getByText(/^Routing added: .*tiktok_dach/).waitFor();
    await typeInto(page.getByLabel('Note (optional)'), 'TikTok DACH to lp17');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.locator('#edit-status', { hasText: /^Published / }).waitFor();
    const live = await liveState(page);
    expect(live.live.routing.routes).toEqual([
      { id: 'tiktok_de', audience: 'tiktok_dach', flow: 'lp17ch17pr5', plans: ['quarterly'] },
      { id: 'default', flow: 'default' },
    ]);

    // On the traffic map, first, with its audience in words and its flow as screens.
    const card = map.getByRole('article', { name: /tiktok_de/ });
    await card.waitFor();
    expect(await card.textContent()).toContain('TikTok ads in DE, AT, CH');
    expect(
      await card.getByRole('list', { name: 'Screens route tiktok_de shows' }).textContent(),
    ).toBe(live.live.flows.flows.lp17ch17pr5?.join('→'));

    // Test a visitor: a TikTok ad link opened in TikTok's browser on an iPhone in Germany.
    await typeInto(
      traffic.getByLabel('Ad link'),
      'https://funnel.example/?utm_source=tiktok&utm_campaign=dach&ttclid=E.C.P.x1',
    );
    await typeInto(traffic.getByLabel('Visitor’s country'), 'Germany');
    await typeInto(traffic.getByLabel('Opened in the app'), 'TikTok');
    await typeInto(traffic.getByLabel('Test against'), 'What');
    await press(traffic.getByRole('button', { name: 'Test visitor' }));
    await traffic
      .getByRole('status')
      .filter({ hasText: 'This visitor gets route tiktok_de.' })
      .waitFor();
    expect(await traffic.locator('.route-test__answer').textContent()).toContain(
      'Against the live config, this visitor gets route tiktok_de: flow lp17ch17pr5, opens with the landing one_pager_all, plans quarterly.',
    );

    expect(seriousViolations(await runAxe(page, { context: '#traffic' }))).toEqual([]);
    expect(await unnamedControls(page)).toEqual([]);

    // The preview opens the route's funnel in a new tab, and keeps nothing of a visitor.
    const [preview] = await Promise.all([
      context.waitForEvent('page'),
      press(traffic.getByRole('link', { name: /Preview route tiktok_de/ })),
    ]);
    await preview.getByRole('complementary', { name: 'Preview' }).waitFor();
    expect(await preview.getByRole('complementary', { name: 'Preview' }).textContent()).toContain(
      'Preview of route tiktok_de — not counted, no ads',
    );
    // The tested country goes along (outside production), so the pages are priced for DE.
    expect(new URL(preview.url()).search).toBe(
      '?utm_source=tiktok&utm_campaign=dach&ttclid=E.C.P.x1&country=DE',
    );
    const flow = await preview.evaluate(() => document.documentElement.outerHTML);
    expect(flow).toContain('"flow":"lp17ch17pr5"');
    const cookies = (await context.cookies()).map((cookie) => cookie.name);
    expect(cookies).toContain('gf_preview');
    for (const name of ['gf_route', 'gf_touch', 'gf_variant']) expect(cookies).not.toContain(name);

    expect(problems).toEqual([]);
    await context.close();
  });
});
