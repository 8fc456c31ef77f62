// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { $draft } from '../../../console/kit/stores/draft';
import { openPage } from '../../../console/kit/stores/page';
import { loadConsole } from '../../../console/kit/stores/publishing';
import { CurrentPage } from '../../../console/page/Console';
import { CONSOLE_API, type ConsoleState } from '../../../shared/console-api/config';
import { CONSOLE_EXPERIMENTS_PATH } from '../../../shared/console-api/experiment-results';
import type { ConsoleArea } from '../../../shared/console-api/pages';
import { CONSOLE_RESULTS_PATH } from '../../../shared/console-api/results';
import type { VersionsAnswer } from '../../../shared/console-api/versions';
import { WALKED_EXPERIMENTS, WALKED_ROUTING } from '../../fixtures/console-walk';
import { renderAreas } from './areas';
import { priceResults } from './experiment-fixtures';
import { consoleState, resultsAnswer, visitorGetsAnswer } from './fixtures';

/**
 * Every field of every state the console's pointer walk opens (test/browser/console-pointer.test.ts:
 * each experiment card's dialogs, an experiment's results, the create form with a variant added,
 * the traffic editors with each route's plans open, the results, the edit page, the history's
 * rollback asked) does what a click on it says: a text field, number or select takes the focus,
 * a checkbox flips and a second click puts it back, a radio is chosen. The console's own logic, on
 * the walk's experiments and routes; that a pointer lands on each field at a phone's and a
 * desktop's width is the walk's, in Chromium.
 */

/** What is live: the walk's experiments and routes over the console's fixture config. */
function walkedState(): ConsoleState {
  const state = consoleState();
  return {
    ...state,
    live: { ...state.live, experiments: WALKED_EXPERIMENTS, routing: WALKED_ROUTING },
  };
}

const VERSIONS: VersionsAnswer = {
  versions: [
    { ...consoleState().head!, diff: [] },
    { ...consoleState().head!, seq: 1, id: 'v1', base: null, note: 'first', diff: [] },
  ],
};

