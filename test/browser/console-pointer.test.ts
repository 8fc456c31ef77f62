import type { ElementHandle, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExperimentDocument, ExperimentsDocument } from '../../shared/config/experiments';
import type { RoutingDocument } from '../../shared/config/routing';
import {
  CONSOLE_API,
  type ConsoleState,
  type PublishRequest,
} from '../../shared/console-api/config';
import {
  CONSOLE_AREAS,
  CONSOLE_HOME,
  type ConsoleArea,
  consolePath,
} from '../../shared/console-api/pages';
import { runAxe, seriousViolations } from './a11y-checks';
import { type ConsoleAreaTitle, consoleFetch, pageTookFocus } from './console-steps';
import { type BrowserSession, startBrowserSession, watchPage } from './harness';
import { PATIENCE_MS } from './patience';
import {
  coveredControls,
  mouseClickField,
  press,
  pressWithFinger,
  visibleControls,
} from './pointer-checks';

/**
 * The console by mouse and by finger, in Chromium against the built worker. The console is a page
 * per area (shared/console-api/pages.ts), walked page by page through the links in its header and
 * the links its pages show (an experiment's results, "All experiments", the draft's "Review and
 * publish them"), each followed by the same pointer. At 1024 px, a small laptop's window, each
 * area's page at rest, each action of each experiment card, each dialog, the create form, the
 * traffic editors, the edit and publish page, the history and the results is clicked with the
 * mouse where a person would aim, every field among them, and does what it says; each state it
 * reaches is also hit-tested in a 1920 px window, widened for the check. On a 360 px phone by
 * finger each of those states is reached the same way (every page opened from the header, every
 * card action tapped, every dialog opened and cancelled, a variant added, a condition and a group
 * added, a visitor tested, a weight reviewed and published, a rollback asked). In every state
 * nothing covers any control, the header's links among them: at each control's middle, where the
 * mouse and the finger aim, the browser hits the control itself. At 1280 and 1400 px, where the
 * cards' grid has other column counts, nothing is covered on any page at rest.
 *
 * Why one width clicks everything: what a click does once it lands (a field takes the focus, a
 * checkbox flips and flips back, a dialog's Cancel gives the focus back, Duplicate adds a draft)
 * does not depend on the window's width; whether it lands does, and that is what the other widths
 * prove, every control of a state in one round trip rather than a click each. The wide window
 * checks the states the clicks reached rather than walking to them again: a walk of its own by
 * mouse at 1920 px cost 19-20 s alone (some 25 CPU-seconds of the file's 110) and proved the same.
 */

let session: BrowserSession;

/** The width at which every field is clicked; see the comment at the top. */
const CLICKED_WIDTH = 1024;

/** A wide desktop window, where each state is reached by mouse and hit-tested whole. */
const WIDE = 1920;

/** The longest a console page may be at 1280 px: a few screens, not the one page of old. */
const MOST_PAGE_HEIGHT = 6_000;

/** A phone, where each state is reached by finger and hit-tested whole. */
const PHONE = 360;

/**
 * At the clicked width every field of a state is clicked and its effect checked; at the others
 * nothing in the state may be covered. Both hit-test every control of the state.
 */
type Depth = 'click every field' | 'hit-test';

/** A paywall price test: two variants on route default, in its own stretch of the layer. */
function priceTest(name: string, status: ExperimentDocument['status'], range: [number, number]) {
  const test: ExperimentDocument = {
    name,
    status,
    layer: 'paywall',
    range,
    audience: { routes: ['default'] },
    coverage: 1,
    seed: name.toLowerCase().replaceAll(' ', '-'),
    phase: 1,
    control: 'a',
    variants: {
      a: { weight: 1, change: {} },
      b: { weight: 1, change: { plans: ['monthly_3d_intro'] } },
    },
  };
  if (status !== 'draft') test.startedAt = '2026-10-01T09:00:00.000Z';
  return test;
}

/**
 * One experiment in every status, each card offering its own actions: two running side by side,
 * the first of which the second once covered. The ended ones drained long ago, so they may be
 * archived.
 */
