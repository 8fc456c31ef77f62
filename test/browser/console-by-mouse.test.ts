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

/**
 * The marketers' guides walked by mouse only, in Chromium against the built worker at a laptop's
 * width: each task of docs/marketers.md (a variant added, reviewed, published, rolled back,
 * previewed), docs/routes.md (an audience built with pickers, a route with plans, the warning in
 * the review, a visitor tested and previewed) and docs/experiments.md (a price test created,
 * started, paused, resumed, stopped, ended with a decision, archived, deleted). Every control is
 * reached by a pointer click, which Chromium refuses (and the test times out on) when another
 * element covers the control's centre; text is typed into the field clicked. No key is pressed.
 * Each area is its own page, opened by its link in the navigation or a link the console shows.
 *
 * The guides' other tasks are walked by mouse in files of their own: copy edited, previewed,
 * published and rolled back (console.test.ts), a click-id audience (happy-dom:
 * test/unit/console/traffic-ui.test.tsx),
 * upsell prices on a route and in a test (upsell-prices.test.ts), a visitor from DE on a TikTok
 * link (visitor-country.test.ts), a simulated price test's verdict read in the results
 * (console-simulated-price-test.test.ts), and every control of every card and dialog clicked at
 * one width and uncovered at the others (console-pointer.test.ts).
 */

let session: BrowserSession;

beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(() => session?.stop());

