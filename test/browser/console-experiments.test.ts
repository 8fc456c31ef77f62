import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_API, type ConsoleState } from '../../shared/console-api';
import { runAxe, seriousViolations, unnamedControls } from './a11y-checks';
import { type BrowserSession, startBrowserSession } from './harness';

/**
 * The console's Experiments area in Chromium against the built worker, by keyboard only: a
 * marketer creates a price test from its preset, starts it, pauses and resumes it, and ends it
 * with the decision dialog, where nothing is chosen for them and shipping a variant that did not
 * win takes a reason; between them, it reads the test's results, counted at the checkout, with a
 * segment switch and a CSV link. Each step is published through the one review and publish of
 * the console.
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

async function press(control: Locator, key = 'Enter'): Promise<void> {
  await control.focus();
  await control.page().keyboard.press(key);
}

const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');

/** Focus lands in the publish note after a dialog's review: a note, Tab, Enter publishes. */
async function publishFromNote(page: Page, note: string): Promise<void> {
  await expect.poll(() => focusedId(page)).toBe('publish-note');
  await page.keyboard.type(note);
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await page.locator('#edit-status', { hasText: /^Published / }).waitFor();
}

describe('the Experiments area of the console in Chromium', () => {
  it('creates, starts, pauses, resumes and ends a price test by keyboard', async () => {
    const { context, page, problems } = await session.newVisitor({
      viewport: { width: 1024, height: 900 },
    });
    await page.goto('/console');
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
    await press(card.getByRole('button', { name: 'Pause Price US…' }));
    const pause = page.getByRole('dialog', { name: 'Pause Price US?' });
    await pause.getByText(/keep their variant while it is paused/).waitFor();
    await press(pause.getByRole('button', { name: 'Pause Price US' }));
    await publishFromNote(page, 'pause');
    expect((await liveState(page)).live.experiments.experiments['price-us']?.status).toBe('paused');
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

    // Read: counted at the checkout, no verdict before the mature sample, a segment switch.
    await press(card.getByRole('button', { name: 'Results of Price US' }));
    const results = area.locator('.experiment-results');
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
    await press(end.getByRole('radio', { name: /^Roll variant b out/ }), 'Space');
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
      action: 'roll_out',
      variant: 'b',
      reason: 'the cheaper intro is our new standard',
      by: (await liveState(page)).author,
      evidence: { metric: 'mature_revenue', verdict: null, srmAlarm: false, relativeLift: null },
    });
    await card.getByText(/^Decided: inconclusive, variant b rolled out/).waitFor();

    expect(seriousViolations(await runAxe(page, { context: '#experiments' }))).toEqual([]);
    expect(await unnamedControls(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
