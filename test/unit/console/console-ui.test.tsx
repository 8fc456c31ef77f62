// @vitest-environment happy-dom
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { $experimentsStatus } from '../../../console/experiments/stores/experiments';
import { $draft, editContent } from '../../../console/kit/stores/draft';
import { openPage } from '../../../console/kit/stores/page';
import { loadConsole, publishDraft } from '../../../console/kit/stores/publishing';
import { $editStatus, $historyStatus } from '../../../console/kit/stores/status';
import { Console } from '../../../console/page/Console';
import { Overview } from '../../../console/split/Overview';
import {
  CONSOLE_API,
  type ConsoleState,
  type PublishRequest,
} from '../../../shared/console-api/config';
import { CONSOLE_CONTENT_API } from '../../../shared/console-api/content';
import { CONSOLE_COPY_API } from '../../../shared/console-api/copy';
import { CONSOLE_AREAS } from '../../../shared/console-api/pages';
import { CONSOLE_RESULTS_PATH } from '../../../shared/console-api/results';
import type { VisitorGetsAnswer, VisitorGetsRequest } from '../../../shared/console-api/routes';
import type { VersionsAnswer } from '../../../shared/console-api/versions';
import { diffDocuments } from '../../../worker/config/diff';
import { checkFullDocument } from '../../../worker/config/document';
import { screenChanges } from '../../../worker/console/screen-changes';
import type { ServedConfig } from '../../../worker/experiments/config/visitor-gets';
import { rampedAiLandingTest } from '../../fixtures/ai-landing-test';
import { SPRING_LANDING, SPRING_SECTIONS } from '../../fixtures/composed-landing';
import {
  consoleState,
  EMPTY_CATALOGUE,
  EMPTY_COPY,
  resultsAnswer,
  visitorGetsAnswer,
} from './fixtures';

/** The worker's /console/api as the console sees it; each test says what check and publish answer. */
function stubWorker(answers: {
  /** The worker's answer of what a visitor the split gives `variant` gets. */
  served?: (variant: string) => VisitorGetsAnswer | undefined;
  check?: (request: PublishRequest) => { status: number; body: unknown };
  publish?: (request: PublishRequest) => { status: number; body: unknown };
  /** What is live, when not the fixture's. */
  state?: ConsoleState;
}) {
  let state: ConsoleState = answers.state ?? consoleState();
  const versions: VersionsAnswer = { versions: [{ ...state.head!, diff: [] }] };
  const posted: { url: string; body: PublishRequest }[] = [];
  const fetch = vi.fn(async (url: string, init?: RequestInit) => {
    const reply = (status: number, body: unknown) =>
      new Response(JSON.stringify(body), {
        status,
        headers: { 'content-type': 'application/json' },
      });
    if (url === CONSOLE_API.state) return reply(200, state);
    if (url === CONSOLE_API.versions) return reply(200, versions);
    if (url === CONSOLE_RESULTS_PATH) return reply(200, resultsAnswer());
    // The Copy area's calls, which these tests do not look at: no key, nothing published.
    if (url === CONSOLE_COPY_API.state) return reply(200, EMPTY_COPY);
    if (url === CONSOLE_COPY_API.versions) return reply(200, { versions: [] });
    // The content editor's, likewise: no screen to arrange, so nothing to preview.
    if (url === CONSOLE_CONTENT_API.catalogue) return reply(200, EMPTY_CATALOGUE);
    if (url === CONSOLE_API.visitorGets) {
      // The worker's answer for a visitor the split gives an arm: that arm's flow, or `served`'s.
      const asked = JSON.parse(String(init?.body)) as VisitorGetsRequest;
      const variant = asked.arms?.split ?? state.live.split.defaultVariant;
      const flow = state.live.split.variants[variant]?.flow ?? variant;
      return reply(
        200,
        answers.served?.(variant) ?? visitorGetsAnswer(flow, state.live.flows.flows[flow] ?? []),
      );
    }
    const body = JSON.parse(String(init?.body)) as PublishRequest;
    posted.push({ url, body });
    expect(init?.method).toBe('POST');
    expect(new Headers(init?.headers).get('content-type')).toBe('application/json');
    const answer = url === CONSOLE_API.check ? answers.check : answers.publish;
    const { status, body: answerBody } = answer?.(body) ?? { status: 500, body: {} };
    if (url === CONSOLE_API.publish && status === 200) {
      state = { ...state, live: body.document, head: { ...state.head!, seq: 3, id: 'v3' } };
    }
    return reply(status, answerBody);
  });
  vi.stubGlobal('fetch', fetch);
  return { posted };
}

