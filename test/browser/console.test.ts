import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONSOLE_API,
  type ConfigDocument,
  type ConsoleState,
} from '../../shared/console-api/config';
import { CONSOLE_AREAS } from '../../shared/console-api/pages';
import { runAxe, seriousViolations } from './a11y-checks';
import { type ConsoleAreaTitle, consoleFetch, openArea } from './console-steps';
import { type BrowserSession, startBrowserSession } from './harness';
import { walkKeyboard } from './layout-checks';

/**
 * The marketers' console in Chromium against the built worker (development: open, with the
 * local author), for what only a real browser shows: axe and a keyboard walk over every area's
 * page (the publish page with a refusal shown, the History with a roll back's confirm step open;
 * axe leaves out the four pages another file runs it on, AXED_ELSEWHERE), and the pages a marketer works in on a 360 px phone staying inside the screen (the save offer
 * editor with its drawn preview and a refused name; the Copy area with a lost placeholder flagged,
 * checked by axe there too, and refused at its review; the publish page; the History with a
 * version's changes open).
 *
 * What the console does in each area and what the worker answers are proved where they are
 * cheaper: the Copy area's find, edit, preview, review, publish and keyboard roll back
 * (test/unit/console/copy-ui.test.tsx) against the worker's copy calls
 * (test/worker/console/copy.test.ts); a publish and a roll back by keyboard, weights refused
 * beside the weights, a publish refused from a stale base (test/unit/console/console-ui.test.tsx,
 * shared-draft-ui.test.tsx, test/worker/console/publish.test.ts, draft.test.ts); a fresh visitor
 * drawn by the published weights (publish.test.ts). A flow emptied of its screens is refused
 * beside the flow in happy-dom, against the worker's own validator (console-ui.test.tsx).
 */

let session: BrowserSession;

/** `document` with lp17 on its own flow at `lp17`, and default at `main`. */
function weighted(document: ConfigDocument, main: number, lp17: number): ConfigDocument {
  const { variants } = document.split;
  return {
    ...document,
    split: {
      ...document.split,
      variants: {
        ...variants,
        default: { ...variants.default, weight: main },
        lp17: { weight: lp17, flow: 'lp17ch17pr5' },
      },
    },
  };
}

beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(() => session?.stop());

/**
 * Two versions in the History, unless the worker has some: published through the worker's API as
 * the console sends them, so a roll back's confirm step has a version to open on.
 */
async function twoVersions(): Promise<void> {
  const { live, head } = await consoleFetch<ConsoleState>(session, CONSOLE_API.state);
  if (head) return;
  await consoleFetch(session, CONSOLE_API.publish, {
    base: null,
    document: weighted(live, 50, 50),
    note: 'lp17 joins',
  });
  await consoleFetch(session, CONSOLE_API.publish, {
    base: 1,
    document: weighted(live, 0, 100),
    note: 'all on lp17',
  });
}

/** The console, then the page of one of its areas (Edit and publish unless said) from its link. */
async function openConsole(page: Page, area: ConsoleAreaTitle = 'Edit and publish'): Promise<void> {
  await page.goto('/console');
  // Loaded, as a marketer sees it before reaching for the navigation: a page opened while the
  // live config is still loading on a busy machine may give up on the focus it waits to move.
  await page.getByRole('heading', { level: 2, name: 'Overview' }).waitFor();
  await openArea(page, area);
}

/**
 * The pages axe runs on in another file, in a state of theirs with more on it: this file's axe
 * would only say again what those do (the header and the draft's notice, the same on every page,
 * are axe-checked here on the other seven).
 */
const AXED_ELSEWHERE = new Set<ConsoleAreaTitle>([
  // The walk's six experiments at rest, console-pointer.test.ts; a decision recorded,
  // console-experiments.test.ts.
  'Experiments',
  // A route published and a visitor tested against it, console-traffic.test.ts.
  'Traffic',
  // Counted visitors and a purchase, the whole page, console-results.test.ts.
  'Results',
  // The whole page with a text open in place over the preview, every violation, not only the
  // serious ones, console-content.test.ts.
  'Content',
]);

/** How far the page scrolls sideways: 0 when it fits the screen's width. */
function sideways(page: Page): Promise<number> {
  return page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
}

/**
 * The console on a 360 px phone, from its navigation: the save offer editor with its drawn
 * preview and a refused name, the Copy area with a lost placeholder flagged (nothing axe calls
 * serious there) and refused at its review, the publish page, the History with a version's
 * changes open; each inside the screen, with no sideways scrolling.
 */
