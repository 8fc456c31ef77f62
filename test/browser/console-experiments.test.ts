import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_API, type ConsoleState } from '../../shared/console-api/config';
import { runAxe, seriousViolations, unnamedControls } from './a11y-checks';
import {
  enterText,
  focusedId,
  openByKeyboard,
  press,
  publishFromNote,
  retype,
  typeKeys,
} from './console-keys';
import { consoleFetch } from './console-steps';
import { type BrowserSession, startBrowserSession } from './harness';

/**
 * The console's Experiments page in Chromium against the built worker, by keyboard only: a
 * marketer creates a price test from its preset, starts it, edits its weights while it runs (a new
 * phase, said in the review), and ends it with the decision dialog, where nothing is chosen for
 * them and shipping a variant that did not win takes a reason; between them, it reads the test's
 * results on the test's own page, counted at the checkout. Each step is published through the one
 * review and publish of the console: each dialog takes the marketer to the publish page, and the
 * navigation's link back to Experiments.
 *
 * A test's pause, resume, archive and delete dialogs are opened by mouse in Chromium (a pause
 * confirmed and reviewed, console-pointer.test.ts), their words and drafts are happy-dom's
 * (test/unit/console/status-dialog-ui.test.tsx, experiment-edit-ui.test.tsx), and the range an
 * archived test frees test/unit/console/experiment-edits.test.ts's. The results' segment switch
 * and CSV link are happy-dom's (experiments-ui.test.tsx), a segment picked against the worker's
 * answer console-simulated-price-test.test.ts's. This walk keeps what only the keyboard shows,
 * each dialog's focus and the keys that reach each control.
 */

let session: BrowserSession;

beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(() => session?.stop());

/** The live experiment `id`, as the worker has it after a publish. */
async function liveExperiment(id: string) {
  const state = await consoleFetch<ConsoleState>(session, CONSOLE_API.state);
  return { author: state.author, experiment: state.live.experiments.experiments[id] };
}

describe('the Experiments area of the console in Chromium', () => {
  // slow: a price test by keyboard: created, then three steps each published through the console
  it('creates, starts, edits, reads and ends a price test by keyboard', async () => {
    const { context, page, problems } = await session.newVisitor({
      viewport: { width: 1024, height: 900 },
    });
    await page.goto('/console/experiments');
    const area = page.getByRole('region', { name: 'Experiments' });
    await area.getByRole('heading', { name: 'Layers' }).waitFor();
    const layers = area.getByRole('list', { name: 'Layers and their free space' });
    expect(await layers.getByText('Free: the whole layer.').count()).toBeGreaterThan(0);

    // The price preset: paywall layer, mature net revenue, the control the route's own plans.
    await typeKeys(area.getByLabel('What to test'), 'Price');
    expect(await area.getByLabel('Layer', { exact: true }).inputValue()).toBe('paywall');
    expect(await area.getByLabel('Primary metric of the new experiment').inputValue()).toBe(
      'mature_revenue',
    );
    await enterText(area.getByLabel('Experiment name'), 'Price US');
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
    let live = (await liveExperiment('price-us')).experiment;
    expect(live?.status).toBe('running');
    expect(live?.layer).toBe('paywall');
    expect(live?.variants.b?.change).toEqual({ plans: ['monthly_3d_intro'] });
    expect(live?.startedAt).toMatch(/^\d{4}-/);

    // Edit while it runs: the weights start a new phase, said before confirming and in the
    // review.
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
    live = (await liveExperiment('price-us')).experiment;
    expect(live).toMatchObject({ status: 'running', phase: 2, coverage: 1, drainDays: 0 });
    expect(live?.variants.b?.weight).toBe(3);

    // Read on the test's own page, the results' heading focused: counted at the checkout, no
    // verdict before the mature sample. The list of experiments shows none.
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
    await page.keyboard.insertText('the cheaper intro is our new standard');
    await press(end.getByRole('button', { name: 'Record the decision' }));
    await publishFromNote(page, 'ship the 3-day intro');
    const ended = await liveExperiment('price-us');
    live = ended.experiment;
    expect(live?.status).toBe('shipped');
    expect(live?.endedAt).toMatch(/^\d{4}-/);
    expect(live?.decision).toMatchObject({
      result: 'inconclusive',
      action: 'route_default',
      variant: 'b',
      reason: 'the cheaper intro is our new standard',
      by: ended.author,
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

    expect(seriousViolations(await runAxe(page, { context: '#experiments' }))).toEqual([]);
    expect(await unnamedControls(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