describe('the marketers’ guides walked by mouse in Chromium', () => {
  // slow: a marketer's guide walked whole by mouse: edit, publish, roll back, preview
  it('marketers.md: adds a variant, publishes, rolls back and previews it, by mouse', async () => {
    const { context, page, problems } = await session.newVisitor({
      viewport: { width: 1280, height: 800 },
    });
    await page.goto('/console');
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

    // A variant's preview: its link opens the variant's first screen with the preview bar.
    const overview = await openArea(page, 'Overview');
    const [preview] = await Promise.all([
      context.waitForEvent('page'),
      click(overview.getByRole('link', { name: 'Preview lp17' })),
    ]);
    await preview.getByRole('complementary', { name: 'Preview' }).waitFor();
    expect(await preview.getByRole('complementary', { name: 'Preview' }).textContent()).toContain(
      'Preview of variant lp17',
    );
    await preview.close();
    expect(problems.filter((problem) => !expectedRefusal(problem))).toEqual([]);
    await context.close();
  });

  // slow: a marketer's guide walked whole by mouse: an audience, a route, a review, a test
  it('routes.md: builds an audience and a route by mouse, sees the plan warning in the review, tests a visitor', async () => {
    const { context, page, problems } = await session.newVisitor({
      viewport: { width: 1280, height: 800 },
    });
    await page.goto('/console');
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

    // Test a visitor against what is live, then open the preview it offers.
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
    const [preview] = await Promise.all([
      context.waitForEvent('page'),
      click(traffic.getByRole('link', { name: /Preview route tiktok_de/ })),
    ]);
    await preview.getByRole('complementary', { name: 'Preview' }).waitFor();
    expect(await preview.evaluate(() => document.documentElement.outerHTML)).toContain(
      '"flow":"lp17ch17pr5"',
    );
    await preview.close();

    // Move it below default is impossible; pausing it is a click, reviewed and published.
    await click(route.getByRole('checkbox', { name: 'Pause tiktok_de' }));
    await reviewAndPublish(page, 'pause TikTok DACH');
    expect((await liveState(page)).live.routing.routes[0]?.paused).toBe(true);
    expect(problems.filter((problem) => !expectedRefusal(problem))).toEqual([]);
    await context.close();
  });

  // slow: a price test's whole life by mouse as experiments.md walks it, each step published
  it('experiments.md: creates, starts, pauses, resumes, stops, ends, archives and deletes a price test by mouse', async () => {
    const { context, page, problems } = await session.newVisitor({
      viewport: { width: 1280, height: 800 },
    });
    await page.goto('/console');
    const area = await openArea(page, 'Experiments');
    await area.getByRole('heading', { name: 'Layers' }).waitFor();

    // Two experiments, so the first card has another below it (where Stop and End were once
    // covered by the next card). The first takes half the paywall layer, the second the rest.
    for (const [name, plan, to] of [
      ['Price US', 'monthly_3d_intro', '50'],
      ['Price EU', 'monthly_5d_intro', '100'],
    ] as const) {
      await area.getByLabel('What to test').selectOption({ label: 'Price' });
      await typeInto(area.getByLabel('Experiment name'), name);
      await typeInto(area.getByLabel('Range in the layer to (%)'), to);
      await click(area.getByRole('checkbox', { name: 'default' }));
      await click(area.getByRole('checkbox', { name: new RegExp(`^${plan}:`) }));
      await click(area.getByRole('button', { name: 'Create draft experiment' }));
      await area
        .getByRole('status')
        .filter({ hasText: /^Created the draft experiment/ })
        .last()
        .waitFor();
    }
    const card = area.getByRole('article', { name: /Price US/ });

    // Each dialog's change opens the publish page; the marketer comes back by the navigation
    // (or stays on the experiment's own page, where its card is too).
    const move = async (label: string, note: string) => {
      await openArea(page, 'Experiments');
      await click(card.getByRole('button', { name: `${label} Price US…` }));
      const dialog = page.getByRole('dialog', { name: `${label} Price US?` });
      await click(dialog.getByRole('button', { name: `${label} Price US` }));
      await reviewAndPublish(page, note);
    };
    const status = async () => (await liveState(page)).live.experiments.experiments['price-us'];

    await move('Start', 'price test US');
    expect((await status())?.status).toBe('running');
    await move('Pause', 'pause');
    expect((await status())?.status).toBe('paused');
    await move('Resume', 'resume');
    expect((await status())?.status).toBe('running');

    // Edit while it runs: no drain days, so it can be archived as soon as it ends.
    await openArea(page, 'Experiments');
    await click(card.getByRole('button', { name: 'Edit Price US…' }));
    const edit = page.getByRole('dialog', { name: 'Edit Price US' });
    await typeInto(edit.getByLabel('Days the exposed keep their variant after it ends'), '0');
    await click(edit.getByRole('button', { name: 'Put the changes to Price US in the draft' }));
    await reviewAndPublish(page, 'no drain');
    expect((await status())?.drainDays).toBe(0);

    // Its results, read by clicking on the test's own page: counted at the checkout, a segment
    // picked.
    await openArea(page, 'Experiments');
    await click(card.getByRole('button', { name: 'Results of Price US' }));
    await page.waitForURL((url) => url.pathname === '/console/experiments/price-us');
    const results = area.locator('.experiment-results');
    await results.getByText(/^Counted where the variants first differ/).waitFor();
    await results.getByLabel('Split the results by').selectOption('country');

    await move('Stop', 'stop the US test');
    expect((await status())?.status).toBe('stopped');

    // End with a decision: nothing chosen for the marketer; each choice a click.
    await openArea(page, 'Experiments');
    await click(card.getByRole('button', { name: 'End Price US with a decision…' }));
    const end = page.getByRole('dialog', { name: 'End Price US' });
    await click(end.getByRole('radio', { name: /^Inconclusive/ }));
    await click(end.getByRole('radio', { name: /^Keep the control/ }));
    await click(end.getByRole('button', { name: 'Record the decision' }));
    await reviewAndPublish(page, 'keep the plans');
    expect((await status())?.decision).toMatchObject({
      result: 'inconclusive',
      action: 'keep_control',
    });

    await move('Archive', 'archive');
    expect((await status())?.status).toBe('archived');
    await openArea(page, 'Experiments');
    await click(card.getByRole('button', { name: 'Delete Price US…' }));
    await click(
      page
        .getByRole('dialog', { name: 'Delete Price US?' })
        .getByRole('button', { name: 'Delete Price US' }),
    );
    await reviewAndPublish(page, 'delete the US test');
    expect(await status()).toBeUndefined();
    // The other experiment is untouched, still a draft.
    expect((await liveState(page)).live.experiments.experiments['price-eu']?.status).toBe('draft');
    expect(problems.filter((problem) => !expectedRefusal(problem))).toEqual([]);
    await context.close();
  });
});