const EXPERIMENTS: ExperimentsDocument = {
  version: 'pointer',
  experiments: {
    'price-us': priceTest('Price US', 'running', [0, 0.2]),
    'landing-ai': {
      ...priceTest('Landing AI', 'running', [0, 1]),
      layer: 'landing',
      variants: {
        a: { weight: 1, change: {} },
        b: { weight: 1, change: { screens: { landing: 'one_pager_ai' } } },
      },
    },
    'price-de': priceTest('Price DE', 'paused', [0.2, 0.4]),
    'next-test': priceTest('Next test', 'draft', [0.4, 0.6]),
    'old-test': {
      ...priceTest('Old test', 'stopped', [0.6, 0.8]),
      endedAt: '2026-10-10T09:00:00.000Z',
      drainDays: 0,
    },
    'gone-test': {
      ...priceTest('Gone test', 'archived', [0.8, 1]),
      endedAt: '2026-10-10T09:00:00.000Z',
      drainDays: 0,
    },
  },
};

/** Two routes above default, so each can move up or down, and their saved audiences. */
const ROUTING: RoutingDocument = {
  version: 'pointer',
  audiences: {
    tiktok_ads: { groups: [[{ attribute: 'source', operator: 'in', values: ['tiktok'] }]] },
    meta_ads: { groups: [[{ attribute: 'source', operator: 'in', values: ['meta'] }]] },
  },
  routes: [
    { id: 'tiktok', audience: 'tiktok_ads', flow: 'default' },
    { id: 'meta', audience: 'meta_ads', flow: 'default' },
    { id: 'default', flow: 'default' },
  ],
};

beforeAll(async () => {
  session = await startBrowserSession();
  await session.worker.putConfig('experiments', EXPERIMENTS);
  await session.worker.putConfig('routing', ROUTING);
  // A first version published, so the history can roll back: by the console's API, once for
  // the file (each walk publishes one of its own by mouse or finger, see publishWeight).
  const state = await consoleFetch<ConsoleState>(session, CONSOLE_API.state);
  const { live } = state;
  const request: PublishRequest = {
    base: state.head?.seq ?? null,
    document: {
      ...live,
      split: {
        ...live.split,
        variants: {
          ...live.split.variants,
          default: { ...live.split.variants.default, weight: 40 },
        },
      },
    },
    note: 'default at 40',
  };
  await consoleFetch(session, CONSOLE_API.publish, request);
});
afterAll(() => session?.stop());

async function openConsole(page: Page): Promise<void> {
  await page.goto(CONSOLE_HOME);
  // A first page from a cold worker, on two cores a whole suite shares, took over 10 s at times.
  await page
    .getByRole('heading', { level: 2, name: 'Overview', exact: true })
    .waitFor({ timeout: PATIENCE_MS });
}

/** The header's navigation: a link to each area's page. */
const sections = (page: Page) => page.getByRole('navigation', { name: 'Sections' });

/** The path of the page shown. */
const pathOf = (page: Page) => new URL(page.url()).pathname;

/**
 * Opens an area's page by its link in the header, pressed as the walk presses everything (by
 * mouse, or by finger on a phone), unless it is the page shown; gives the area's region.
 */
