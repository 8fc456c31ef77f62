import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_API, type ConsoleState } from '../../shared/console-api/config';
import { runAxe, seriousViolations, unnamedControls } from './a11y-checks';
import { type BrowserSession, startBrowserSession } from './harness';

/**
 * The console's Experiments page in Chromium against the built worker, by keyboard only: a
 * marketer creates a price test from its preset, starts it, pauses and resumes it, edits its
 * weights while it runs (a new phase, said in the review), and ends it with the decision dialog,
 * where nothing is chosen for them and shipping a variant that did not win takes a reason; between
 * them, it reads the test's results on the test's own page, counted at the checkout, with a
 * segment switch and a CSV link. Once its drain is over it is archived, which frees its range,
 * then deleted. Each step is published through the one review and publish of the console: each
 * dialog takes the marketer to the publish page, and the navigation's link back to Experiments.
 */

let session: BrowserSession;

beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(() => session?.stop());

function liveState(page: Page): Promise<ConsoleState> {
  return page.evaluate(async (url) => (await fetch(url)).json(), CONSOLE_API.state);
}

async function typeInto(control: Locator, text: string): Promise<void> {
  await control.focus();
  await control.page().keyboard.type(text);
}

/** Replaces what a field holds, as a keyboard user does: select all, type. */
async function retype(control: Locator, text: string): Promise<void> {
  await control.focus();
  await control.page().keyboard.press('ControlOrMeta+A');
  await control.page().keyboard.type(text);
}

async function press(control: Locator, key = 'Enter'): Promise<void> {
  await control.focus();
  await control.page().keyboard.press(key);
}

const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');

/**
 * Opens an area's page by its link in the navigation, Enter on the focused link (unless it is the
 * page shown); its heading then has the focus.
 */
async function openByKeyboard(page: Page, title: string): Promise<void> {
  const heading = page.getByRole('heading', { level: 2, name: title, exact: true });
  if (await heading.isVisible()) return;
  await press(
    page
      .getByRole('navigation', { name: 'Sections' })
      .getByRole('link', { name: title, exact: true }),
  );
  await heading.waitFor();
  await expect.poll(() => heading.evaluate((h) => h === document.activeElement)).toBe(true);
}

/** Focus lands in the publish note after a dialog's review: a note, Tab, Enter publishes. */
async function publishFromNote(page: Page, note: string): Promise<void> {
  await expect.poll(() => focusedId(page)).toBe('publish-note');
  await page.keyboard.type(note);
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await page.locator('#edit-status', { hasText: /^Published / }).waitFor();
}

