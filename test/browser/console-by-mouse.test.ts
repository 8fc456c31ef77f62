import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  click,
  expectedRefusal,
  liveState,
  openArea,
  reviewAndPublish,
  typeInto,
} from './console-steps';
import { type BrowserSession, startBrowserSession } from './harness';
import { PATIENCE_MS } from './patience';

/**
 * The marketers' guides walked by mouse only, in Chromium against the built worker at a laptop's
 * width: each task of docs/marketers.md (a variant added, reviewed, published, rolled back, its
 * version found) and docs/routes.md (an audience built with pickers, a route with plans, the
 * warning in the review, a visitor tested). The previews they offer open as the worker's
 * previews do (test/worker/console/preview.test.ts, visitor-gets.test.ts), beside the console
 * (the links' targets: console-ui.test.tsx, traffic-ui.test.tsx). Every control is reached by a pointer click,
 * which Chromium refuses (and the test times out on) when another element covers the control's
 * centre; text is typed into the field clicked. No key is pressed. Each area is its own page,
 * opened by its link in the navigation or a link the console shows; one console page load serves
 * both guides, the second going on from where the first left it.
 *
 * The guides' other tasks are walked in files of their own: docs/experiments.md's price test
 * created, started, edited and ended by keyboard against the worker (console-experiments.test.ts),
 * every control of its form, cards and dialogs reached by a pointer at 360, 1024 and 1280 px
 * (console-pointer.test.ts, a pause confirmed there too), its pause, resume, archive and delete
 * in happy-dom (test/unit/console/status-dialog-ui.test.tsx, experiment-edit-ui.test.tsx), and
 * what a click on each control does in happy-dom (test/unit/console/experiments-ui.test.tsx,
 * experiment-edit-ui.test.tsx, every-field-ui.test.tsx); copy edited, previewed, published and
 * rolled back (happy-dom: test/unit/console/copy-ui.test.tsx), a click-id audience (happy-dom:
 * test/unit/console/traffic-ui.test.tsx), upsell prices on a route and in a test
 * (upsell-prices.test.ts), a visitor from DE on a TikTok link (visitor-country.test.ts), and a
 * simulated price test's verdict read in the results (console-simulated-price-test.test.ts).
 */

let session: BrowserSession;

/**
 * The console's first page, drawn: its links are the console's own from then on. A link clicked
 * before, on two cores a whole suite shares, loaded its page afresh, whose heading no press had
 * focused, and the walk waited on that focus until it failed.
 */
async function openConsole(page: Page): Promise<void> {
  await page.goto('/console');
  await page
    .getByRole('heading', { level: 2, name: 'Overview', exact: true })
    .waitFor({ timeout: PATIENCE_MS });
}

/** The marketer's one console page at a laptop's width, walked by both guides in turn. */
let marketer: Awaited<ReturnType<BrowserSession['newVisitor']>>;

beforeAll(async () => {
  session = await startBrowserSession();
  marketer = await session.newVisitor({ viewport: { width: 1280, height: 800 } });
  await openConsole(marketer.page);
});
afterAll(() => session?.stop());