async function goTo(page: Page, title: ConsoleAreaTitle): Promise<Locator> {
  const heading = page.getByRole('heading', { level: 2, name: title, exact: true });
  // "Alerts" carries its count of new alerts after its name.
  if (!(await heading.isVisible())) {
    await press(page, sections(page).getByRole('link', { name: new RegExp(`^${title}\\b`) }));
    await pageTookFocus(page);
  }
  await heading.waitFor();
  return page.getByRole('region', { name: title, exact: true });
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Requests each page has asked and not yet had answered. */
const inFlight = new WeakMap<Page, Set<unknown>>();

function countRequests(page: Page): void {
  const open = new Set<unknown>();
  inFlight.set(page, open);
  page.on('request', (request) => open.add(request));
  page.on('requestfinished', (request) => open.delete(request));
  page.on('requestfailed', (request) => open.delete(request));
}

/**
 * Waits until what a dialog reads from the worker has arrived and `root` stops changing, so a
 * click is not aimed at a place the arriving text then moves.
 */
async function settled(page: Page, root: Locator): Promise<void> {
  let before = '';
  await expect
    .poll(
      async () => {
        const now = await root.innerHTML();
        const same = now === before && inFlight.get(page)?.size === 0;
        before = now;
        return same;
      },
      { interval: 50 },
    )
    .toBe(true);
}

const isFocused = (control: Locator) =>
  control.evaluate((element) => element === document.activeElement);

/** A checkbox or radio is `checked` now, or the failure names it. */
async function expectChecked(field: ElementHandle<HTMLElement>, checked: boolean): Promise<void> {
  const name = () =>
    field.evaluate(
      (input) =>
        `${(input as HTMLInputElement).labels?.[0]?.textContent ?? input.id} at ${window.innerWidth} px`,
    );
  try {
    await expect.poll(() => field.isChecked(), { timeout: 2_000 }).toBe(checked);
  } catch {
    expect.fail(`${await name()} is not ${checked ? 'checked' : 'unchecked'} after a click`);
  }
}

/**
 * Clicks each visible field under `root` with the mouse: a text field, number or select takes the
 * focus; a checkbox flips, and a second click puts it back; a radio is chosen.
 */
async function clickEachField(page: Page, root: Locator): Promise<void> {
  for (const field of await visibleControls(root, 'input, select, textarea')) {
    // What the last click asked the worker for may move the fields once it arrives.
    if ((inFlight.get(page)?.size ?? 0) > 0) await settled(page, root);
    const before = await mouseClickField(page, field);
    if (before.type === 'checkbox' || before.type === 'radio') {
      await expectChecked(field, before.type === 'radio' ? true : !before.checked);
      if (before.type === 'checkbox') {
        await mouseClickField(page, field);
        await expectChecked(field, before.checked);
      }
    } else {
      expect(await field.evaluate((element) => element === document.activeElement)).toBe(true);
      // A select's list, if the click opened one, closes without choosing.
      if (before.tagName === 'SELECT') await page.keyboard.press('Escape');
    }
  }
}

/**
 * Nothing under `root` covered at the window's width; in the clicked walk also at WIDE, the window
 * widened for the check and put back. What a click does once it lands does not depend on the
 * width (the comment at the top), so the state the clicks reached is the one to hit-test there.
 */
async function expectUncovered(root: Locator): Promise<void> {
  const page = root.page();
  const viewport = page.viewportSize();
  if (!viewport) throw new Error('a page without a viewport');
  expect(await coveredControls(root), `at ${viewport.width} px`).toEqual([]);
  if (viewport.width !== CLICKED_WIDTH) return;
  await page.setViewportSize({ ...viewport, width: WIDE });
  expect(await coveredControls(root), `at ${WIDE} px`).toEqual([]);
  await page.setViewportSize(viewport);
}

/** Nothing under `root` covered; at the clicked width, each of its fields clicked too. */
async function proveState(page: Page, root: Locator, depth: Depth): Promise<void> {
  await expectUncovered(root);
  if (depth === 'click every field') await clickEachField(page, root);
}

/**
 * "Discard edits" by mouse, when the draft has any: the draft is the live config again. From
 * another page the notice's "Review and publish them" leads to the publish page, where the button
 * is; `back` names the page to go back to then.
 */
async function discardEdits(page: Page, back?: ConsoleAreaTitle): Promise<void> {
  if (!(await editArea(page).isVisible())) {
    const review = page.getByRole('link', { name: 'Review and publish them' });
    if (!(await review.isVisible())) return;
    await press(page, review);
    await editArea(page).waitFor();
  }
  const discard = page.getByRole('button', { name: 'Discard edits' });
  if (await discard.isVisible()) {
    await press(page, discard);
    await discard.waitFor({ state: 'detached' });
  }
  if (back) await goTo(page, back);
}

const experimentsArea = (page: Page) => page.getByRole('region', { name: 'Experiments' });

/**
 * Every action of every experiment card on the experiments' page, by mouse: a dialog opens
 * (nothing in it covered; at the clicked width each of its fields clicked) and Cancel closes it,
 * giving focus back to the card's button; Results opens that experiment's page at its results,
 * and "All experiments" leads back; Duplicate adds a draft copy. Then one dialog is confirmed:
 * the review it hands on to, on the publish page, has nothing covered, and back on the
 * experiments' page the card says what the draft now does to it.
 */
async function experimentCards(page: Page, depth: Depth): Promise<void> {
  const area = await goTo(page, 'Experiments');
  const buttons = await visibleControls(area.locator('.experiment-card'), 'button');
  expect(buttons.length).toBe(26);
  // Found again by id for each press: a page opened and left draws the cards anew.
  const actions = await Promise.all(
    buttons.map((button) =>
      button.evaluate((element) => ({
        label: element.textContent?.trim() ?? '',
        id: element.getAttribute('id') ?? '',
      })),
    ),
  );
  for (const { label, id } of actions) {
    await press(page, area.locator(`[id="${id}"]`));
    if (label.endsWith('…')) {
      const title = label.replace(/…$/, '').replace(/ with a decision$/, '');
      await page.getByRole('dialog', { name: new RegExp(`^${escaped(title)}\\??$`) }).waitFor();
      // The open one, found again without working out every element's accessible name.
      const dialog = page.locator('dialog[open]');
      await settled(page, dialog);
      await proveState(page, dialog, depth);
      await press(page, dialog.getByRole('button', { name: 'Cancel', exact: true }));
      await dialog.waitFor({ state: 'detached' });
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe(id);
    } else if (label.startsWith('Results of ')) {
      // The experiment's own page, its results' heading taking the focus.
      const experiment = id.replace(/^experiment-results:/, '');
      await expect.poll(() => pathOf(page)).toBe(consolePath('experiments', experiment));
      await area.getByRole('heading', { name: label }).waitFor();
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.id))
        .toBe('experiment-results-title');
      await allExperiments(page);
    } else if (label.startsWith('Duplicate ')) {
      await duplicated(page, label.replace(/^Duplicate /, '').replace(/ for a follow-up$/, ''));
    } else {
      throw new Error(`an action this test does not know: ${label}`);
    }
  }
  await pauseByMouse(page);
}

