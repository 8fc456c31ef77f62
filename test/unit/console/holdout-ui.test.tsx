// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  $experimentResults,
  NO_EXPERIMENT_RESULTS,
} from '../../../console/experiments/stores/experiments';
import { $draft } from '../../../console/kit/stores/draft';
import { openPage } from '../../../console/kit/stores/page';
import { loadConsole } from '../../../console/kit/stores/publishing';
import { CurrentPage } from '../../../console/page/Console';
import type { HoldoutDocument } from '../../../shared/config/holdout';
import { CONSOLE_API, type ConsoleState } from '../../../shared/console-api/config';
import {
  CONSOLE_EXPERIMENTS_PATH,
  type ExperimentResultsAnswer,
} from '../../../shared/console-api/experiment-results';
import { CONSOLE_RESULTS_PATH } from '../../../shared/console-api/results';
import { renderAreas } from './areas';
import { priceResults } from './experiment-fixtures';
import { consoleState, resultsAnswer } from './fixtures';

/**
 * The holdout in the experiments area (console/experiments/HoldoutCard.tsx): who it holds back,
 * since when and what it costs, and its results, the held out against the measured sample, as
 * GET /console/api/experiments/holdout/results answers them.
 */

const HOLDOUT_RESULTS = `${CONSOLE_EXPERIMENTS_PATH}/holdout/results`;

const RUNNING: HoldoutDocument = {
  seed: 'h-1b9e44',
  percent: 5,
  status: 'running',
  startedAt: '2026-11-01T00:00:00.000Z',
};

/** The holdout's answer: the price test's numbers under the holdout's arms and names. */
function holdoutAnswer(): ExperimentResultsAnswer {
  const price = priceResults();
  const arm = { a: ['held_out', 'Held out'], b: ['measured', 'Measured sample'] } as const;
  return {
    ...price,
    experiment: 'holdout',
    name: 'Holdout h-1b9e44 (5%)',
    layer: 'holdout',
    control: 'held_out',
    phase: 1,
    phases: [1],
    triggers: [],
    priceTest: false,
    awaitingMatureSample: false,
    variants: price.variants.map((variant) => {
      const [key, name] = arm[variant.variant as 'a' | 'b'];
      return { ...variant, variant: key, name };
    }),
  };
}

function stubWorker(state: ConsoleState) {
  const asked: string[] = [];
  const reply = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      if (url === CONSOLE_API.state) return reply(200, state);
      if (url === CONSOLE_API.versions) return reply(200, { versions: [] });
      if (url === CONSOLE_RESULTS_PATH) return reply(200, resultsAnswer());
      if (url.startsWith(HOLDOUT_RESULTS)) {
        asked.push(url);
        return reply(200, holdoutAnswer());
      }
      return reply(404, { ok: false, error: 'bad_request' });
    }),
  );
  return asked;
}

async function openArea(
  holdout: HoldoutDocument | undefined,
  edit: (live: ConsoleState['live']) => void = () => {},
) {
  const state = consoleState();
  if (holdout) state.live.experiments = { ...state.live.experiments, holdout };
  edit(state.live);
  const asked = stubWorker(state);
  openPage('experiments');
  renderAreas((state) => <CurrentPage state={state} />);
  await loadConsole();
  return { area: within(await screen.findByRole('region', { name: 'Experiments' })), asked };
}

afterEach(() => {
  cleanup();
  openPage('overview');
  vi.unstubAllGlobals();
  $experimentResults.set(NO_EXPERIMENT_RESULTS);
  $draft.set(null);
});

