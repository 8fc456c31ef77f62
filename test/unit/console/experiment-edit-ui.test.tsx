// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Experiments } from '../../../console/experiments/Experiments';
import { $experimentsStatus } from '../../../console/experiments/stores/experiments';
import { $draft } from '../../../console/kit/stores/draft';
import { loadConsole } from '../../../console/kit/stores/publishing';
import { $review } from '../../../console/kit/stores/review';
import { EditPublish } from '../../../console/split/EditPublish';
import type { ExperimentDocument } from '../../../shared/config/experiments';
import {
  type CheckAnswer,
  CONSOLE_API,
  type ConsoleState,
  type PublishRequest,
} from '../../../shared/console-api/config';
import { CONSOLE_RESULTS_PATH } from '../../../shared/console-api/results';
import { renderAreas } from './areas';
import { consoleState, resultsAnswer } from './fixtures';

/**
 * The edit, archive and delete dialogs of the experiments area, drawn against the fixture's
 * running landing test: what a running experiment lets a marketer change, what it refuses in the
 * dialog, and the review the worker's answer (CheckAnswer.experimentPhases) fills.
 */

const DAY = 86_400_000;

function stubWorker(state: ConsoleState = consoleState(), check: Partial<CheckAnswer> = {}) {
  const checked: PublishRequest[] = [];
  const reply = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      if (url === CONSOLE_API.state) return reply(200, state);
      if (url === CONSOLE_API.versions) return reply(200, { versions: [] });
      if (url === CONSOLE_RESULTS_PATH) return reply(200, resultsAnswer());
      if (url === CONSOLE_API.check) {
        checked.push(JSON.parse(String(init?.body)));
        return reply(200, { ok: true, diff: [], phase: null, ...check });
      }
      return reply(404, { ok: false, error: 'bad_request' });
    }),
  );
  return { checked };
}

async function openArea() {
  renderAreas((state) => (
    <>
      <Experiments state={state} />
      <EditPublish state={state} />
    </>
  ));
  await loadConsole();
  return within(await screen.findByRole('region', { name: 'Experiments' }));
}

async function openEdit() {
  const area = await openArea();
  fireEvent.click(area.getByRole('button', { name: 'Edit All-in-one landing…' }));
  return within(screen.getByRole('dialog', { name: 'Edit All-in-one landing' }));
}

const draftExperiment = (id = 'landing-all') => $draft.get()?.document.experiments.experiments[id];

/** The fixture's state with its landing test a draft. */
function landingAsDraft(): ConsoleState {
  const state = consoleState();
  const landing = state.live.experiments.experiments['landing-all'];
  if (landing) landing.status = 'draft';
  return state;
}

/** A state whose live config also holds `experiments`. */
function stateWith(experiments: Record<string, ExperimentDocument>): ConsoleState {
  const state = consoleState();
  Object.assign(state.live.experiments.experiments, experiments);
  return state;
}

function ended(daysAgo: number): ExperimentDocument {
  return {
    name: 'Price US',
    status: 'stopped',
    layer: 'paywall',
    audience: { routes: ['default'] },
    coverage: 1,
    range: [0, 0.5],
    seed: 'seed1',
    phase: 1,
    control: 'a',
    variants: {
      a: { weight: 1, change: {} },
      b: { weight: 1, change: { plans: ['monthly_3d_intro'] } },
    },
    endedAt: new Date(Date.now() - daysAgo * DAY).toISOString(),
  };
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  $experimentsStatus.set('');
  $review.set({ kind: 'idle' });
  $draft.set(null);
});

