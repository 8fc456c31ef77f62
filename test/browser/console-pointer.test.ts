import type { Locator, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import { WALKED_EXPERIMENTS, WALKED_ROUTING } from '../fixtures/console-walk';
import { runAxe, seriousViolations } from './a11y-checks';
import { type ConsoleAreaTitle, consoleFetch, pageTookFocus } from './console-steps';
import { type BrowserSession, startBrowserSession, watchPage } from './harness';
import { PATIENCE_MS } from './patience';
import { coveredControls, press, pressWithFinger, visibleControls } from './pointer-checks';

/**
 * The console by mouse and by finger, in Chromium against the built worker: every state a marketer
 * reaches is reachable by a real pointer, at a phone's and a laptop's widths. The console is a
 * page per area (shared/console-api/pages.ts), walked page by page through the links in its header
 * and the links its pages show (an experiment's results, "All experiments", the draft's "Review
 * and publish them"), each pressed by the mouse where a person aims. The walk opens each state
 * once: each area's page at rest, each experiment card's dialogs (a dialog another card of the
 * same status draws alike once, see experimentCards), each experiment's own page, the create form
 * with a variant added, the traffic editors (plan boxes open, the audience editor's states, a
 * visitor tested), the results of a phase picked, the edit page with a flow open and a variant
 * paused, a weight reviewed and published, the history's rollback asked. In every state nothing
 * covers any control, the header's links among them: at each control's middle, where the mouse and
 * the finger aim, the browser hits the control itself, with the window at a 360 px phone's width,
 * a small laptop's 1024 px and a laptop display's 1280 px in turn (the walk starts at 1024 and
 * goes on at the width the last check left); a dialog at 1024 and 360 px. A phone's browser
 * (touch, laid out for the device) then taps a header link to another page, opens and cancels a
 * dialog and opens an experiment's page: a smoke of touch, as every page, dialog and experiment's
 * page the mouse walk opens is hit-tested at 360 px there, the console's page is laid out at the device's
 * width (`width=device-width`, worker/console/page.ts) and nothing in console/ handles touch or
 * pointer events or reads a hover or pointer media query.
 *
 * Why these widths: the console's CSS (console/page/console.css) changes its layout only at 720,
 * 900 and 1100 px, so 360 px is below them all, 1024 px between the last two and 1280 px above
 * them all. From 1040 px up the header's and the page's boxes (`.console-header__inner`,
 * `.console-main`) stay 1040 px wide and are centred: a wider window moves every control sideways
 * and changes nothing else (measured at 1400 and 1920 px: every box the same, relative to the
 * page). Nothing is fixed to the window: the only sticky boxes are a wide table's caption, sticky
 * within its own scrolling box, and the content editor's preview, 8 px from the window's top at
 * every width from 1100 px. The experiment cards' grid (`minmax(300px, 1fr)` in at most 1008 px)
 * has three columns at 1024 px and at every width above. A dialog (`showModal`, at most
 * `min(640px, 100vw - 32px)` wide) is the same 640 px box, centred, at every width from 1024 px.
 *
 * Why one walk checks every width: whether a press lands depends on the window's width, and on
 * nothing else a state holds; narrowing the window re-lays the state out as a phone shows it (the
 * console has no touch- or hover-only controls and reads no pointer media query), at some 0.1
 * processor-seconds a width (a resize and a hit test) against about 1 for a state walked again.
 * What a press does once it lands (a field takes the focus, a checkbox flips, a route moves, a
 * draft is created, a CSV is downloaded, a preview opens) is the console's logic, proved in
 * happy-dom: every field of these states in test/unit/console/every-field-ui.test.tsx, the rest in
 * the areas' own -ui tests.
 */

let session: BrowserSession;

/** The width the walk starts at: a small laptop's window. */
const WALKED = 1024;

/** The window's height at every width: a laptop's, and a phone's held upright. */
const HEIGHT = 800;

/** A phone, where each state is hit-tested whole, and where a phone's browser taps. */
const PHONE = 360;

/**
 * A laptop's display, where the marketers' guides are walked (console-by-mouse.test.ts): above
 * every width the console's layout changes at, so it stands for every wider window too.
 */
const LAPTOP = 1280;

/** The widths each state the walk opens is hit-tested at, its own first. */
const STATE_WIDTHS = [WALKED, PHONE, LAPTOP];

/** A dialog's widths: from 1024 px up it is the same box, centred (the comment at the top). */
const DIALOG_WIDTHS = [WALKED, PHONE];

/** The longest a console page may be at 1280 px: a few screens, not the one page of old. */
const MOST_PAGE_HEIGHT = 6_000;

beforeAll(async () => {
  session = await startBrowserSession();
  await session.worker.putConfig('experiments', WALKED_EXPERIMENTS);
  await session.worker.putConfig('routing', WALKED_ROUTING);
  // A first version published, so the history can roll back: by the console's API, once for
  // the file (the walk publishes one of its own by mouse, see publishWeight).
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

/** Each page's requests asked and not yet answered, and how many were asked or answered. */
const requests = new WeakMap<Page, { open: Set<unknown>; seen: number }>();

function countRequests(page: Page): void {
  const counted = { open: new Set<unknown>(), seen: 0 };
  requests.set(page, counted);
  page.on('request', (request) => {
    counted.open.add(request);
    counted.seen++;
  });
  const answered = (request: Request) => {
    counted.open.delete(request);
    counted.seen++;
  };
  page.on('requestfinished', answered);
  page.on('requestfailed', answered);
}

/** How long `root` must go unchanged to be taken as drawn: three frames' worth, and more. */
const QUIET_MS = 150;

/**
 * Waits until what a dialog reads from the worker has arrived and `root` stops changing, so a
 * control is not aimed at a place the arriving text then moves: no request open, and none asked
 * or answered, while `root` went QUIET_MS without a change (watched in the page, where reading
 * `root` whole again and again would cost the test a round trip each time).
 */
async function settled(page: Page, root: Locator): Promise<void> {
  const counted = requests.get(page);
  await expect
    .poll(async () => {
      const before = counted?.seen;
      await root.evaluate(
        (element, quiet) =>
          new Promise<void>((resolve) => {
            let timer = setTimeout(() => {
              observer.disconnect();
              resolve();
            }, quiet);
            const observer = new MutationObserver(() => {
              clearTimeout(timer);
              timer = setTimeout(() => {
                observer.disconnect();
                resolve();
              }, quiet);
            });
            observer.observe(element, {
              subtree: true,
              childList: true,
              attributes: true,
              characterData: true,
            });
          }),
        QUIET_MS,
      );
      return counted?.open.size === 0 && counted.seen === before;
    })
    .toBe(true);
}

const isFocused = (control: Locator) =>
  control.evaluate((element) => element === document.activeElement);

/**
 * Nothing under `root` covered at each of `widths`: at the window's width first, if among them,
 * then the window resized to each of the others in turn and left at the last, where the walk
 * goes on (a press lands as well at any width, and a resize back would cost what a check does).
 * What a press does once it lands does not depend on the width (the comment at the top), so the
 * state the walk reached is the one to hit-test there. `atWidth` reads more of the state at a
 * width, once nothing is covered there.
 */
async function expectUncovered(
  root: Locator,
  widths = STATE_WIDTHS,
  atWidth?: (width: number) => Promise<void>,
): Promise<void> {
  const page = root.page();
  const now = page.viewportSize()?.width;
  const order = [...widths].sort((a, b) => Number(b === now) - Number(a === now));
  for (const width of order) {
    if (width !== page.viewportSize()?.width) await page.setViewportSize({ width, height: HEIGHT });
    expect(await coveredControls(root), `at ${width} px`).toEqual([]);
    await atWidth?.(width);
  }
}

/**
 * "Discard edits" by mouse, when the draft has any: the draft is the live config again. From
 * another page the notice's "Review and publish them" leads to the publish page, where the button
 * is; `back` names the page to go back to then. Each state it presses in is hit-tested first.
 */
async function discardEdits(page: Page, back?: ConsoleAreaTitle): Promise<void> {
  if (!(await editArea(page).isVisible())) {
    const review = page.getByRole('link', { name: 'Review and publish them' });
    if (!(await review.isVisible())) return;
    await expectUncovered(page.locator('body'));
    await press(page, review);
    await editArea(page).waitFor();
  }
  const discard = page.getByRole('button', { name: 'Discard edits' });
  if (await discard.isVisible()) {
    await expectUncovered(editArea(page));
    await press(page, discard);
    await discard.waitFor({ state: 'detached' });
  }
  if (back) await goTo(page, back);
}

const experimentsArea = (page: Page) => page.getByRole('region', { name: 'Experiments' });

/**
 * The actions of the experiment cards on the experiments' page, by mouse: a dialog opens
 * (nothing in it covered) and Cancel closes it, giving focus back to the card's button; Results
 * opens that experiment's page at its results (nothing covered), and "All experiments" leads
 * back. Every card's button is there (26), each hit-tested with the page at rest (pageAtRest).
 * A dialog is opened once per action and status: another card of that status draws the same
 * dialog with another name in it (an edit's fields, a status change's sentences and a delete's
 * depend on the action and the experiment's status only, console/experiments/), so its
 * repeats are left out; each End dialog is opened, as it draws that experiment's own results and
 * the decisions they allow, and so is each experiment's page. Every field of every dialog
 * answering a click is happy-dom's (every-field-ui.test.tsx), and Duplicate's draft copy
 * (experiments-ui.test.tsx). Then one dialog is confirmed: the review it hands on to, on the
 * publish page, has nothing covered, and back on the experiments' page the card says what the
 * draft now does.
 */
async function experimentCards(page: Page): Promise<void> {
  const area = await goTo(page, 'Experiments');
  const buttons = await visibleControls(area.locator('.experiment-card'), 'button');
  expect(buttons.length).toBe(26);
  // Found again by id for each press: a page opened and left draws the cards anew.
  const actions = await Promise.all(
    buttons.map((button) =>
      button.evaluate((element) => ({
        label: element.textContent?.trim() ?? '',
        id: element.getAttribute('id') ?? '',
        status: element.closest('.experiment-card')?.querySelector('.badge')?.className ?? '',
      })),
    ),
  );
  const dialogs = new Set<string>();
  let walked = 0;
  for (const { label, id, status } of actions) {
    if (label.startsWith('Duplicate ')) continue;
    const kind = `${label.split(' ')[0]} ${status}`;
    if (label.endsWith('…') && !label.startsWith('End ')) {
      if (dialogs.has(kind)) continue;
      dialogs.add(kind);
    }
    walked++;
    await press(page, area.locator(`[id="${id}"]`));
    if (label.endsWith('…')) {
      const title = label.replace(/…$/, '').replace(/ with a decision$/, '');
      await page.getByRole('dialog', { name: new RegExp(`^${escaped(title)}\\??$`) }).waitFor();
      // The open one, found again without working out every element's accessible name.
      const dialog = page.locator('dialog[open]');
      await settled(page, dialog);
      await expectUncovered(dialog, DIALOG_WIDTHS);
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
      await settled(page, area);
      await expectUncovered(area);
      await allExperiments(page);
    } else {
      throw new Error(`an action this test does not know: ${label}`);
    }
  }
  // 15 of the 18 dialogs (Landing AI's Edit, Pause and Stop draw Price US's, both running) and
  // the 5 experiments' pages.
  expect(walked).toBe(20);
  await pauseByMouse(page);
}

/** From an experiment's page, its "All experiments" link back to the experiments' page. */
async function allExperiments(page: Page): Promise<void> {
  await press(page, experimentsArea(page).getByRole('link', { name: 'All experiments' }));
  await expect.poll(() => pathOf(page)).toBe(consolePath('experiments'));
  await experimentsArea(page).getByRole('form', { name: 'Create an experiment' }).waitFor();
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

/** The create form with a variant added, then removed: nothing covered either way. */
async function createForm(page: Page): Promise<void> {
  const form = experimentsArea(page).getByRole('form', { name: 'Create an experiment' });
  await expectUncovered(form);
  await press(page, form.getByRole('button', { name: 'Add a variant' }));
  const removeC = form.getByRole('button', { name: 'Remove variant c' });
  await removeC.waitFor();
  await expectUncovered(form);
  await press(page, removeC);
  await removeC.waitFor({ state: 'detached' });
}

const trafficArea = (page: Page) => page.getByRole('region', { name: 'Traffic' });

/**
 * Traffic: each route's plan boxes opened, then nothing covered; the audience editor's states; a
 * TikTok visitor tested.
 */
async function traffic(page: Page): Promise<void> {
  // Aimed at once its lines have arrived: each route's "what its visitors get" grows as it does.
  await settled(page, await goTo(page, 'Traffic'));
  const openers = trafficArea(page).getByRole('button', { name: /^Choose plans of route / });
  for (const opener of await openers.all()) {
    await press(page, opener);
    await expect.poll(() => opener.getAttribute('aria-expanded')).toBe('true');
  }
  await expectUncovered(trafficArea(page));
  await audienceEditor(page);
  await routeTest(page);
}

/**
 * The audience editor by mouse: a condition added and removed, a value added, a second group,
 * a nameless audience refused, a saved one edited and cancelled; nothing covered in its states.
 */
async function audienceEditor(page: Page): Promise<void> {
  const area = trafficArea(page);
  const form = area.getByRole('form', { name: 'New audience' });
  await press(page, area.getByRole('button', { name: 'Add a condition' }));
  await area.getByLabel('Attribute of condition 2').waitFor();
  await expectUncovered(form);
  await press(page, area.getByRole('button', { name: 'Remove condition 2' }));
  await area.getByLabel('Attribute of condition 2').waitFor({ state: 'detached' });
  await press(page, area.getByRole('button', { name: 'Add value to condition 1' }));
  await area.getByRole('list', { name: 'Values of condition 1' }).getByText('meta').waitFor();
  await expectUncovered(form);
  await press(page, area.getByRole('button', { name: 'Add another group (or)' }));
  await area.getByRole('button', { name: 'Remove condition 1 of group 2' }).waitFor();
  await expectUncovered(form);
  await press(page, area.getByRole('button', { name: 'Save audience' }));
  await area.locator('.add-form [role="alert"]').waitFor();
  await expectUncovered(area);
  await press(page, area.getByRole('button', { name: 'Edit the audience meta_ads' }));
  expect(await area.getByLabel('Audience name').inputValue()).toBe('meta_ads');
  await expectUncovered(area);
  await press(page, area.getByRole('button', { name: 'Cancel', exact: true }));
  expect(await area.getByLabel('Audience name').inputValue()).toBe('');
}

/** A TikTok visitor tested: the answer has nothing covered. */
async function routeTest(page: Page): Promise<void> {
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
  await discardEdits(page);
}

const editArea = (page: Page) => page.getByRole('region', { name: 'Edit and publish' });

/**
 * Edit and publish: nothing covered, a flow's screens opened, a variant paused, then a weight
 * changed, reviewed and published by mouse.
 */
async function editAndPublish(page: Page): Promise<void> {
  const area = await goTo(page, 'Edit and publish');
  await expectUncovered(area);
  const flow = area.locator('details', { has: page.locator('summary', { hasText: /^Flow lp17/ }) });
  await press(page, flow.locator('summary'));
  await expect
    .poll(() => flow.evaluate((details) => (details as HTMLDetailsElement).open))
    .toBe(true);
  await expectUncovered(flow);
  await press(page, flow.locator('summary'));
  await press(page, area.getByRole('button', { name: 'Pause default' }));
  await area.getByRole('button', { name: 'Resume default' }).waitFor();
  await discardEdits(page);

  await publishWeight(page);
}

/**
 * A new weight for variant default, reviewed (nothing in the review covered) and published by
 * mouse: a version in the history.
 */
async function publishWeight(page: Page): Promise<void> {
  const area = editArea(page);
  await press(page, area.getByLabel('Weight of default'));
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('41');
  await expectUncovered(area);
  await press(page, area.getByRole('button', { name: 'Review changes' }));
  const note = area.getByLabel('Note (optional)');
  await note.waitFor();
  await expectUncovered(area);
  await press(page, note);
  await page.keyboard.type('default at 41');
  await press(page, area.getByRole('button', { name: 'Publish', exact: true }));
  await page.locator('#edit-status', { hasText: /^Published / }).waitFor();
}

/** History: the rollback asks to confirm, and Cancel puts its button back. */
async function history(page: Page): Promise<void> {
  const area = await goTo(page, 'History');
  const rollBack = area.getByRole('button', { name: /^Roll back to / }).first();
  await rollBack.waitFor();
  await expectUncovered(area);
  await press(page, rollBack);
  const confirm = area.locator('form.confirm');
  await confirm.waitFor();
  await expectUncovered(confirm);
  await press(page, confirm.getByRole('button', { name: 'Cancel', exact: true }));
  await confirm.waitFor({ state: 'detached' });
  expect(await isFocused(rollBack)).toBe(true);
}

/** Results of the split: the phase picked and shown, nothing covered before or after. */
async function results(page: Page): Promise<void> {
  const area = await goTo(page, 'Results');
  await settled(page, area);
  await expectUncovered(area);
  await press(page, area.getByRole('button', { name: 'Show' }));
  await area
    .getByRole('status')
    .getByText(/^Showing phase \d+\.$/)
    .waitFor();
  await area.locator('[aria-busy]').waitFor({ state: 'detached' });
  await expectUncovered(area);
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
 * A page at rest: nothing covered at every width the walk checks; at a laptop's display, no
 * longer than a few screens.
 */
async function pageAtRest(page: Page, title: string): Promise<void> {
  await expectUncovered(page.locator('body'), STATE_WIDTHS, async (width) => {
    if (width !== LAPTOP) return;
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    expect(height, `${title} at ${LAPTOP} px`).toBeLessThanOrEqual(MOST_PAGE_HEIGHT);
  });
}

/** The console with the file's first version published, for a visitor by mouse or by finger. */
async function consoleWithHistory(pointer: 'mouse' | 'finger', width: number) {
  const viewport = { width, height: HEIGHT };
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
  // slow: some fifty states opened by mouse, each hit-tested whole at three widths (a dialog two)
  it(`opens every state by mouse, each uncovered at ${STATE_WIDTHS.join(', ')} px and each dialog at ${DIALOG_WIDTHS.join(' and ')} px`, {
    timeout: 300_000,
  }, async () => {
    const { context, page, problems } = await consoleWithHistory('mouse', WALKED);
    // The experiments grouped by status, each group a list named by its heading.
    await goTo(page, 'Experiments');
    await experimentsArea(page).getByRole('form', { name: 'Create an experiment' }).waitFor();
    expect(seriousViolations(await runAxe(page, { context: '#experiments' }))).toEqual([]);
    await eachPage(page, (title) => pageAtRest(page, title));
    await experimentCards(page);
    await createForm(page);
    await traffic(page);
    await results(page);
    await editAndPublish(page);
    await history(page);
    await expectUncovered(page.locator('body'));
    expect(unexpected(problems)).toEqual([]);
    await context.close();
  });

  it(`opens a page, a dialog and an experiment's page with a finger on a ${PHONE} px phone, with no control covered`, {
    timeout: 120_000,
  }, async () => {
    const { context, page, problems } = await consoleWithHistory('finger', PHONE);
    // From the Overview, the header's link to the experiments' page tapped.
    const area = await goTo(page, 'Experiments');
    await expect.poll(() => pathOf(page)).toBe(consolePath('experiments'));
    await expectUncovered(page.locator('body'), [PHONE]);
    const edit = area.getByRole('button', { name: 'Edit Price US…' });
    await press(page, edit);
    const dialog = page.getByRole('dialog', { name: 'Edit Price US' });
    await settled(page, dialog);
    await expectUncovered(dialog, [PHONE]);
    await press(page, dialog.getByRole('button', { name: 'Cancel', exact: true }));
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => isFocused(edit)).toBe(true);
    await press(page, area.getByRole('button', { name: 'Results of Price US' }));
    await area.getByRole('heading', { name: 'Results of Price US' }).waitFor();
    await settled(page, area);
    await expectUncovered(area, [PHONE]);
    await allExperiments(page);
    expect(unexpected(problems)).toEqual([]);
    await context.close();
  });
});