describe('the holdout', () => {
  it('says who it holds back since when, and what it costs', async () => {
    const { area } = await openArea(RUNNING);
    const card = area.getByRole('heading', { name: 'Holdout h-1b9e44 (running)' }).parentElement!;
    expect(within(card).getByText(/^5% of visitors/).textContent).toBe(
      '5% of visitors see the control of every experiment, split test phase and new route started since 2026-11-01; as many others, the measured sample, see each winner once it is rolled out, and the new routes. It costs about 5% of the revenue those winners add.',
    );
  });

  it('names the routes added and the split phase begun since its start, which it covers', async () => {
    const { area } = await openArea(RUNNING, (live) => {
      live.routing = {
        ...live.routing,
        audiences: {
          spring: { groups: [[{ attribute: 'entry', operator: 'in', values: ['spring'] }]] },
        },
        routes: [
          { id: 'spring', audience: 'spring', flow: 'default', since: '2026-11-03T09:00:00.000Z' },
          { id: 'winter', audience: 'spring', flow: 'default', since: '2026-10-03T09:00:00.000Z' },
          { id: 'autumn', audience: 'spring', flow: 'default' },
          ...live.routing.routes,
        ],
      };
      live.split = { ...live.split, since: '2026-11-05T10:00:00.000Z' };
    });
    const card = area.getByRole('heading', { name: 'Holdout h-1b9e44 (running)' }).parentElement!;
    expect(within(card).getByText(/^Routes added/).textContent).toBe(
      'Routes added since its start, which the held out do not get: spring.',
    );
    expect(within(card).getByText(/^The split test/).textContent).toBe(
      "The split test's current phase began since its start (2026-11-05): the held out get its default variant, default, and so does the measured sample while it draws several.",
    );
  });

  it('names nothing more when no route or split phase is newer than its start', async () => {
    const { area } = await openArea(RUNNING);
    const card = area.getByRole('heading', { name: 'Holdout h-1b9e44 (running)' }).parentElement!;
    expect(within(card).queryByText(/^Routes added|^The split test/)).toBeNull();
  });

  it('shows its results: the measured sample against the held out, counted from the first page', async () => {
    const { area, asked } = await openArea(RUNNING);
    fireEvent.click(area.getByRole('button', { name: 'Results of the holdout' }));
    await area.findByRole('heading', { name: 'Results of Holdout h-1b9e44 (5%)' });
    expect(asked).toEqual([HOLDOUT_RESULTS]);
    expect(area.getByRole('table', { name: 'Measured sample against Held out' })).toBeTruthy();
    expect(area.getByText(/^Counted from each held-out/).textContent).toBe(
      'Counted from each held-out or measured visitor’s first page: 2,000 so far.',
    );
  });

  it('starts one from the console: a draft edit with its share, said in the status', async () => {
    const { area } = await openArea(undefined);
    expect(area.getByRole('heading', { name: 'Holdout' }).nextElementSibling?.textContent).toBe(
      'No holdout. One measures what all the winners shipped from its start did together.',
    );
    const share = area.getByLabelText('Held back, % of visitors');
    fireEvent.change(share, { target: { value: '12' } });
    fireEvent.click(area.getByRole('button', { name: 'Start a holdout' }));
    expect(area.getByRole('status').textContent).toBe(
      'The holdout holds back from 1 to 10% of visitors.',
    );
    expect($draft.get()?.document.experiments.holdout).toBeUndefined();
    fireEvent.change(share, { target: { value: '3' } });
    fireEvent.click(area.getByRole('button', { name: 'Start a holdout' }));
    expect(area.getByRole('status').textContent).toBe(
      'A holdout start is in the draft: publish it in Edit and publish (it changes who sees what).',
    );
    expect($draft.get()?.document.experiments.holdout).toMatchObject({
      seed: expect.stringMatching(/^h-[0-9a-f]{8}$/),
      percent: 3,
      status: 'running',
    });
  });

  it('moves a running one to analysis, then ends it, each in the draft', async () => {
    const { area } = await openArea(RUNNING);
    expect(area.queryByRole('button', { name: 'Start a holdout' })).toBeNull();
    fireEvent.click(area.getByRole('button', { name: 'Move the holdout to analysis' }));
    expect($draft.get()?.document.experiments.holdout).toMatchObject({
      seed: 'h-1b9e44',
      status: 'analysis',
    });
    fireEvent.click(area.getByRole('button', { name: 'Move the holdout to analysis' }));
    expect(area.getByRole('status').textContent).toMatch(
      /^The holdout did not move: holdout h-1b9e44 is in analysis since /,
    );
    fireEvent.click(area.getByRole('button', { name: 'End the holdout' }));
    expect($draft.get()?.document.experiments.holdout).toMatchObject({ status: 'ended' });
    expect(area.getByRole('status').textContent).toBe(
      "The holdout's end is in the draft: publish it in Edit and publish (it changes who sees what).",
    );
  });
});