/** The worker's /console/api, answering every read these states make and every check. */
function stubWorker() {
  const answers: Record<string, unknown> = {
    [CONSOLE_API.state]: walkedState(),
    [CONSOLE_API.versions]: VERSIONS,
    [CONSOLE_API.routeVisits]: { days: 7, visits: {}, total: 0, steps: {} },
    [CONSOLE_API.check]: { ok: true, diff: [], phase: null },
    [CONSOLE_RESULTS_PATH]: resultsAnswer(),
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const body = url.startsWith(CONSOLE_EXPERIMENTS_PATH)
        ? priceResults()
        : url === CONSOLE_API.visitorGets
          ? visitorGetsAnswer('default', ['one_pager'])
          : answers[url.replace(/\?.*$/, '')];
      return new Response(JSON.stringify(body ?? { ok: false, error: 'bad_request' }), {
        status: body === undefined ? 404 : 200,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
}

/** One area's page (or a thing's page in it) drawn as the console draws it, once the live config is in. */
async function openArea(area: ConsoleArea, title: string, id: string | null = null) {
  stubWorker();
  openPage(area, id);
  renderAreas((state) => <CurrentPage state={state} />);
  await act(loadConsole);
  return screen.findByRole('region', { name: title });
}

/** A field the walk's Chromium finds drawn: not hidden, nor in a closed disclosure. */
function shown(field: Element): boolean {
  if ((field as HTMLInputElement).type === 'hidden' || field.closest('[hidden]')) return false;
  const closed = field.closest('details:not([open])');
  return closed === null || closed.querySelector(':scope > summary')?.contains(field) === true;
}

/**
 * Clicks each field under `root` that is drawn: a text field, number or select takes the focus;
 * a checkbox flips, and a second click puts it back; a radio is chosen. Gives how many.
 */
async function clickEachField(
  root: HTMLElement,
  skip: (field: Element) => boolean = () => false,
): Promise<number> {
  const user = userEvent.setup({ skipHover: true });
  const fields = [...root.querySelectorAll('input, select, textarea')].filter(
    (field) => shown(field) && !skip(field),
  );
  for (const field of fields as HTMLInputElement[]) {
    const name = `${field.labels?.[0]?.textContent ?? field.id} (${field.type})`;
    expect(field.isConnected, `${name} is still drawn`).toBe(true);
    const checked = field.checked;
    if (field.type === 'checkbox') {
      // A click's whole sequence of pointer events matters only to focus: a box flips on the click.
      fireEvent.click(field);
      expect(field.checked, `${name} flips`).toBe(!checked);
      fireEvent.click(field);
      expect(field.checked, `${name} flips back`).toBe(checked);
    } else if (field.type === 'radio') {
      fireEvent.click(field);
      expect(field.checked, `${name} is chosen`).toBe(true);
    } else {
      await user.click(field);
      expect(document.activeElement, `${name} takes the focus`).toBe(field);
    }
  }
  return fields.length;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  openPage('overview');
  $draft.set(null);
});

describe('every field of the states the pointer walk opens', () => {
  // slow: eighteen dialogs and their fields, each click drawing the dialog again
  it('answers a click in each dialog of each experiment card', { timeout: 60_000 }, async () => {
    const area = await openArea('experiments', 'Experiments');
    const opened: string[] = [];
    for (const card of area.querySelectorAll('.experiment-card')) {
      const actions = within(card as HTMLElement)
        .getAllByRole('button')
        .filter((button) => button.textContent?.trim().endsWith('…'));
      for (const action of actions) {
        await userEvent.click(action);
        const dialog = await screen.findByRole('dialog');
        // What the dialog reads from the worker (a decision's checks, the results) is in.
        await waitFor(() => expect(dialog.querySelector('[aria-busy="true"]')).toBeNull());
        await clickEachField(dialog);
        await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
        await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
        opened.push(action.textContent?.trim() ?? '');
      }
    }
    // The walk's 26 card buttons, less the 5 Results and 3 Duplicate that open no dialog.
    expect(area.querySelectorAll('.experiment-card button')).toHaveLength(26);
    expect(opened).toHaveLength(18);
  });

  it('answers a click in the create form and on an experiment’s results page', async () => {
    const area = await openArea('experiments', 'Experiments');
    const form = within(area).getByRole('form', { name: 'Create an experiment' });
    expect(await clickEachField(form)).toBeGreaterThan(10);
    cleanup();
    const page = await openArea('experiments', 'Experiments', 'price-us');
    await within(page).findByRole('heading', { name: 'Results of Price US' });
    const results = page.querySelector<HTMLElement>('.experiment-results');
    expect(await clickEachField(results!)).toBeGreaterThan(0);
  });

  // slow: forty fields of the traffic editors, each click drawing the area again
  it('answers a click in the traffic editors with each route’s plans open', async () => {
    const area = await openArea('traffic', 'Traffic');
    for (const opener of within(area).getAllByRole('button', { name: /^Choose plans of route / })) {
      await userEvent.click(opener);
    }
    // Each route's card is the same form: the first one's fields stand for the others', whose
    // every click drew the whole area again (some 0.2 s each in happy-dom).
    const routes = within(area).getByRole('list', { name: 'Routes in the draft, in order' });
    const [first] = within(routes).getAllByRole('listitem');
    const otherRoute = (field: Element) => routes.contains(field) && !first?.contains(field);
    expect(await clickEachField(area, otherRoute)).toBeGreaterThan(20);
  });

  it('answers a click on the results, the edit page and the history’s rollback asked', async () => {
    expect(await clickEachField(await openArea('results', 'Results'))).toBeGreaterThan(0);
    cleanup();
    expect(await clickEachField(await openArea('publish', 'Edit and publish'))).toBeGreaterThan(5);
    cleanup();
    const history = await openArea('history', 'History');
    await userEvent.click(await within(history).findByRole('button', { name: 'Roll back to v1…' }));
    const confirm = history.querySelector<HTMLElement>('form.confirm');
    expect(await clickEachField(confirm!)).toBe(1);
  });
});