/** From an experiment's page, its "All experiments" link back to the experiments' page. */
async function allExperiments(page: Page): Promise<void> {
  await press(page, experimentsArea(page).getByRole('link', { name: 'All experiments' }));
  await expect.poll(() => pathOf(page)).toBe(consolePath('experiments'));
  await experimentsArea(page).getByRole('form', { name: 'Create an experiment' }).waitFor();
}

/** Duplicate has added a draft copy of `name` and said so; the edit is discarded. */
async function duplicated(page: Page, name: string): Promise<void> {
  const area = experimentsArea(page);
  await area
    .getByRole('article', { name: new RegExp(`^${escaped(name)} \\(follow-up\\)`) })
    .waitFor();
  await area
    .getByRole('status')
    .getByText(new RegExp(`^Duplicated ${escaped(name.toLowerCase().replace(' ', '-'))}`))
    .waitFor();
  await discardEdits(page, 'Experiments');
}

/** Pausing by mouse: the card stays among the running, saying what the draft does. */
async function pauseByMouse(page: Page): Promise<void> {
  const card = experimentsArea(page).getByRole('article', { name: /^Price US/ });
  await press(page, card.getByRole('button', { name: 'Pause Price US…' }));
  const pause = page.getByRole('dialog', { name: 'Pause Price US?' });
  await press(page, pause.getByRole('button', { name: 'Pause Price US', exact: true }));
  // The dialog hands on to the review on the publish page, whose publish note takes the focus.
  await expect.poll(() => pathOf(page)).toBe(consolePath('publish'));
  await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('publish-note');
  await expectUncovered(editArea(page));
  await goTo(page, 'Experiments');
  await card
    .getByText('Your draft pauses it when you publish; until then it is running.')
    .waitFor();
  await discardEdits(page, 'Experiments');
  expect(await card.getByText(/^Your draft/).count()).toBe(0);
}

