import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_API, type ConsoleState } from '../../shared/console-api/config';
import { runAxe, seriousViolations, unnamedControls } from './a11y-checks';
import { enterText, follow, press, typeKeys } from './console-keys';
import { consoleFetch } from './console-steps';
import { type BrowserSession, startBrowserSession } from './harness';

/**
 * The console's Traffic page in Chromium against the built worker: a marketer saves an audience
 * and adds a route with the keyboard, follows the draft's notice to the publish page to review and
 * publish it, back on the Traffic page by the navigation sees it on the traffic map, and tests a
 * TikTok visitor from Germany, offered a preview link in a tab of its own (where it leads, the
 * route's funnel keeping no visitor cookie, is test/worker/console/route-test.test.ts's). An offer
 * tied to paid TikTok clicks (an audience of TikTok ads with TikTok's click id, a route with its
 * own plan, the review's warning that anyone with the link gets the plan) is form logic, in
 * happy-dom (test/unit/console/traffic-ui.test.tsx), and which visitors its route takes is the
 * worker's route test (test/worker/console/route-test.test.ts); every control is clicked by mouse
 * in console-pointer.test.ts.
 */

let session: BrowserSession;

beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(() => session?.stop());

describe('the Traffic area of the console in Chromium', () => {
  // slow: a console journey by keyboard (audience, route, publish), then the route tested
  it('adds an audience and a route by keyboard, publishes them, and tests a TikTok visitor from DE', async () => {
    const { context, page, problems } = await session.newVisitor({
      viewport: { width: 1024, height: 900 },
    });
    await page.goto('/console/traffic');
    const traffic = page.getByRole('region', { name: 'Traffic' });
    await traffic.getByRole('heading', { name: 'Traffic map' }).waitFor();
    const map = traffic.getByRole('list', { name: 'Live routes in order' });
    expect(await map.getByRole('article').count()).toBe(1);
    // The session's earlier visitors, if any, all took the one route there is.
    await map.getByText(/^\d+ of \d+ first visits.* in the last 7 days\.$/).waitFor();

    // The audience: TikTok ads in DE, AT, CH, with pickers only.
    await enterText(traffic.getByLabel('Audience name'), 'tiktok_dach');
    await typeKeys(traffic.getByLabel('Source to add to condition 1'), 'tiktok');
    await press(traffic.getByRole('button', { name: 'Add value to condition 1' }));
    await press(traffic.getByRole('button', { name: 'Add a condition' }));
    await typeKeys(traffic.getByLabel('Attribute of condition 2'), 'Country');
    const country = traffic.getByLabel('Country to add to condition 2');
    const addCountry = traffic.getByRole('button', {
      name: 'Add value to condition 2',
    });
    for (const name of ['Germany', 'Austria', 'Switzerland']) {
      await typeKeys(country, name);
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
    await enterText(traffic.getByLabel('Route name'), 'tiktok_de');
    await typeKeys(traffic.getByLabel('Flow of the new route'), 'lp17');
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

    // Review and publish, by keyboard: the draft's notice leads to the publish page.
    await page.getByText('Your draft has edits that are not published yet.').waitFor();
    await follow(page.getByRole('link', { name: 'Review and publish them' }), 'Edit and publish');
    await press(page.getByRole('button', { name: 'Review changes' }));
    // Nothing was published before: the diff adds the whole document, routing among it.
    await page.getByText(/^Routing added: .*tiktok_dach/).waitFor();
    await enterText(page.getByLabel('Note (optional)'), 'TikTok DACH to lp17');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.locator('#edit-status', { hasText: /^Published / }).waitFor();
    const live = await consoleFetch<ConsoleState>(session, CONSOLE_API.state);
    expect(live.live.routing.routes).toEqual([
      { id: 'tiktok_de', audience: 'tiktok_dach', flow: 'lp17ch17pr5', plans: ['quarterly'] },
      { id: 'default', flow: 'default' },
    ]);

    // On the traffic map, first, with its audience in words and its flow as screens.
    await follow(
      page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Traffic' }),
      'Traffic',
    );
    const card = map.getByRole('article', { name: /tiktok_de/ });
    await card.waitFor();
    expect(await card.textContent()).toContain('TikTok ads in DE, AT, CH');
    expect(
      await card.getByRole('list', { name: 'Screens route tiktok_de shows' }).textContent(),
    ).toBe(live.live.flows.flows.lp17ch17pr5?.join('→'));

    // Test a visitor: a TikTok ad link opened in TikTok's browser on an iPhone in Germany.
    await enterText(
      traffic.getByLabel('Ad link'),
      'https://funnel.example/?utm_source=tiktok&utm_campaign=dach&ttclid=E.C.P.x1',
    );
    await typeKeys(traffic.getByLabel('Visitor’s country'), 'Germany');
    await typeKeys(traffic.getByLabel('Opened in the app'), 'TikTok');
    await typeKeys(traffic.getByLabel('Test against'), 'What');
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

    // Its preview link, opened beside the console. Where it leads (the route's funnel with the
    // tested country along, nothing kept of a visitor) is the worker's answer
    // (test/worker/console/route-test.test.ts; the preview's bar, preview.test.ts), and the
    // link is the answer's (test/unit/console/traffic-ui.test.tsx).
    const link = traffic.getByRole('link', { name: /Preview route tiktok_de/ });
    expect(await link.getAttribute('target')).toBe('_blank');

    expect(problems).toEqual([]);
    await context.close();
  });
});