/** The check answered as the worker's is: its own validator's refusals (one validator). */
function validatorCheck(request: PublishRequest) {
  const checked = checkFullDocument(request.document);
  return checked.ok
    ? { status: 200, body: { ok: true, diff: [], phase: null } }
    : { status: 400, body: { ok: false, error: 'invalid_config', errors: checked.errors } };
}

/** The console at one of its pages: Edit and publish, where most of these tests work. */
async function openConsole(area: 'publish' | 'overview' = 'publish') {
  openPage(area);
  render(<Console />);
  await loadConsole();
  await screen.findByRole('heading', { level: 2, name: CONSOLE_AREAS[area].title });
}

/**
 * The Edit and publish block under the heading `title`, which has no landmark of its own. A role
 * query computes the name of every element of its role in its container, and the page has some
 * 50 buttons: a block's controls are looked for in the block, each test's once it is drawn.
 */
function block(title: string) {
  return within(screen.getByRole('heading', { level: 3, name: title }).parentElement!);
}

beforeEach(() => {
  $editStatus.set('');
  $historyStatus.set('');
});
afterEach(() => {
  cleanup();
  openPage('overview');
  vi.unstubAllGlobals();
});

describe('the console in the browser', () => {
  it('shows each variant’s share, flow, landing and preview, and which are paused', async () => {
    stubWorker({});
    await openConsole('overview');
    const overview = within(screen.getByRole('region', { name: 'Overview' }));
    expect(overview.getByText(/Live version/).textContent).toContain('v2');
    const lp17 = within(overview.getByRole('article', { name: 'lp17' }));
    expect(lp17.getByText('20%').closest('p')?.textContent).toBe(
      '20% of new visitors (weight 20 of 100)',
    );
    expect((await lp17.findByText(/opens with the landing/)).textContent).toContain(
      'one_pager_all',
    );
    expect(lp17.getByRole('list', { name: 'Screens lp17 walks' }).textContent).toBe(
      'one_pager_all→searching_2→signup_testim→success',
    );
    const preview = lp17.getByRole('link', { name: /Preview lp17/ });
    expect(preview.getAttribute('href')).toBe('/console/preview/lp17');
    // Opened beside the console, which keeps the marketer's place.
    expect(preview.getAttribute('target')).toBe('_blank');
    expect(within(overview.getByRole('article', { name: /old/ })).getByText('paused')).toBeTruthy();
  });

  it('says the landing the worker answers a variant’s visitors get: a rolled-out winner’s', async () => {
    stubWorker({
      served: (variant) =>
        variant === 'default'
          ? visitorGetsAnswer('default', ['one_pager', 'searching', 'signup'], 'one_pager_ai')
          : undefined,
    });
    await openConsole('overview');
    const overview = within(screen.getByRole('region', { name: 'Overview' }));
    const card = within(overview.getByRole('article', { name: /^default/ }));
    const statement = await card.findByText(/opens with the landing/);
    expect(statement.textContent).toBe(
      'On route default: flow default, opens with the landing one_pager_ai (AI landing’s ai is rolled out).',
    );
    expect(card.getByRole('list', { name: 'Screens default walks' }).textContent).toBe(
      'one_pager_ai→searching→signup',
    );
  });

  it('says so when what a variant’s visitors get cannot be read, and names no landing', async () => {
    stubWorker({});
    vi.mocked(fetch).mockImplementation(async (url) =>
      url === CONSOLE_API.visitorGets
        ? new Response(JSON.stringify({ ok: false, error: 'unknown_route' }), { status: 404 })
        : new Response('{}', { status: 500 }),
    );
    render(<Overview state={consoleState()} />);
    const card = within(screen.getByRole('article', { name: 'lp17' }));
    expect((await card.findByText(/could not be read/)).textContent).not.toContain('one_pager');
    expect(card.queryByText(/opens with the landing/)).toBeNull();
  });

  it('lists the live experiments with their ramps as their cards say them, and the holdout', async () => {
    stubWorker({});
    const state = consoleState();
    const base = rampedAiLandingTest('2026-12-01T09:00:00.000Z');
    state.live.experiments = {
      ...state.live.experiments,
      experiments: {
        ...state.live.experiments.experiments,
        'lp-ai': {
          ...base,
          ramp: {
            ...base.ramp!,
            state: { ...base.ramp!.state, status: 'rolled_back', reason: 'broken: declines (9%)' },
          },
        },
      },
      holdout: { seed: 'h-1', percent: 5, status: 'running', startedAt: '2026-11-01T00:00:00Z' },
    };
    render(<Overview state={state} />);
    const live = within(screen.getByRole('list', { name: 'Live experiments' }));
    expect(live.getByText(/^AI landing/).closest('li')?.textContent).toBe(
      'AI landing (lp-ai): rolled back. Guarded ramp rolled back by guardrail: declines (9%) (at step 1 of 2, 2026-12-01 09:00 UTC): the variant reaches no one.',
    );
    expect(live.getByText('Holdout').closest('li')?.textContent).toBe(
      'Holdout (h-1): running, 5% of visitors held back since 2026-11-01',
    );
  });

  it('lists each route that is paused, ramped or scheduled, as its card in the traffic map says it', async () => {
    stubWorker({});
    const state = consoleState();
    // A guarded ramp's steps and engine state, here a route's: rolled back by a guardrail.
    const { ramp } = rampedAiLandingTest('2026-12-01T09:00:00.000Z');
    const rolledBack = {
      ...ramp!,
      state: { ...ramp!.state, status: 'rolled_back' as const, reason: 'broken: declines (9%)' },
    };
    const running = { ...ramp!, state: { ...ramp!.state, step: 1 } };
    const { routes } = state.live.routing;
    const base = routes[routes.length - 1]!;
    state.live.routing = {
      ...state.live.routing,
      routes: [
        { ...base, id: 'spring', ramp: rolledBack },
        { ...base, id: 'autumn', ramp: running },
        { ...base, id: 'winter', paused: true },
        { ...base, id: 'summer', schedule: { from: '2099-06-01T00:00:00.000Z' } },
        ...routes,
      ],
    };
    render(<Overview state={state} />);
    const listed = within(screen.getByRole('list', { name: 'Routes paused, ramped or scheduled' }))
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(listed).toEqual([
      'Route spring: rolled back. Guarded ramp rolled back by guardrail: declines (9%) (at step 1 of 2, 2026-12-01 09:00 UTC): the route takes no one (its visitors get the route they would get without it).',
      'Route autumn: live. Guarded ramp running, step 2 of 2 since 2026-12-01 09:00 UTC: 100% of its visitors enter, half of them getting the route. Next gate: Done (its last step) once 2026-12-01 09:00 UTC has passed and each arm has 0 exposed, with no guardrail that holds or rolls back broken.',
      'Route winter: paused. It takes no new visitor; those already on it stay.',
      'Route summer: not yet started. From 1 Jun 2099, 00:00 UTC.',
    ]);
    cleanup();
    render(<Overview state={consoleState()} />);
    expect(screen.getByText('Every route takes its visitors, always.')).toBeTruthy();
  });

  it('reviews an edited weight, warns of the new phase and publishes from the base', async () => {
    const { posted } = stubWorker({
      check: () => ({
        status: 200,
        body: {
          ok: true,
          diff: [{ path: 'split.variants.lp17.weight', kind: 'changed', before: 20, after: 60 }],
          phase: { from: 1, to: 2, reason: 'the weights of lp17 change' },
        },
      }),
      publish: () => ({ status: 200, body: { ok: true, version: { id: 'v3' } } }),
    });
    const user = userEvent.setup();
    await openConsole();
    const weight = block('Variants and weights').getByLabelText('Weight of lp17');
    await user.clear(weight);
    await user.type(weight, '60');
    expect(
      screen.getByText('You have edits that are not published.', { exact: false }),
    ).toBeTruthy();
    const review = block('Review and publish');
    await user.click(review.getByRole('button', { name: 'Review changes' }));
    expect(await screen.findByText('Weight of lp17: 20 → 60')).toBeTruthy();
    expect(
      screen.getByText(
        'Publishing starts phase 2 of the experiment: the weights of lp17 change. Visitors assigned under the old weights are not compared with the new ones.',
      ),
    ).toBeTruthy();
    await user.type(review.getByLabelText('Note (optional)'), 'lp17 wins');
    // A banner about the draft, as the experiments area leaves one.
    $experimentsStatus.set('Stop lp-ai: in the draft. Publish it below to make it live.');
    await user.click(review.getByRole('button', { name: 'Publish' }));
    const status = document.getElementById('edit-status');
    await waitFor(() => expect(status?.textContent).toMatch(/^Published v3/));
    // The publish settled it: the banner goes with it.
    expect($experimentsStatus.get()).toBe('');
    expect(document.activeElement).toBe(status);
    expect(posted.map(({ url }) => url)).toEqual([CONSOLE_API.check, CONSOLE_API.publish]);
    const published = posted[1]!.body;
    expect(published.base).toBe(2);
    expect(published.note).toBe('lp17 wins');
    expect(published.document.split.variants.lp17).toEqual({ weight: 60, flow: 'lp17ch17pr5' });
    // The sections this edit did not touch go back as they came, the experiments among them.
    const live = consoleState().live;
    expect(published.document.experiments).toEqual(live.experiments);
    expect(published.document.routing).toEqual(live.routing);
    // The live config is reloaded: no edits left, and the overview shows the new share.
    expect(
      screen.queryByText('You have edits that are not published.', { exact: false }),
    ).toBeNull();
  });

  it('says so, and publishes nothing, when the draft changed between the review and the publish', async () => {
    const { posted } = stubWorker({
      check: () => ({
        status: 200,
        body: {
          ok: true,
          diff: [{ path: 'split.variants.lp17.weight', kind: 'changed', before: 20, after: 60 }],
          phase: null,
        },
      }),
      publish: () => ({ status: 200, body: { ok: true, version: { id: 'v3' } } }),
    });
    const user = userEvent.setup();
    await openConsole();
    const weight = block('Variants and weights').getByLabelText('Weight of lp17');
    await user.clear(weight);
    await user.type(weight, '60');
    const review = block('Review and publish');
    await user.click(review.getByRole('button', { name: 'Review changes' }));
    await review.findByRole('button', { name: 'Publish' });
    // What a save bringing a colleague's edits in does to the tab's draft.
    const draft = $draft.get()!;
    $draft.set({
      ...draft,
      document: { ...draft.document, split: { ...draft.document.split, defaultVariant: 'lp17' } },
    });
    expect(await publishDraft('')).toBe(false);
    expect($editStatus.get()).toBe(
      'The draft changed since you reviewed it (edits saved by others came in): review it again before publishing.',
    );
    expect(posted.map(({ url }) => url)).toEqual([CONSOLE_API.check]);
  });

  it('puts each refusal beside its field and in an alert, and publishes nothing', async () => {
    const { posted } = stubWorker({
      check: () => ({
        status: 400,
        body: {
          ok: false,
          error: 'invalid_config',
          errors: [
            { path: 'split.variants', message: 'weights must add up to a positive finite number' },
            { path: 'split.variants.default.weight', message: 'must not be negative' },
          ],
        },
      }),
    });
    const user = userEvent.setup();
    await openConsole();
    const weight = block('Variants and weights').getByLabelText('Weight of default');
    await user.clear(weight);
    await user.type(weight, '-1');
    await user.click(block('Review and publish').getByRole('button', { name: 'Review changes' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Weights: weights must add up to a positive finite number');
    expect(alert.textContent).toContain('Weight of default: must not be negative');
    expect(weight.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (weight.getAttribute('aria-describedby') ?? '').split(' ');
    const described = describedBy.map((id) => document.getElementById(id)?.textContent);
    expect(described).toContain('must not be negative');
    expect(described).toContain('weights must add up to a positive finite number');
    expect(screen.queryByRole('button', { name: 'Publish' })).toBeNull();
    expect(posted.map(({ url }) => url)).toEqual([CONSOLE_API.check]);
  });

  it('refuses a flow emptied of its screens by keyboard beside the flow, and publishes nothing', async () => {
    const { posted } = stubWorker({ check: validatorCheck });
    const user = userEvent.setup();
    await openConsole();
    const screens = consoleState().live.flows.flows.lp11ch8_vc ?? [];
    await user.click(screen.getByText('Flow lp11ch8_vc', { selector: 'summary' }));
    const flow = block('Flows').getByRole('group', { name: 'Flow lp11ch8_vc' });
    // Enter on the first Remove: the focus moves to the next screen's Remove, so Enter again.
    within(flow)
      .getByRole('button', { name: `Remove ${screens[0]} from lp11ch8_vc` })
      .focus();
    for (const _ of screens) await user.keyboard('{Enter}');
    expect(screen.getByText('Flow lp11ch8_vc', { selector: 'summary' }).textContent).toMatch(
      /0 screens/,
    );
    await user.click(block('Review and publish').getByRole('button', { name: 'Review changes' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Flow lp11ch8_vc: must list at least one screen');
    // Beside the flow itself, which names the message as its description.
    expect(document.getElementById('error:flows.flows.lp11ch8_vc')?.textContent).toBe(
      'must list at least one screen',
    );
    expect(flow.getAttribute('aria-describedby')).toBe('error:flows.flows.lp11ch8_vc');
    expect(screen.queryByRole('button', { name: 'Publish' })).toBeNull();
    expect(posted.map(({ url }) => url)).toEqual([CONSOLE_API.check]);
  });

  it('sends the chosen primary metric and planned sample in the reviewed document', async () => {
    const { posted } = stubWorker({
      check: () => ({ status: 200, body: { ok: true, diff: [], phase: null } }),
    });
    const user = userEvent.setup();
    await openConsole();
    const results = block('How results are read');
    const review = block('Review and publish');
    const metric = results.getByLabelText('Primary metric');
    // Nothing chosen in the live config: purchase, the worker's default.
    expect(metric).toHaveProperty('value', 'purchase');
    await user.selectOptions(metric, 'Revenue per visitor');
    const planned = results.getByLabelText('Planned visitors per variant (optional)');
    await user.type(planned, '50');
    // Said at once, and still sent: the worker's validator refuses it beside the field.
    expect(screen.getByText('Enter a whole number, 100 or more, or leave it empty.')).toBeTruthy();
    await user.type(planned, '00');
    expect(screen.queryByText(/Enter a whole number/)).toBeNull();
    await user.click(review.getByRole('button', { name: 'Review changes' }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]!.body.document.split.experiment).toEqual({
      primaryMetric: 'revenue',
      plannedPerArm: 5000,
    });
    // Emptied, the planned sample leaves the document: the worker's default applies again.
    await user.clear(planned);
    await user.click(review.getByRole('button', { name: 'Review changes' }));
    await waitFor(() => expect(posted).toHaveLength(2));
    expect(posted[1]!.body.document.split.experiment).toEqual({ primaryMetric: 'revenue' });
  });

  it('sets which routes the split draws, and says when it draws no one', async () => {
    const { posted } = stubWorker({
      check: () => ({ status: 200, body: { ok: true, diff: [], phase: null } }),
    });
    const user = userEvent.setup();
    await openConsole();
    const review = block('Review and publish');
    const drawn = block('Routes the split test draws').getByRole('checkbox', {
      name: 'route default (its own flow: default)',
    });
    // No `routes` in the live config: the split draws route default.
    expect(drawn).toHaveProperty('checked', true);
    expect(screen.queryByText(/^The split test draws no one/)).toBeNull();
    await user.click(drawn);
    expect(screen.getByText(/^The split test draws no one/).textContent).toMatch(
      /^The split test draws no one: no new visitor is drawn into its variants \(default, lp11ch8\/vc, lp17, old\);/,
    );
    await user.click(review.getByRole('button', { name: 'Review changes' }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]!.body.document.split.routes).toEqual([]);
    // Ticked again, the draft is the live config: no field, as before.
    await user.click(drawn);
    await user.click(review.getByRole('button', { name: 'Review changes' }));
    await waitFor(() => expect(posted).toHaveLength(2));
    expect('routes' in posted[1]!.body.document.split).toBe(false);
  });

  it('shows a refusal of the planned sample beside its field', async () => {
    stubWorker({
      check: () => ({
        status: 400,
        body: {
          ok: false,
          error: 'invalid_config',
          errors: [{ path: 'split.experiment.plannedPerArm', message: 'must be at least 100' }],
        },
      }),
    });
    const user = userEvent.setup();
    await openConsole();
    const planned = block('How results are read').getByLabelText(
      'Planned visitors per variant (optional)',
    );
    await user.type(planned, '5');
    await user.click(block('Review and publish').getByRole('button', { name: 'Review changes' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Planned visitors per variant: must be at least 100');
    expect(planned.getAttribute('aria-invalid')).toBe('true');
    const described = (planned.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent);
    expect(described).toContain('must be at least 100');
  });

  it('says why the live config did not load, and loads it again on Try again', async () => {
    stubWorker({});
    const worker = vi.mocked(fetch);
    const answering = worker.getMockImplementation()!;
    let down = true;
    worker.mockImplementation(async (url, init) => {
      if (url !== CONSOLE_API.state || !down) return answering(url, init);
      down = false;
      return new Response('{}', { status: 503 });
    });
    const user = userEvent.setup();
    openPage('publish');
    render(<Console />);
    await loadConsole();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).not.toBe('');
    expect(screen.queryByRole('heading', { level: 2, name: 'Edit and publish' })).toBeNull();
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    await screen.findByRole('heading', { level: 2, name: 'Edit and publish' });
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
  });

  it('says when the draft is the live config, and offers no publish', async () => {
    stubWorker({ check: () => ({ status: 200, body: { ok: true, diff: [], phase: null } }) });
    const user = userEvent.setup();
    await openConsole();
    await user.click(block('Review and publish').getByRole('button', { name: 'Review changes' }));
    expect(await screen.findByText('No changes: the draft is the live config.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Publish' })).toBeNull();
  });

  it('reviews a content variant alone as a change, in words, and publishes it', async () => {
    const live = consoleState();
    const spring = SPRING_LANDING.composed!.spring_landing!;
    live.live = { ...live.live, content: SPRING_LANDING };
    const { posted } = stubWorker({
      state: live,
      // The worker's own diff of the draft against what is live, and the screens it changes.
      check: ({ document }) => ({
        status: 200,
        body: {
          ok: true,
          diff: diffDocuments(live.live, document),
          phase: null,
          warnings: [],
          screens: screenChanges(live.live as ServedConfig, document as ServedConfig, Date.now()),
        },
      }),
      publish: () => ({ status: 200, body: { ok: true, version: { id: 'v3' } } }),
    });
    const user = userEvent.setup();
    await openConsole();
    const order = ['reviews', ...SPRING_SECTIONS.filter((id) => id !== 'reviews')];
    const variant = { sections: order.map((id) => ({ id, visible: true })) };
    editContent((content) => ({
      ...content,
      composed: { spring_landing: { ...spring, variants: { reviews_first: variant } } },
    }));
    const review = block('Review and publish');
    await user.click(review.getByRole('button', { name: 'Review changes' }));
    const changes = await review.findByRole('list', { name: 'Changes this publish makes' });
    expect(within(changes).getByRole('listitem').textContent).toBe(
      'spring_landing: new variant reviews_first: Reviews moved above Heading ' +
        'content.composed.spring_landing.variants.reviews_first',
    );
    expect(screen.queryByText('No changes: the draft is the live config.')).toBeNull();
    // Drawn side by side in a language the marketer can change.
    const language = review.getByRole('combobox', { name: /^Language of spring_landing/ });
    expect(language).toHaveProperty('value', 'en');
    await user.click(review.getByRole('button', { name: 'Publish' }));
    await waitFor(() =>
      expect(document.getElementById('edit-status')?.textContent).toMatch(/^Published v3/),
    );
    const published = posted.find(({ url }) => url === CONSOLE_API.publish)!.body;
    expect(published.document.content.composed?.spring_landing?.variants).toEqual({
      reviews_first: variant,
    });
  });

  it('shows who published since the base, and takes the live config on request', async () => {
    const head = { ...consoleState().head!, seq: 3, id: 'v3', author: 'ben@example.com' };
    stubWorker({
      check: () => ({
        status: 200,
        body: {
          ok: true,
          diff: [{ path: 'split.variants.lp17.weight', kind: 'changed', before: 20, after: 1 }],
          phase: null,
        },
      }),
      publish: () => ({
        status: 409,
        body: {
          ok: false,
          error: 'version_conflict',
          head,
          changes: [
            { path: 'split.variants.default.weight', kind: 'changed', before: 50, after: 10 },
          ],
        },
      }),
    });
    const user = userEvent.setup();
    await openConsole();
    const weight = block('Variants and weights').getByLabelText('Weight of lp17');
    await user.clear(weight);
    await user.type(weight, '1');
    const review = block('Review and publish');
    await user.click(review.getByRole('button', { name: 'Review changes' }));
    await user.click(await review.findByRole('button', { name: 'Publish' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/^Someone published v3 since you started: 1 change\./);
    expect(alert.textContent).toContain('ben@example.com');
    expect(within(alert).getByText('Weight of default: 50 → 10')).toBeTruthy();
    await user.click(within(alert).getByRole('button', { name: /Load the live config/ }));
    await waitFor(() =>
      expect(document.getElementById('edit-status')?.textContent).toBe(
        'Loaded v2. Your edits were discarded.',
      ),
    );
    expect((screen.getByLabelText('Weight of lp17') as HTMLInputElement).value).toBe('20');
  });

  it('says so when nothing was published from the console yet', async () => {
    stubWorker({ state: { ...consoleState(), head: null } });
    await openConsole('overview');
    const overview = within(screen.getByRole('region', { name: 'Overview' }));
    expect(overview.getByText(/not published from the console yet/)).toBeTruthy();
    expect(overview.queryByText(/Live version/)).toBeNull();
  });

  it('reviews and publishes by keyboard: Tab to the weights, Tab to Review, Enter; the note, Tab to Publish, Enter', async () => {
    const live = consoleState().live;
    const { posted } = stubWorker({
      // The worker's own diff of the draft against what is live.
      check: ({ document }) => ({
        status: 200,
        body: { ok: true, diff: diffDocuments(live, document), phase: null },
      }),
      publish: () => ({ status: 200, body: { ok: true, version: { id: 'v3' } } }),
    });
    const user = userEvent.setup();
    await openConsole();
    /** Presses Tab until the focused element is `target`. */
    const tabTo = async (target: HTMLElement) => {
      for (let press = 0; press < 200 && document.activeElement !== target; press++) {
        await user.tab();
      }
      expect(document.activeElement).toBe(target);
    };
    const variants = block('Variants and weights');
    const review = block('Review and publish');
    screen.getByRole('heading', { level: 2, name: 'Edit and publish' }).focus();
    await tabTo(variants.getByLabelText('Weight of default'));
    await user.keyboard('{Control>}a{/Control}0');
    await tabTo(variants.getByLabelText('Weight of lp17'));
    await user.keyboard('{Control>}a{/Control}100');
    await tabTo(review.getByRole('button', { name: 'Review changes' }));
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Weight of default: 50 → 0')).toBeTruthy();
    expect(screen.getByText('Weight of lp17: 20 → 100')).toBeTruthy();
    await user.click(review.getByLabelText('Note (optional)'));
    await user.keyboard('all on lp17');
    await user.tab();
    expect(document.activeElement?.textContent).toBe('Publish');
    await user.keyboard('{Enter}');
    await waitFor(() =>
      expect(document.getElementById('edit-status')?.textContent).toMatch(/^Published v3/),
    );
    const published = posted.find(({ url }) => url === CONSOLE_API.publish)!.body;
    expect(published.note).toBe('all on lp17');
    expect(published.document.split.variants.default?.weight).toBe(0);
    expect(published.document.split.variants.lp17?.weight).toBe(100);
  });

  it('refuses weights that add up to nothing beside the weights and in an alert, no field of its own at fault', async () => {
    const { posted } = stubWorker({ check: validatorCheck });
    const user = userEvent.setup();
    await openConsole();
    const variants = block('Variants and weights');
    for (const key of ['default', 'lp11ch8/vc', 'lp17']) {
      await user.clear(variants.getByLabelText(`Weight of ${key}`));
      await user.type(variants.getByLabelText(`Weight of ${key}`), '0');
    }
    await user.click(block('Review and publish').getByRole('button', { name: 'Review changes' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Weights:');
    const weight = variants.getByLabelText('Weight of lp17');
    expect(weight.getAttribute('aria-invalid')).toBeNull();
    expect(document.getElementById('error:split.variants')?.textContent).toMatch(
      /weights must add up/,
    );
    expect(weight.getAttribute('aria-describedby')).toContain('error:split.variants');
    expect(screen.queryByRole('button', { name: 'Publish' })).toBeNull();
    expect(posted.map(({ url }) => url)).toEqual([CONSOLE_API.check]);
  });

  it('pauses a variant into the draft, offering to resume it, and discards the edit', async () => {
    stubWorker({});
    const user = userEvent.setup();
    await openConsole();
    const variants = block('Variants and weights');
    await user.click(variants.getByRole('button', { name: 'Pause default' }));
    expect($draft.get()?.document.split.variants.default?.weight).toBe(0);
    expect(variants.getByRole('button', { name: 'Resume default' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Discard edits' }));
    expect(variants.getByRole('button', { name: 'Pause default' })).toBeTruthy();
    expect($draft.get()?.document).toEqual(consoleState().live);
  });

  it('moves and removes a flow’s screens with focus kept on the moved screen', async () => {
    stubWorker({});
    const user = userEvent.setup();
    await openConsole();
    await user.click(screen.getByText('Flow lp17ch17pr5', { selector: 'summary' }));
    const flow = within(block('Flows').getByRole('group', { name: 'Flow lp17ch17pr5' }));
    const screensOf = () =>
      flow.getAllByRole('listitem').map((item) => item.querySelector('.chip')?.textContent);
    await user.click(flow.getByRole('button', { name: 'Move one_pager_all down in lp17ch17pr5' }));
    expect(screensOf()).toEqual([
      '1. searching_2',
      '2. one_pager_all',
      '3. signup_testim',
      '4. success',
    ]);
    expect(document.activeElement?.getAttribute('aria-label')).toBe(
      'Move one_pager_all down in lp17ch17pr5',
    );
    await user.keyboard('{Enter}');
    await user.keyboard('{Enter}');
    // At the end: the button stays focused and nothing moves further.
    expect(screensOf().at(-1)).toBe('4. one_pager_all');
    expect(document.activeElement?.getAttribute('aria-disabled')).toBe('true');
    await user.click(flow.getByRole('button', { name: 'Remove signup_testim from lp17ch17pr5' }));
    expect(screensOf()).toEqual(['1. searching_2', '2. success', '3. one_pager_all']);
    expect(document.activeElement?.getAttribute('aria-label')).toBe(
      'Remove success from lp17ch17pr5',
    );
    // Only known screens it does not list yet can be added.
    const picker = flow.getByLabelText('Screen to add to lp17ch17pr5');
    const offered = [...picker.querySelectorAll('option')].map((o) => o.value).filter(Boolean);
    expect(offered).not.toContain('success');
    expect(offered).toContain('upsell_an_private');
    await user.selectOptions(picker, 'upsell_an_private');
    await user.click(flow.getByRole('button', { name: 'Add screen to lp17ch17pr5' }));
    expect(screensOf().at(-1)).toBe('4. upsell_an_private');
  });
});