/**
 * The results of one experiment, on its page: its controls, and (at the clicked width) its CSV
 * downloaded; then back to all experiments.
 */
async function experimentResults(page: Page, depth: Depth): Promise<void> {
  const area = experimentsArea(page);
  await press(page, area.getByRole('button', { name: 'Results of Price US' }));
  const results = area.locator('.experiment-results');
  await results.getByRole('heading', { name: 'Results of Price US' }).waitFor();
  await settled(page, results);
  await proveState(page, results, depth);
  if (depth === 'click every field') {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      press(page, results.getByRole('link', { name: 'Download as CSV' })),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
  }
  await allExperiments(page);
}

/**
 * The create form with a variant added, then removed; at the clicked width each field clicked,
 * the planned sample taken from the calculator, and a draft experiment created (then discarded).
 */
async function createForm(page: Page, depth: Depth): Promise<void> {
  const form = experimentsArea(page).getByRole('form', { name: 'Create an experiment' });
  await proveState(page, form, depth);
  await press(page, form.getByRole('button', { name: 'Add a variant' }));
  const removeC = form.getByRole('button', { name: 'Remove variant c' });
  await removeC.waitFor();
  await expectUncovered(form);
  await press(page, removeC);
  await removeC.waitFor({ state: 'detached' });
  if (depth === 'hit-test') return;
  const plan = form.getByRole('button', { name: /^Plan for [\d,]+ per variant$/ });
  const planned = ((await plan.textContent()) ?? '').replace(/\D/g, '');
  await press(page, plan);
  expect(await form.getByLabel('Planned visitors per variant').inputValue()).toBe(planned);
  await press(page, form.getByLabel('Experiment name'));
  await page.keyboard.type('Price by mouse');
  await press(page, form.getByRole('checkbox', { name: /^monthly_5d_intro:/ }));
  await press(page, form.getByRole('button', { name: 'Create draft experiment' }));
  await experimentsArea(page)
    .getByRole('list', { name: /^Not started/ })
    .getByRole('article', { name: /^Price by mouse/ })
    .waitFor();
  await discardEdits(page);
}

const trafficArea = (page: Page) => page.getByRole('region', { name: 'Traffic' });

/**
 * Traffic: each route's plan boxes opened, then nothing covered (at the clicked width each field
 * of the routes and audiences clicked, and the routes reordered); the audience editor's states; a
 * TikTok visitor tested.
 */
async function traffic(page: Page, depth: Depth): Promise<void> {
  // Aimed at once its lines have arrived: each route's "what its visitors get" grows as it does.
  await settled(page, await goTo(page, 'Traffic'));
  const openers = trafficArea(page).getByRole('button', { name: /^Choose plans of route / });
  for (const opener of await openers.all()) {
    await press(page, opener);
    await expect.poll(() => opener.getAttribute('aria-expanded')).toBe('true');
  }
  await proveState(page, trafficArea(page), depth);
  if (depth === 'click every field') await routeOrder(page);
  await audienceEditor(page);
  await routeTest(page, depth);
}

/** A route moved down and back up, removed and added, by mouse; discarding puts it all back. */
async function routeOrder(page: Page): Promise<void> {
  const area = trafficArea(page);
  const routes = area.getByRole('list', { name: 'Routes in the draft, in order' });
  const order = async () =>
    (await routes.getByRole('heading', { level: 4 }).allTextContents()).map((title) =>
      title.replace(/^\d+\. Route (\S+).*$/, '$1'),
    );
  expect(await order()).toEqual(['tiktok', 'meta', 'default']);
  await press(page, area.getByRole('button', { name: 'Move route tiktok down' }));
  await expect.poll(order).toEqual(['meta', 'tiktok', 'default']);
  await press(page, area.getByRole('button', { name: 'Move route tiktok up' }));
  await expect.poll(order).toEqual(['tiktok', 'meta', 'default']);
  await press(page, area.getByRole('button', { name: 'Remove route meta' }));
  await expect.poll(order).toEqual(['tiktok', 'default']);
  await press(page, area.getByLabel('Route name'));
  await page.keyboard.type('google');
  await press(page, area.getByRole('button', { name: 'Add route' }));
  await expect.poll(order).toEqual(['tiktok', 'google', 'default']);
  await discardEdits(page, 'Traffic');
  await expect.poll(order).toEqual(['tiktok', 'meta', 'default']);
}

