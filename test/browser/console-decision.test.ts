import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExperimentDocument, ExperimentsDocument } from '../../shared/config/experiments';
import { CONSOLE_API, type ConsoleState } from '../../shared/console-api/config';
import { runAxe, seriousViolations, unnamedControls } from './a11y-checks';
import { focusedId, openByKeyboard, press, tabTo } from './console-keys';
import { consoleFetch } from './console-steps';
import { type BrowserSession, startBrowserSession } from './harness';

/**
 * A landing test that won, ended in the console where the split test draws its route, in Chromium
 * against the built worker, by keyboard: making the winner the route's default would reach no new
 * visitor (the split walks them through its own flows), so the dialog does not offer it and says
 * why, naming the split and the roll-out that ships it; the marketer rolls it out and publishes
 * (that a new visitor drawn into either of the split's flows then lands on the winner is
 * test/worker/console/decision-reach.test.ts's, with the split's draw fixed). Then, by keyboard
 * too, back on the Experiments page the winner is made the route's default from its card, the
 * route leaving the split in the same draft, and on the publish page the dialog then opens, the
 * split's "Routes the split test draws" is ticked and unticked.
 */

/** Today's split test on route default: two flows, half each. */
const SPLIT = {
  version: 'walk',
  defaultVariant: 'default',
  phase: 1,
  variants: { default: { weight: 50, flow: 'default' }, lp1ch2: { weight: 50 } },
};

/** The landing test on route default, running on top of the split. */
const LANDING_TEST: ExperimentDocument = {
  name: 'AI landing',
  status: 'running',
  layer: 'landing',
  audience: { routes: ['default'] },
  coverage: 1,
  seed: 'lp-ai-decision',
  phase: 1,
  control: 'control',
  variants: {
    control: { weight: 1, change: {} },
    ai: { weight: 1, change: { screens: { landing: 'one_pager_ai' } } },
  },
  startedAt: '2026-11-01T09:00:00.000Z',
  drainDays: 0,
};

let session: BrowserSession;

beforeAll(async () => {
  session = await startBrowserSession();
  await session.worker.putConfig('split', SPLIT);
  const experiments: ExperimentsDocument = {
    version: 'walk',
    experiments: { 'lp-ai': LANDING_TEST },
  };
  await session.worker.putConfig('experiments', experiments);
});
afterAll(() => session?.stop());

describe('ending a landing test where the split test draws its route, in Chromium', () => {
  // slow: a decision by keyboard, published, then a second publish page
  it('says the split would hide the route default, rolls it out, then makes it the default by keys', async () => {
    const { context, page, problems } = await session.newVisitor({
      viewport: { width: 1280, height: 900 },
    });
    await page.goto('/console/experiments');
    const area = page.getByRole('region', { name: 'Experiments' });
    const card = area.getByRole('article', { name: /AI landing/ });
    await press(card.getByRole('button', { name: 'End AI landing with a decision…' }));
    const end = page.getByRole('dialog', { name: 'End AI landing' });

    // Before anything is chosen, the dialog says what would hide the route default, by name.
    const hidden = end.getByText(/^Cannot make variant "ai" the default of its routes/);
    await hidden.waitFor();
    expect(await hidden.textContent()).toBe(
      'Cannot make variant "ai" the default of its routes: new visitors would not see it, because the split test ("split") draws route "default" and walks its visitors through its own flows: variant "default" (landing "one_pager"). Roll variant "ai" out to the experiment\'s audience instead: it shows on top of the split test\'s flows.',
    );
    // Made the default only with route default taken out of the split, as a choice of its own.
    await end
      .getByRole('radio', {
        name: 'Make variant ai the default of default, taking default out of the split test',
      })
      .waitFor();
    expect(
      await end
        .getByRole('radio', { name: 'Make variant ai the default of default', exact: true })
        .count(),
    ).toBe(0);
    const rollOut = end.getByRole('radio', {
      name: 'Roll variant ai out to the experiment’s audience',
    });
    expect((await rollOut.getAttribute('aria-describedby'))?.split(' ')).toContain(
      await hidden.getAttribute('id'),
    );
    expect(seriousViolations(await runAxe(page, { context: '#experiments dialog' }))).toEqual([]);
    expect(await unnamedControls(page)).toEqual([]);

    // The next step it names, by keyboard: won, rolled out; no results yet, so a reason.
    await press(end.getByRole('radio', { name: /^Won/ }), 'Space');
    await press(rollOut, 'Space');
    const reason = end.getByLabel('Reason (required)');
    await reason.waitFor();
    await reason.focus();
    await page.keyboard.insertText('the AI landing is our new standard');
    await press(end.getByRole('button', { name: 'Record the decision' }));
    // The publish page opens, its note to write.
    await expect.poll(() => focusedId(page)).toBe('publish-note');
    expect(new URL(page.url()).pathname).toBe('/console/publish');
    await page.keyboard.insertText('ship the AI landing');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.locator('#edit-status', { hasText: /^Published / }).waitFor();

    const live = (await consoleFetch<ConsoleState>(session, CONSOLE_API.state)).live.experiments
      .experiments['lp-ai'];
    expect(live?.status).toBe('shipped');
    expect(live?.decision).toMatchObject({ action: 'roll_out', variant: 'ai' });

    await makeRouteDefaultByKeyboard(page);

    // Checks on each page load (4xx answers) are the dialog's checks of refused decisions.
    expect(problems.filter((problem) => !/^400 .*\/console\/api\/check$/.test(problem))).toEqual(
      [],
    );
    await context.close();
  });
});