describe('editing a running experiment', () => {
  it('says a weight change starts a new phase, then puts the edit in the draft and reviews it', async () => {
    const { checked } = stubWorker(consoleState(), {
      diff: [
        {
          path: 'experiments.experiments.landing-all.variants.b.weight',
          before: 1,
          after: 3,
          kind: 'changed',
        },
      ],
      experimentPhases: [
        { experiment: 'landing-all', from: 1, to: 2, reason: 'the shares change: b 50% → 75%' },
      ],
    });
    const dialog = await openEdit();
    dialog.getByText(/^While it runs, only what keeps its results comparable changes here/);
    expect(dialog.queryByText(/publishing starts a new phase/)).toBeNull();
    const weight = dialog.getByLabelText('Weight of b');
    const hint = dialog.getByText(
      /^Changing a weight starts a new phase: results are read per phase/,
    );
    expect(dialog.getByRole('group', { name: 'Weights' }).getAttribute('aria-describedby')).toBe(
      hint.id,
    );
    fireEvent.change(weight, { target: { value: '3' } });
    dialog.getByText(
      'These weights draw visitors in other shares: publishing starts a new phase. Results are read per phase; visitors already exposed keep their variant.',
    );
    // Twice the weights draw the same shares: no new phase.
    fireEvent.change(weight, { target: { value: '1' } });
    expect(dialog.queryByText(/publishing starts a new phase/)).toBeNull();
    fireEvent.change(weight, { target: { value: '3' } });
    fireEvent.change(dialog.getByLabelText('Notes'), { target: { value: 'more to b in week 2' } });
    fireEvent.click(
      dialog.getByRole('button', { name: 'Put the changes to All-in-one landing in the draft' }),
    );
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(draftExperiment()).toMatchObject({
      status: 'running',
      notes: 'more to b in week 2',
      variants: { a: { weight: 1 }, b: { weight: 3 } },
      seed: 'landing-all',
    });
    await screen.findByText(
      'Publishing starts phase 2 of All-in-one landing (landing-all): the shares change: b 50% → 75%. Its results are read per phase; visitors already exposed keep their variant.',
    );
    expect(checked).toHaveLength(1);
    expect(checked[0]?.document.experiments.experiments['landing-all']?.variants.b?.weight).toBe(3);
  });

  it('refuses less coverage, a narrower range and bad weights at their fields, and changes nothing', async () => {
    const { checked } = stubWorker();
    const dialog = await openEdit();
    const before = JSON.stringify($draft.get());
    fireEvent.change(dialog.getByLabelText('Coverage (% of matching visitors who enter)'), {
      target: { value: '50' },
    });
    fireEvent.change(dialog.getByLabelText('Range in the layer to (%)'), {
      target: { value: '80' },
    });
    fireEvent.change(dialog.getByLabelText('Weight of a (control)'), { target: { value: '-1' } });
    fireEvent.change(dialog.getByLabelText('Planned visitors per variant'), {
      target: { value: '50' },
    });
    fireEvent.click(
      dialog.getByRole('button', { name: 'Put the changes to All-in-one landing in the draft' }),
    );
    const coverage = dialog.getByLabelText('Coverage (% of matching visitors who enter)');
    dialog.getByText('While it runs, the coverage can only rise: enter 100% or more.');
    dialog.getByText('While it runs, the range can only widen: it must contain 0–100%.');
    dialog.getByText('Enter a number, 0 or more.');
    expect(coverage.getAttribute('aria-invalid')).toBe('true');
    expect(dialog.getByLabelText('Range in the layer from (%)').getAttribute('aria-invalid')).toBe(
      'true',
    );
    dialog.getByText('Enter a whole number from 100 to 100,000,000.');
    // Focus goes to the first field refused, in the form's order.
    expect(document.activeElement).toBe(dialog.getByLabelText('Planned visitors per variant'));
    expect(JSON.stringify($draft.get())).toBe(before);
    expect(checked).toEqual([]);
  });

  it('offers "stop it and duplicate it" for the rest, which drafts a follow-up', async () => {
    stubWorker();
    const dialog = await openEdit();
    dialog.getByText(/^To change anything else while it runs .* stop it and duplicate it/);
    fireEvent.click(
      dialog.getByRole('button', { name: 'Duplicate All-in-one landing for a follow-up' }),
    );
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(draftExperiment('landing-all-followup')).toMatchObject({
      status: 'draft',
      name: 'All-in-one landing (follow-up)',
    });
    expect(draftExperiment()?.status).toBe('running');
    expect($experimentsStatus.get()).toMatch(/^Duplicated landing-all as the draft/);
  });

  it('lets a draft take less coverage, without the running rules', async () => {
    stubWorker(landingAsDraft());
    const dialog = await openEdit();
    dialog.getByText(/^A draft draws nobody yet/);
    expect(dialog.queryByText(/Changing a weight starts a new phase/)).toBeNull();
    expect(dialog.queryByRole('button', { name: /^Duplicate/ })).toBeNull();
    fireEvent.change(dialog.getByLabelText('Coverage (% of matching visitors who enter)'), {
      target: { value: '25' },
    });
    fireEvent.click(
      dialog.getByRole('button', { name: 'Put the changes to All-in-one landing in the draft' }),
    );
    expect(draftExperiment()?.coverage).toBe(0.25);
  });

  it('sets a draft on a guarded ramp, refusing unequal weights at their field; a running one offers none', async () => {
    stubWorker(landingAsDraft());
    const dialog = await openEdit();
    fireEvent.click(dialog.getByRole('checkbox', { name: 'Start on a guarded ramp' }));
    fireEvent.change(dialog.getByLabelText('Weight of a (control)'), { target: { value: '2' } });
    const put = () =>
      fireEvent.click(
        dialog.getByRole('button', { name: 'Put the changes to All-in-one landing in the draft' }),
      );
    put();
    const weights = dialog.getByRole('group', { name: 'Weights' });
    expect(weights.getAttribute('aria-describedby')).toBeTruthy();
    within(weights).getByText(
      'A ramp draws its arms half and half: give the variant and the control the same weight.',
    );
    expect(document.activeElement).toBe(dialog.getByLabelText('Weight of a (control)'));
    expect(draftExperiment()?.ramp).toBeUndefined();
    fireEvent.change(dialog.getByLabelText('Weight of a (control)'), { target: { value: '1' } });
    put();
    expect(draftExperiment()?.ramp?.steps.map((step) => step.coverage)).toEqual([
      0.025, 0.125, 0.25, 0.5,
    ]);
    cleanup();
    stubWorker();
    const running = await openEdit();
    expect(running.queryByRole('checkbox', { name: 'Start on a guarded ramp' })).toBeNull();
  });

  it('asks a save offer test for no funnel metric and no drain, and plans subscribers shown it', async () => {
    const state = stateWith({
      'keep-offer': {
        name: 'Keep offer',
        status: 'running',
        layer: 'subscriber',
        audience: {},
        coverage: 1,
        seed: 'keep1',
        phase: 1,
        control: 'a',
        variants: {
          a: { weight: 1, change: {} },
          b: { weight: 1, change: { saveOffer: 'half_price' } },
        },
        metrics: { plannedPerArm: 400 },
      },
    });
    state.live.content = {
      ...state.live.content,
      saveOffer: {
        title: { en: 'Before you go' },
        text: { en: 'Stay with us.' },
        variants: { half_price: { title: { en: 'Half price' } } },
      },
    };
    stubWorker(state);
    const area = await openArea();
    fireEvent.click(area.getByRole('button', { name: 'Edit Keep offer…' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Edit Keep offer' }));
    expect(dialog.queryByLabelText('Primary metric')).toBeNull();
    expect(dialog.queryByLabelText('Days the exposed keep their variant after it ends')).toBeNull();
    const planned = dialog.getByLabelText('Planned subscribers shown the offer per variant');
    fireEvent.change(planned, { target: { value: '600' } });
    fireEvent.click(
      dialog.getByRole('button', { name: 'Put the changes to Keep offer in the draft' }),
    );
    expect(draftExperiment('keep-offer')?.metrics).toEqual({ plannedPerArm: 600 });
  });
});

describe('archiving and deleting', () => {
  it('archives an ended experiment past its drain, saying what it frees, and then offers Delete', async () => {
    const { checked } = stubWorker(stateWith({ 'price-us': ended(8), fresh: ended(2) }));
    const area = await openArea();
    const fresh = within(area.getAllByRole('article', { name: /Price US/ })[1] as HTMLElement);
    expect(fresh.queryByRole('button', { name: /^Archive/ })).toBeNull();
    expect(fresh.queryByRole('button', { name: /^Delete/ })).toBeNull();
    const card = within(area.getAllByRole('article', { name: /Price US/ })[0] as HTMLElement);
    expect(card.queryByRole('button', { name: /^Edit/ })).toBeNull();
    fireEvent.click(card.getByRole('button', { name: 'Archive Price US…' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Archive Price US?' }));
    dialog.getByText(
      'Its drain is over: nobody keeps its variant. Archiving frees 0%–50% of layer paywall and the paywall it changes for good: other experiments may take them.',
    );
    fireEvent.click(dialog.getByRole('button', { name: 'Archive Price US' }));
    expect(draftExperiment('price-us')?.status).toBe('archived');
    await waitFor(() => expect(checked).toHaveLength(1));
    fireEvent.click(card.getByRole('button', { name: 'Delete Price US…' }));
    const remove = within(screen.getByRole('dialog', { name: 'Delete Price US?' }));
    remove.getByText(/^It leaves the config once you publish/);
    fireEvent.click(remove.getByRole('button', { name: 'Delete Price US' }));
    expect(draftExperiment('price-us')).toBeUndefined();
    expect(draftExperiment('fresh')?.status).toBe('stopped');
  });

  it('offers Delete for a draft, never for a running experiment', async () => {
    stubWorker();
    const area = await openArea();
    expect(area.queryByRole('button', { name: 'Delete All-in-one landing…' })).toBeNull();
    const form = within(area.getByRole('form', { name: 'Create an experiment' }));
    fireEvent.change(form.getByLabelText('Experiment name'), { target: { value: 'Plans' } });
    fireEvent.click(form.getByRole('checkbox', { name: /^monthly_3d_intro:/ }));
    fireEvent.click(form.getByRole('button', { name: 'Create draft experiment' }));
    fireEvent.click(area.getByRole('button', { name: 'Delete Plans…' }));
    const remove = within(screen.getByRole('dialog', { name: 'Delete Plans?' }));
    remove.getByText('It was never published: it only leaves the draft.');
    fireEvent.click(remove.getByRole('button', { name: 'Delete Plans' }));
    expect(draftExperiment('plans')).toBeUndefined();
  });
});