describe('the marketers’ guides walked by mouse in Chromium', () => {
  // slow: a marketer's guide walked whole by mouse: edit, publish, roll back, find a version
  it('marketers.md: adds a variant, publishes, rolls back and finds the version it restored, by mouse', async () => {
    const { page, problems } = marketer;
    await openArea(page, 'Edit and publish');

    await typeInto(page.getByLabel('Key', { exact: true }), 'lp17');
    await typeInto(page.getByLabel('Weight', { exact: true }), '50');
    await page.getByLabel('Flow', { exact: true }).selectOption('lp17ch17pr5');
    await click(page.getByRole('button', { name: 'Add variant' }));
    await reviewAndPublish(page, 'lp17 joins');
    const v1 = (await liveState(page)).head;
    expect((await liveState(page)).live.split.variants.lp17).toEqual({
      weight: 50,
      flow: 'lp17ch17pr5',
    });

    await typeInto(page.getByLabel('Weight of lp17'), '100');
    await click(page.getByRole('button', { name: 'Review changes' }));
    await page.getByText(/^Publishing starts phase 2 of the experiment: /).waitFor();
    await reviewAndPublish(page, 'more to lp17');
    expect((await liveState(page)).live.split.variants.lp17?.weight).toBe(100);

    // Roll back to v1: the confirm step says it starts a new phase, as a publish would.
    const history = await openArea(page, 'History');
    const v1Entry = history.getByRole('article', { name: v1?.id });
    await click(v1Entry.getByRole('button', { name: `Roll back to ${v1?.id}…` }));
    await v1Entry.getByText(/this starts a new phase/).waitFor();
    await typeInto(v1Entry.getByLabel('Note (optional)'), 'back to 50/50');
    await click(v1Entry.getByRole('button', { name: `Confirm roll back to ${v1?.id}` }));
    await page.locator('#history-status', { hasText: /^Rolled back: / }).waitFor();
    const after = await liveState(page);
    expect(after.head).toMatchObject({ source: 'rollback', restores: v1?.seq });
    expect(after.live.split.variants.lp17?.weight).toBe(50);

    // Each page at its address: the browser's Back and Forward move between them, the search
    // finds a version and opens its own page, and a reload keeps it.
    await page.goBack();
    await page.getByRole('heading', { level: 2, name: 'Edit and publish' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/console/publish');
    await page.goForward();
    await page.getByRole('heading', { level: 2, name: 'History' }).waitFor();
    await typeInto(page.getByRole('searchbox', { name: 'Search the console' }), v1?.id ?? '');
    const found = page.getByRole('list', { name: 'Found in the console' });
    await click(found.getByRole('link', { name: new RegExp(`^Version ${v1?.id}: `) }));
    await page.waitForURL(`**/console/history/${v1?.id}`);
    await page.reload();
    const versionPage = page.getByRole('region', { name: 'History' });
    await versionPage.getByRole('article', { name: v1?.id }).waitFor();
    expect(await versionPage.getByRole('article').count()).toBe(1);
    await click(versionPage.getByRole('link', { name: 'All versions' }));
    await page.waitForURL('**/console/history');

    expect(problems.filter((problem) => !expectedRefusal(problem))).toEqual([]);
  });

  // slow: a marketer's guide walked whole by mouse: an audience, a route, a review, a test
  it('routes.md: builds an audience and a route by mouse, sees the plan warning in the review, tests a visitor', async () => {
    // Going on from the History the first guide ended on, by the navigation.
    const { page, problems } = marketer;
    const traffic = await openArea(page, 'Traffic');
    await traffic.getByRole('heading', { name: 'Traffic map' }).waitFor();

    await typeInto(traffic.getByLabel('Audience name'), 'tiktok_dach');
    await traffic.getByLabel('Source to add to condition 1').selectOption('tiktok');
    await click(traffic.getByRole('button', { name: 'Add value to condition 1' }));
    await click(traffic.getByRole('button', { name: 'Add a condition' }));
    await traffic.getByLabel('Attribute of condition 2').selectOption({ label: 'Country' });
    for (const code of ['DE', 'AT', 'CH']) {
      await traffic.getByLabel('Country to add to condition 2').selectOption(code);
      await click(traffic.getByRole('button', { name: 'Add value to condition 2' }));
    }
    // A value picked by mistake is taken out with its ×.
    await click(
      traffic
        .getByRole('list', { name: 'Values of condition 2' })
        .getByRole('button', { name: /Switzerland/ }),
    );
    expect(await traffic.getByRole('list', { name: 'Values of condition 2' }).textContent()).toBe(
      'Germany (DE) ×Austria (AT) ×',
    );
    await click(traffic.getByRole('button', { name: 'Save audience' }));
    const saved = traffic.getByRole('list', { name: 'Saved audiences' });
    await saved.getByText('TikTok ads in DE, AT').waitFor();

    await typeInto(traffic.getByLabel('Route name'), 'tiktok_de');
    await traffic.getByLabel('Flow of the new route').selectOption('lp17ch17pr5');
    await click(traffic.getByRole('button', { name: 'Add route' }));
    const routes = traffic.getByRole('list', { name: 'Routes in the draft, in order' });
    const route = routes.getByRole('listitem').first();
    await route.getByRole('heading', { name: /Route tiktok_de/ }).waitFor();
    await click(route.getByRole('button', { name: 'Choose plans of route tiktok_de' }));
    await click(route.getByRole('checkbox', { name: /^quarterly:/ }));
    await route.getByText('Anyone who opens this link gets these plans.').waitFor();

    // The review names it again before anything is published: the notice of the draft's edits
    // links to it.
    await click(page.getByRole('link', { name: 'Review and publish them' }));
    await page.getByRole('heading', { level: 2, name: 'Edit and publish' }).waitFor();
    await click(page.getByRole('button', { name: 'Review changes' }));
    await page
      .getByRole('list', { name: 'Routes whose plans anyone with the link gets' })
      .getByText(/tiktok_de/)
      .waitFor();
    await reviewAndPublish(page, 'TikTok DACH to lp17');
    expect((await liveState(page)).live.routing.routes[0]).toEqual({
      id: 'tiktok_de',
      audience: 'tiktok_dach',
      flow: 'lp17ch17pr5',
      plans: ['quarterly'],
      // Stamped by the publish with when it was first published (the holdout reads it).
      since: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/),
    });

    // Test a visitor against what is live. The preview it offers opens the route's landing
    // (test/worker/console/visitor-gets.test.ts; the link's target, traffic-ui.test.tsx).
    await openArea(page, 'Traffic');
    await typeInto(
      traffic.getByLabel('Ad link'),
      'https://funnel.example/?utm_source=tiktok&ttclid=E.C.P.x1',
    );
    await traffic.getByLabel('Visitor’s country').selectOption('DE');
    await click(traffic.getByRole('button', { name: 'Test visitor' }));
    await traffic
      .getByRole('status')
      .filter({ hasText: 'This visitor gets route tiktok_de.' })
      .waitFor();

    // Move it below default is impossible; pausing it is a click, reviewed and published.
    await click(route.getByRole('checkbox', { name: 'Pause tiktok_de' }));
    await reviewAndPublish(page, 'pause TikTok DACH');
    expect((await liveState(page)).live.routing.routes[0]?.paused).toBe(true);
    expect(problems.filter((problem) => !expectedRefusal(problem))).toEqual([]);
  });
});