/**
 * The audience editor by mouse: a condition added and removed, a value added, a second group,
 * a nameless audience refused, a saved one edited and cancelled; nothing covered in its states.
 */
async function audienceEditor(page: Page): Promise<void> {
  const area = trafficArea(page);
  await press(page, area.getByRole('button', { name: 'Add a condition' }));
  await press(page, area.getByRole('button', { name: 'Remove condition 2' }));
  await area.getByLabel('Attribute of condition 2').waitFor({ state: 'detached' });
  await press(page, area.getByRole('button', { name: 'Add value to condition 1' }));
  await area.getByRole('list', { name: 'Values of condition 1' }).getByText('meta').waitFor();
  await press(page, area.getByRole('button', { name: 'Add another group (or)' }));
  await area.getByRole('button', { name: 'Remove condition 1 of group 2' }).waitFor();
  await press(page, area.getByRole('button', { name: 'Save audience' }));
  await area.locator('.add-form [role="alert"]').waitFor();
  await expectUncovered(area);
  await press(page, area.getByRole('button', { name: 'Edit the audience meta_ads' }));
  expect(await area.getByLabel('Audience name').inputValue()).toBe('meta_ads');
  await expectUncovered(area);
  await press(page, area.getByRole('button', { name: 'Cancel', exact: true }));
  expect(await area.getByLabel('Audience name').inputValue()).toBe('');
}

/** A TikTok visitor tested: the answer has nothing covered; its preview opens in a new tab. */
async function routeTest(page: Page, depth: Depth): Promise<void> {
  const area = trafficArea(page);
  await press(page, area.getByLabel('Ad link'));
  await page.keyboard.type('https://funnel.example/?utm_source=tiktok&ttclid=E.C.P.x1');
  await press(page, area.getByRole('button', { name: 'Test visitor' }));
  const answer = area.locator('.route-test__answer');
  await answer
    .getByText(/tiktok/)
    .first()
    .waitFor();
  await expectUncovered(answer);
  if (depth === 'click every field') {
    const [preview] = await Promise.all([
      page.waitForEvent('popup'),
      press(page, answer.getByRole('link').first()),
    ]);
    await preview.getByRole('complementary', { name: 'Preview' }).waitFor();
    await preview.close();
  }
  await discardEdits(page);
}

const editArea = (page: Page) => page.getByRole('region', { name: 'Edit and publish' });

/**
 * Edit and publish: nothing covered (at the clicked width each field clicked), a flow's screens
 * opened (and at the clicked width one moved), a variant paused, then a weight changed, reviewed
 * and published by mouse.
 */
async function editAndPublish(page: Page, depth: Depth, weight: number): Promise<void> {
  const area = await goTo(page, 'Edit and publish');
  await proveState(page, area, depth);
  const flow = area.locator('details', { has: page.locator('summary', { hasText: /^Flow lp17/ }) });
  await press(page, flow.locator('summary'));
  await expect
    .poll(() => flow.evaluate((details) => (details as HTMLDetailsElement).open))
    .toBe(true);
  await expectUncovered(flow);
  if (depth === 'click every field') {
    const screens = () => flow.locator('.screen-list .chip').allTextContents();
    const [first, second] = await screens();
    const firstScreen = first?.replace(/^1\. /, '') ?? '';
    await press(
      page,
      flow.getByRole('button', { name: `Move ${firstScreen} down in lp17ch17pr5` }),
    );
    await expect.poll(async () => (await screens())[0]).toBe(second?.replace(/^2\./, '1.'));
  }
  await press(page, flow.locator('summary'));
  await press(page, area.getByRole('button', { name: 'Pause default' }));
  await area.getByRole('button', { name: 'Resume default' }).waitFor();
  await discardEdits(page);

  await publishWeight(page, weight);
}