async function onAPhone(page: Page): Promise<void> {
  await openArea(page, 'Content');
  await page.getByLabel('Title in English (at most 500 characters)').first().fill('Before you go');
  await page
    .getByLabel('Text in English (at most 500 characters)')
    .first()
    .fill('We set the app up with you, free.');
  const name = page.getByLabel('Name a new offer variant');
  await name.fill('half_price');
  await page.getByRole('button', { name: 'Add offer variant' }).click();
  await name.fill('half_price');
  await page.getByRole('button', { name: 'Add offer variant' }).click();
  await page.getByText('"half_price" is already a variant.').waitFor();
  await page.getByTitle('Preview: the cancel confirm in English, geozilla, phone width').waitFor();
  expect(await sideways(page), 'the save offer editor at 360 px, a name refused').toBe(0);

  const copy = await openArea(page, 'Copy');
  await copy.getByLabel('Find a text').fill('every month. Cancel anytime');
  await copy
    .getByRole('button', { name: /plans\.catalogue\.monthly\.disclaimer/ })
    .first()
    .click();
  await copy.getByLabel('Spanish (es)').fill('Cada mes. Cancela cuando quieras.');
  await copy.getByText('lacks {{price}}').waitFor();
  expect(seriousViolations(await runAxe(page)), 'the Copy area at 360 px, a problem shown').toEqual(
    [],
  );
  await copy.getByRole('button', { name: /^Review copy changes/ }).click();
  const alert = copy.getByRole('alert');
  await alert.waitFor();
  expect(await alert.textContent(), 'the worker refuses the copy at review').toContain(
    'es.plans.catalogue.monthly.disclaimer: lacks {{price}}',
  );
  expect(await copy.getByRole('button', { name: 'Publish copy' }).count()).toBe(0);
  expect(await sideways(page), 'the Copy area at 360 px, its review refused').toBe(0);

  await openArea(page, 'Edit and publish');
  expect(await sideways(page), 'the publish page at 360 px').toBe(0);
  const history = await openArea(page, 'History');
  const live = history.getByRole('article').first();
  await live.getByText(/^Changes \(/).click();
  await live.getByRole('list', { name: /^Changes in / }).waitFor();
  expect(await sideways(page), 'the History at 360 px, a version’s changes open').toBe(0);
}

/**
 * The refusals this walk asks for: the review of a negative weight, the console's questions
 * asked with the draft that holds it, the copy's review of a lost placeholder.
 */
const askedFor = (problem: string) =>
  /^400 .*\/console\/api\/(check|visitor-gets|copy\/check)$/.test(problem);

describe('the marketers’ console in Chromium', () => {
  // slow: a keyboard walk through all the controls of each of the console's eleven pages, axe
  // on seven, then four of them again on a 360 px phone
  it('has no serious axe violation where no other file looks and a keyboard reaches every control on every page, refusals shown; four fit a 360 px phone', async () => {
    await twoVersions();
    const { context, page, problems } = await session.newVisitor({
      reducedMotion: 'reduce',
      viewport: { width: 1024, height: 768 },
    });
    /**
     * Once the page has what it reads drawn: axe (unless another file runs it there), the
     * heading levels and a keyboard walk.
     */
    const checkPage = async (area: ConsoleAreaTitle) => {
      await expect
        .poll(() => page.getByText(/^(Loading|Reading|Checking) [^…]*…$/).count())
        .toBe(0);
      if (!AXED_ELSEWHERE.has(area))
        expect(seriousViolations(await runAxe(page)), area).toEqual([]);
      const headings = await page.$$eval('h1, h2, h3, h4', (all) =>
        all.map((heading) => Number(heading.tagName.slice(1))),
      );
      expect(headings[0], area).toBe(1);
      expect(
        headings.every((level, i) => i === 0 || level <= (headings[i - 1] ?? 1) + 1),
        area,
      ).toBe(true);
      await page.locator('h1').click();
      const keyboard = await walkKeyboard(page);
      expect(keyboard.unreachable, area).toEqual([]);
      expect(keyboard.focusInvisible, area).toEqual([]);
    };
    // The publish page with a refusal shown, then the History with a roll back's confirm step
    // open, then every other page (each with the notice of the draft's edits).
    await openConsole(page);
    await page.getByLabel('Weight of default').fill('-1');
    await page.getByRole('button', { name: 'Review changes' }).click();
    await page.getByRole('alert').waitFor();
    await checkPage('Edit and publish');
    await openArea(page, 'History');
    await page
      .getByRole('button', { name: /^Roll back to / })
      .first()
      .click();
    await page.getByRole('button', { name: /^Confirm roll back to / }).waitFor();
    await checkPage('History');
    const others = Object.values(CONSOLE_AREAS)
      .map(({ title }) => title)
      .filter((title) => title !== 'Edit and publish' && title !== 'History');
    for (const area of others) {
      await openArea(page, area);
      await page.getByText('Your draft has edits that are not published yet.').waitFor();
      await checkPage(area);
    }

    // The same console, its window narrowed to a phone's.
    await page.setViewportSize({ width: 360, height: 740 });
    await onAPhone(page);
    expect(problems.filter((problem) => !askedFor(problem))).toEqual([]);
    await context.close();
  }, 300_000);
});