/**
 * The rolled-out winner made the route's default by keyboard only (RouteDefaultDialog): the
 * Experiments page opened from the navigation, its opener reached by Tab, Escape closing the
 * dialog with focus back on the opener, Space opening it again and Enter confirming; then, on the
 * publish page it opens, the split's "Routes the split test draws", which the decision changed in
 * the same draft, by Tab and Space.
 */
async function makeRouteDefaultByKeyboard(page: Page): Promise<void> {
  await openByKeyboard(page, 'Experiments');
  const card = page
    .getByRole('region', { name: 'Experiments' })
    .getByRole('article', { name: /AI landing/ });
  const opener = card.getByRole('button', { name: 'Make ai the default of its routes…' });
  const openerId = (await opener.getAttribute('id')) ?? '';

  // Reached by Tab from the card's first control; Escape closes the dialog, focus back home.
  await card.getByRole('button').first().focus();
  await tabTo(page, opener);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Make ai the default of route default?' });
  await dialog.getByText(/so this takes default out of the split test:/).waitFor();
  // Leaving the split settles what would hide it: no "Cannot make" beside the offer.
  expect(await dialog.getByText(/^Cannot make/).count()).toBe(0);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  await expect.poll(() => focusedId(page)).toBe(openerId);

  // Space opens it; Tab walks its buttons; Enter makes ai the default, default leaving the split.
  await page.keyboard.press('Space');
  const make = dialog.getByRole('button', { name: 'Make ai the default of route default' });
  await make.waitFor();
  await tabTo(page, make);
  await page.keyboard.press('Enter');
  await expect.poll(() => focusedId(page)).toBe('publish-note');
  expect(new URL(page.url()).pathname).toBe('/console/publish');
  await page.getByText(/^Variant ai is the default of route default in the draft/).waitFor();

  // The split's routes, by keyboard: default left it in the same draft; Space ticks it again.
  const drawn = page.locator('#split-route-default');
  expect(await drawn.isChecked()).toBe(false);
  await page
    .getByRole('status')
    .filter({ hasText: /^The split test draws no one/ })
    .waitFor();
  await page.getByRole('button', { name: 'Add variant' }).focus();
  await tabTo(page, drawn);
  await page.keyboard.press('Space');
  await expect.poll(() => drawn.isChecked()).toBe(true);
  await page.keyboard.press('Space');
  await expect.poll(() => drawn.isChecked()).toBe(false);
}