/**
 * A new weight for variant default, reviewed (nothing in the review covered) and published by
 * mouse: a version in the history.
 */
async function publishWeight(page: Page, weight: number): Promise<void> {
  const area = editArea(page);
  await press(page, area.getByLabel('Weight of default'));
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(String(weight));
  await press(page, area.getByRole('button', { name: 'Review changes' }));
  const note = area.getByLabel('Note (optional)');
  await note.waitFor();
  await expectUncovered(area);
  await press(page, note);
  await page.keyboard.type(`default at ${weight}`);
  await press(page, area.getByRole('button', { name: 'Publish', exact: true }));
  await page.locator('#edit-status', { hasText: /^Published / }).waitFor();
}

/** History: the rollback asks to confirm, and Cancel puts its button back. */
async function history(page: Page, depth: Depth): Promise<void> {
  const area = await goTo(page, 'History');
  const rollBack = area.getByRole('button', { name: /^Roll back to / }).first();
  await rollBack.waitFor();
  await expectUncovered(area);
  await press(page, rollBack);
  const confirm = area.locator('form.confirm');
  await confirm.waitFor();
  await proveState(page, confirm, depth);
  await press(page, confirm.getByRole('button', { name: 'Cancel', exact: true }));
  await confirm.waitFor({ state: 'detached' });
  expect(await isFocused(rollBack)).toBe(true);
}

/**
 * Results of the split: the phase picked and shown; at the clicked width the CSV downloaded and
 * the overview's preview opened.
 */
async function resultsAndOverview(page: Page, depth: Depth): Promise<void> {
  const results = await goTo(page, 'Results');
  await proveState(page, results, depth);
  await press(page, results.getByRole('button', { name: 'Show' }));
  await results
    .getByRole('status')
    .getByText(/^Showing phase \d+\.$/)
    .waitFor();
  await results.locator('[aria-busy]').waitFor({ state: 'detached' });
  await expectUncovered(results);
  if (depth === 'hit-test') return;
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    press(page, results.getByRole('link', { name: /^Download CSV of phase/ })),
  ]);
  expect(download.suggestedFilename()).toMatch(/\.csv$/);

  const overview = await goTo(page, 'Overview');
  // Each variant's card says what its visitors get once the worker answers, and grows by a line
  // then: the link is aimed at where it stays.
  await settled(page, overview);
  const [preview] = await Promise.all([
    page.waitForEvent('popup'),
    press(page, overview.getByRole('link', { name: /^Preview default/ })),
  ]);
  await preview.getByRole('complementary', { name: 'Preview' }).waitFor();
  await preview.close();
}

/** Each area's title, by the address of its page. */
const TITLE_AT = new Map<string, string>(
  Object.entries(CONSOLE_AREAS).map(([area, { title }]) => [
    consolePath(area as ConsoleArea),
    title,
  ]),
);

/**
 * Each link of the header pressed in turn: its area's page is shown at its address, the link
 * marked as the current page and the page's heading focused; then `atRest` checks the page.
 */
async function eachPage(page: Page, atRest: (title: string) => Promise<void>): Promise<void> {
  const links = await sections(page).getByRole('link').all();
  expect(links.length).toBe(TITLE_AT.size);
  for (const link of links) {
    const target = (await link.getAttribute('href')) ?? '';
    const title = TITLE_AT.get(target) ?? `no area at ${target}`;
    await press(page, link);
    await expect.poll(() => pathOf(page)).toBe(target);
    expect(await link.getAttribute('aria-current')).toBe('page');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.matches('.console-main h2') ?? false))
      .toBe(true);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(title);
    await atRest(title);
  }
}