describe('the Experiments area of the console in Chromium', () => {
  // slow: a price test's whole life by keyboard, each step published through the console
  it('creates, starts, pauses, resumes, edits, ends, archives and deletes a price test by keyboard', async () => {
    const { context, page, problems } = await session.newVisitor({
      viewport: { width: 1024, height: 900 },
    });
    await page.goto('/console');
    // Once the console has drawn its first page: a link followed before then leaves focus on it.
    await page.getByRole('heading', { level: 2, name: 'Overview' }).waitFor();
    await openByKeyboard(page, 'Experiments');
    const area = page.getByRole('region', { name: 'Experiments' });
    await area.getByRole('heading', { name: 'Layers' }).waitFor();
    const layers = area.getByRole('list', { name: 'Layers and their free space' });
    expect(await layers.getByText('Free: the whole layer.').count()).toBeGreaterThan(0);

    // The price preset: paywall layer, mature net revenue, the control the route's own plans.
    await typeInto(area.getByLabel('What to test'), 'Price');
    expect(await area.getByLabel('Layer', { exact: true }).inputValue()).toBe('paywall');
    expect(await area.getByLabel('Primary metric of the new experiment').inputValue()).toBe(
      'mature_revenue',
    );
    await typeInto(area.getByLabel('Experiment name'), 'Price US');
    await press(area.getByRole('checkbox', { name: 'default' }), 'Space');
    await press(area.getByRole('checkbox', { name: /^monthly_3d_intro:/ }), 'Space');
    await area.getByText(/^Planned sample: 10,000 visitors in each of 2 variants/).waitFor();
    await press(area.getByRole('button', { name: 'Create draft experiment' }));
    await area
      .getByRole('status')
      .filter({ hasText: 'Created the draft experiment price-us.' })
      .waitFor();
    const card = area.getByRole('article', { name: /Price US/ });
    expect(await card.textContent()).toContain('changes plans monthly_3d_intro');

    // Start: the dialog says who starts entering, then review and publish.
    await press(card.getByRole('button', { name: 'Start Price US…' }));
    const start = page.getByRole('dialog', { name: 'Start Price US?' });
    await start
      .getByText(/^New visitors on route default who match its audience start entering/)
      .waitFor();
    await press(start.getByRole('button', { name: 'Start Price US' }));
    await publishFromNote(page, 'price test US');
    let live = (await liveState(page)).live.experiments.experiments['price-us'];
    expect(live?.status).toBe('running');
    expect(live?.layer).toBe('paywall');
    expect(live?.variants.b?.change).toEqual({ plans: ['monthly_3d_intro'] });
    expect(live?.startedAt).toMatch(/^\d{4}-/);

    // Pause, then resume: the exposed keep their variant.
    await openByKeyboard(page, 'Experiments');
    await press(card.getByRole('button', { name: 'Pause Price US…' }));
    const pause = page.getByRole('dialog', { name: 'Pause Price US?' });
    await pause.getByText(/keep their variant while it is paused/).waitFor();
    await press(pause.getByRole('button', { name: 'Pause Price US' }));
    await publishFromNote(page, 'pause');
    expect((await liveState(page)).live.experiments.experiments['price-us']?.status).toBe('paused');
    await openByKeyboard(page, 'Experiments');
    await press(card.getByRole('button', { name: 'Resume Price US…' }));
    await press(
      page
        .getByRole('dialog', { name: 'Resume Price US?' })
        .getByRole('button', { name: 'Resume Price US' }),
    );
    await publishFromNote(page, 'resume');
    expect((await liveState(page)).live.experiments.experiments['price-us']?.status).toBe(
      'running',
    );

    // Edit while it runs: the weights start a new phase, said before confirming and in the
    // review; no drain days, so it can be archived as soon as it ends.
    await openByKeyboard(page, 'Experiments');
    await press(card.getByRole('button', { name: 'Edit Price US…' }));
    const edit = page.getByRole('dialog', { name: 'Edit Price US' });
    await edit.getByText(/^To change anything else while it runs/).waitFor();
    await retype(edit.getByLabel('Weight of b'), '3');
    await edit
      .getByText(/^These weights draw visitors in other shares: publishing starts a new phase/)
      .waitFor();
    await retype(edit.getByLabel('Coverage (% of matching visitors who enter)'), '50');
    await press(edit.getByRole('button', { name: 'Put the changes to Price US in the draft' }));
    await edit
      .getByText('While it runs, the coverage can only rise: enter 100% or more.')
      .waitFor();
    expect(await focusedId(page)).toBe(
      await edit.getByLabel('Coverage (% of matching visitors who enter)').getAttribute('id'),
    );
    // The dialog with its field messages passes axe too.
    expect(seriousViolations(await runAxe(page, { context: '#experiments dialog' }))).toEqual([]);
    expect(await unnamedControls(page)).toEqual([]);
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('100');
    await retype(edit.getByLabel('Days the exposed keep their variant after it ends'), '0');
    await press(edit.getByRole('button', { name: 'Put the changes to Price US in the draft' }));
    await page
      .getByText(
        /^Publishing starts phase 2 of Price US \(price-us\): the shares change: a 50% → 25%, b 50% → 75%\./,
      )
      .waitFor();
    await publishFromNote(page, 'more to the 3-day intro');
    live = (await liveState(page)).live.experiments.experiments['price-us'];
    expect(live).toMatchObject({ status: 'running', phase: 2, coverage: 1, drainDays: 0 });
    expect(live?.variants.b?.weight).toBe(3);

    // Read on the test's own page, the results' heading focused: counted at the checkout, no
    // verdict before the mature sample, a segment switch. The list of experiments shows none.
    await openByKeyboard(page, 'Experiments');
    const results = area.locator('.experiment-results');
    expect(await results.count()).toBe(0);
    await press(card.getByRole('button', { name: 'Results of Price US' }));
    await page.waitForURL((url) => url.pathname === '/console/experiments/price-us');
    await expect.poll(() => focusedId(page)).toBe('experiment-results-title');
    await results
      .getByText('Counted where the variants first differ — route default: at checkout_v3_tr.')
      .waitFor();
    await results
      .getByText(/^No verdict until the mature sample reaches 10,000 per variant\./)
      .waitFor();
    const segment = results.getByLabel('Split the results by');
    await segment.focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => segment.inputValue()).toBe('country');
    await results
      .getByText('segments find ideas and bugs; confirm a segment winner with a test aimed at it', {
        exact: false,
      })
      .waitFor();
    expect(
      await results.getByRole('link', { name: 'Download as CSV' }).getAttribute('href'),
    ).toContain('/console/api/experiments/price-us/results?');

    // End: nothing chosen; a variant without a win asks for a reason.
    await press(card.getByRole('button', { name: 'End Price US with a decision…' }));
    const end = page.getByRole('dialog', { name: 'End Price US' });
    await end.getByRole('radio').first().waitFor();
    const radios = end.getByRole('radio');
    for (let i = 0; i < (await radios.count()); i++)
      expect(await radios.nth(i).isChecked()).toBe(false);
    await end
      .getByText(
        /^No verdict on Mature net revenue per visitor: the mature sample has not reached 10,000 per/,
      )
      .first()
      .waitFor();
    await press(end.getByRole('button', { name: 'Record the decision' }));
    await end.getByText('Say what the experiment found.').waitFor();
    await end.getByText('Choose what ships.').waitFor();
    expect(await focusedId(page)).toMatch(/-result-won$/);
    await press(end.getByRole('radio', { name: /^Inconclusive/ }), 'Space');
    await press(end.getByRole('radio', { name: 'Make variant b the default of default' }), 'Space');
    const reason = end.getByLabel('Reason (required)');
    await reason.waitFor();
    await press(end.getByRole('button', { name: 'Record the decision' }));
    await end.getByText(/^Type the reason/).waitFor();
    expect(await focusedId(page)).toBe(await reason.getAttribute('id'));
    await page.keyboard.type('the cheaper intro is our new standard');
    await press(end.getByRole('button', { name: 'Record the decision' }));
    await publishFromNote(page, 'ship the 3-day intro');
    live = (await liveState(page)).live.experiments.experiments['price-us'];
    expect(live?.status).toBe('shipped');
    expect(live?.endedAt).toMatch(/^\d{4}-/);
    expect(live?.decision).toMatchObject({
      result: 'inconclusive',
      action: 'route_default',
      variant: 'b',
      reason: 'the cheaper intro is our new standard',
      by: (await liveState(page)).author,
      evidence: {
        phase: 2,
        metric: 'mature_revenue',
        verdict: null,
        srmAlarm: false,
        relativeLift: null,
      },
    });
    await openByKeyboard(page, 'Experiments');
    await card.getByText(/^Decided: inconclusive, variant b made its routes' default/).waitFor();

    // Its drain (0 days) is over: archiving frees its range of the paywall layer for good.
    await press(card.getByRole('button', { name: 'Archive Price US…' }));
    const archive = page.getByRole('dialog', { name: 'Archive Price US?' });
    await archive
      .getByText(/Archiving frees the whole layer paywall and the paywall it changes for good/)
      .waitFor();
    await press(archive.getByRole('button', { name: 'Archive Price US' }));
    await publishFromNote(page, 'archive the price test');
    expect((await liveState(page)).live.experiments.experiments['price-us']?.status).toBe(
      'archived',
    );
    await openByKeyboard(page, 'Experiments');
    await layers
      .getByRole('listitem', { name: 'Layer paywall' })
      .getByText('Free: the whole layer.')
      .waitFor();

    // Archived, it can be deleted: it leaves the config, the version history keeps it.
    await press(card.getByRole('button', { name: 'Delete Price US…' }));
    const remove = page.getByRole('dialog', { name: 'Delete Price US?' });
    await remove.getByText(/^It leaves the config once you publish/).waitFor();
    await press(remove.getByRole('button', { name: 'Delete Price US' }));
    await publishFromNote(page, 'delete the price test');
    expect(Object.keys((await liveState(page)).live.experiments.experiments)).not.toContain(
      'price-us',
    );
    await openByKeyboard(page, 'Experiments');
    await area.getByText('No experiment yet: create one below.').waitFor();

    expect(seriousViolations(await runAxe(page, { context: '#experiments' }))).toEqual([]);
    expect(await unnamedControls(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