/**
 * The whole console at `width`, each area's page at rest and in each state the walk reaches,
 * from the header's links down to the history; `weight` is the one this width publishes.
 */
async function walkAt(page: Page, width: number, depth: Depth, weight: number): Promise<void> {
  await page.setViewportSize({ width, height: 800 });
  await eachPage(page, () => expectUncovered(page.locator('body')));
  await experimentCards(page, depth);
  await experimentResults(page, depth);
  await createForm(page, depth);
  await traffic(page, depth);
  await resultsAndOverview(page, depth);
  await editAndPublish(page, depth, weight);
  await history(page, depth);
  await expectUncovered(page.locator('body'));
}

/** The console with the file's first version published: a visitor with a mouse, or a phone's with a finger. */
async function consoleWithHistory(pointer: 'mouse' | 'finger', width: number) {
  const viewport = { width, height: 800 };
  const { context, page, problems } =
    pointer === 'mouse' ? await session.newVisitor({ viewport }) : await fingerVisitor(viewport);
  page.setDefaultTimeout(PATIENCE_MS);
  countRequests(page);
  await openConsole(page);
  return { context, page, problems };
}

/** A phone's browser: touch, no mouse, the page laid out for the device's width. */
async function fingerVisitor(viewport: { width: number; height: number }) {
  const context = await session.browser.newContext({
    baseURL: session.worker.url.href,
    viewport,
    hasTouch: true,
    isMobile: true,
  });
  const page = await context.newPage();
  pressWithFinger(page);
  return { context, page, ...watchPage(page) };
}

/** The decision dialog checks each decision it could offer; the refused ones answer 400. */
const unexpected = (problems: string[]) =>
  problems.filter((problem) => !/^400 .*\/console\/api\/check$/.test(problem));

describe('the console by mouse and by touch in Chromium', () => {
  // slow: some four hundred clicks, each rendering the console again and checked for its effect
  it(`clicks every field and action of every card, dialog and area at ${CLICKED_WIDTH} px, each state uncovered at ${CLICKED_WIDTH} and ${WIDE} px`, {
    // Slow by nature, 43 to 114 s alone on two cores shared with other runs: some four hundred
    // clicks, each rendering the console again and checked for its effect.
    timeout: 300_000,
  }, async () => {
    const { context, page, problems } = await consoleWithHistory('mouse', CLICKED_WIDTH);
    // The experiments grouped by status, each group a list named by its heading.
    await goTo(page, 'Experiments');
    await experimentsArea(page).getByRole('form', { name: 'Create an experiment' }).waitFor();
    expect(seriousViolations(await runAxe(page, { context: '#experiments' }))).toEqual([]);
    await walkAt(page, CLICKED_WIDTH, 'click every field', 41);
    // Between them, where the cards' grid has other column counts: nothing covered on any page
    // at rest; and at 1280, a laptop's display, no page longer than a few screens.
    await eachPage(page, async (title) => {
      for (const width of [1280, 1400]) {
        await page.setViewportSize({ width, height: 800 });
        expect(await coveredControls(page.locator('body')), `${title} at ${width} px`).toEqual([]);
        if (width === 1280) {
          const height = await page.evaluate(() => document.documentElement.scrollHeight);
          expect(height, `${title} at 1280 px`).toBeLessThanOrEqual(MOST_PAGE_HEIGHT);
        }
      }
      await page.setViewportSize({ width: CLICKED_WIDTH, height: 800 });
    });
    expect(unexpected(problems)).toEqual([]);
    await context.close();
  });

  // slow: every state of the console reached by finger and each control hit-tested
  it(`reaches every state with a finger on a ${PHONE} px phone, tapping every card action, with no control covered`, {
    // 38 s in an idle full run; past 120 s with a second npm test on the same two cores.
    timeout: 300_000,
  }, async () => {
    const { context, page, problems } = await consoleWithHistory('finger', PHONE);
    await walkAt(page, PHONE, 'hit-test', 42);
    expect(unexpected(problems)).toEqual([]);
    await context.close();
  });
});
