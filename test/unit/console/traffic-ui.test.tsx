// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { $draft } from '../../../console/kit/stores/draft';
import { loadConsole } from '../../../console/kit/stores/publishing';
import { $routeTest, $routeTestStatus } from '../../../console/kit/stores/traffic';
import { EditPublish } from '../../../console/split/EditPublish';
import { Traffic } from '../../../console/traffic/Traffic';
import { CONSOLE_API, type ConsoleState } from '../../../shared/console-api/config';
import { CONSOLE_CONTENT_API } from '../../../shared/console-api/content';
import { CONSOLE_EXPERIMENTS_PATH } from '../../../shared/console-api/experiment-results';
import type { RampStatusAnswer } from '../../../shared/console-api/ramp-status';
import { CONSOLE_RESULTS_PATH } from '../../../shared/console-api/results';
import type { RouteTestAnswer, RouteVisitsAnswer } from '../../../shared/console-api/routes';
import { resultsAnswer as experimentAnswer } from '../../fixtures/experiment-results-answer';
import { renderAreas } from './areas';
import { consoleState, resultsAnswer, visitorGetsAnswer } from './fixtures';

/**
 * The Traffic area as the console draws it from the worker's answers (the contract of
 * shared/console-api/routes.ts): the route visits when there are some and when the call fails, the
 * plans warning, and the review's warnings.
 */

/** Live: TikTok in DE to lp17 with the quarterly plan, a paused weekend route, then default. */
function routedState(): ConsoleState {
  const state = consoleState();
  state.live.routing = {
    version: 'v2',
    audiences: {
      tiktok_de: {
        groups: [
          [
            { attribute: 'source', operator: 'in', values: ['tiktok'] },
            { attribute: 'country', operator: 'in', values: ['DE'] },
          ],
        ],
      },
      weekend: { groups: [[{ attribute: 'weekday', operator: 'in', values: ['sat', 'sun'] }]] },
    },
    routes: [
      { id: 'tiktok', audience: 'tiktok_de', flow: 'lp17ch17pr5', plans: ['quarterly'] },
      {
        id: 'weekend',
        audience: 'weekend',
        flow: 'default',
        paused: true,
        schedule: { from: '2026-11-28T00:00Z' },
      },
      { id: 'default', flow: 'default' },
    ],
  };
  return state;
}

function stubWorker(
  visits: { status: number; body: unknown },
  check?: unknown,
  routeTest?: { status: number; body: unknown },
  live: { state?: ConsoleState; results?: (url: string) => { status: number; body: unknown } } = {},
) {
  const tested: unknown[] = [];
  const drawings: { screen: string; route: string }[] = [];
  const reply = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      if (url === CONSOLE_API.state) return reply(200, live.state ?? routedState());
      if (live.results && url.startsWith(`${CONSOLE_EXPERIMENTS_PATH}/`)) {
        const { status, body } = live.results(url);
        return reply(status, body);
      }
      if (url === CONSOLE_API.versions) return reply(200, { versions: [] });
      if (url === CONSOLE_RESULTS_PATH) return reply(200, resultsAnswer());
      if (url === CONSOLE_API.routeVisits) return reply(visits.status, visits.body);
      if (url === CONSOLE_API.check) return reply(200, check);
      if (url === CONSOLE_API.visitorGets) {
        // The worker's answer: route default's landing test rolled out, the others' own landing.
        const { route } = JSON.parse(String(init?.body)) as { route: string };
        const rolledOut = route === 'default' ? 'one_pager_ai' : undefined;
        return reply(200, {
          ...visitorGetsAnswer('default', ['one_pager', 'signup'], rolledOut),
          route,
        });
      }
      if (url === CONSOLE_API.routeTest && routeTest) {
        tested.push(JSON.parse(String(init?.body)));
        return reply(routeTest.status, routeTest.body);
      }
      if (url === CONSOLE_CONTENT_API.preview) {
        // The landing drawn from the draft, as the worker's content preview draws it.
        const { screen: drawn, route } = JSON.parse(String(init?.body)) as {
          screen: string;
          route: { id: string };
        };
        drawings.push({ screen: drawn, route: route.id });
        return reply(200, {
          ok: true,
          html: `<!doctype html><html><body><main><h1>${drawn} for ${route.id}</h1></main></body></html>`,
          issues: [],
        });
      }
      return reply(404, { ok: false, error: 'bad_request' });
    }),
  );
  return { tested, drawings };
}

/** The Traffic area and the review that publishes its edits. */
function openTrafficAndReview() {
  renderAreas((state) => (
    <>
      <Traffic state={state} />
      <EditPublish state={state} />
    </>
  ));
}

async function openTraffic() {
  openTrafficAndReview();
  await loadConsole();
  const traffic = within(await screen.findByRole('region', { name: 'Traffic' }));
  // The live map only where a test reads it: each role query here walks the whole area.
  const map = () => within(traffic.getByRole('list', { name: 'Live routes in order' }));
  return { traffic, map };
}

/**
 * The Edit and publish area beside Traffic, where the review is. Its buttons are looked for in
 * it, not in the whole page: a role query reads the name of every button it passes, and the
 * Traffic area has the most.
 */
function editArea() {
  return within(screen.getByRole('region', { name: 'Edit and publish' }));
}

/**
 * The draft's route list and its cards in order. A label or role query walks every element of its
 * container, and the Traffic area holds four forms and every route's controls: a card's control
 * is looked for on its card.
 */
function draftRoutes(traffic: ReturnType<typeof within>) {
  const routes = within(traffic.getByRole('list', { name: 'Routes in the draft, in order' }));
  return { routes, cards: routes.getAllByRole('listitem').map((item) => within(item)) };
}

/** The Test a visitor form: its fields and the worker's answer are looked for in it alone. */
function visitorForm(traffic: ReturnType<typeof within>) {
  return within(traffic.getByRole('form', { name: 'Test a visitor' }));
}

/** Review changes, then the lines of the review's list of routes whose plans a link gets. */
async function reviewedLinkPlans(user: ReturnType<typeof userEvent.setup>) {
  const edit = editArea();
  await user.click(edit.getByRole('button', { name: 'Review changes' }));
  const named = await edit.findByRole('list', {
    name: 'Routes whose plans anyone with the link gets',
  });
  return within(named)
    .getAllByRole('listitem')
    .map((item) => item.textContent);
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  // Module-level stores outlive a render: the next test starts with no answer shown.
  $routeTest.set({ kind: 'idle' });
  $routeTestStatus.set('');
});

describe('the traffic map', () => {
  it('shows each route in order with its audience, schedule, pause and exact first visits', async () => {
    const visits: RouteVisitsAnswer = {
      days: 7,
      visits: { tiktok: 120, default: 280 },
      total: 400,
      steps: {},
    };
    stubWorker({ status: 200, body: visits });
    const map = (await openTraffic()).map();
    const cards = map.getAllByRole('article');
    expect(cards.map((card) => card.getAttribute('aria-labelledby'))).toEqual([
      'route-title:tiktok',
      'route-title:weekend',
      'route-title:default',
    ]);
    const [tiktok, weekend, everyone] = cards.map((card) => within(card));
    expect(tiktok!.getByText('TikTok ads in DE')).toBeTruthy();
    expect(tiktok!.getByText(/Flow/).textContent).toBe('Flow lp17ch17pr5, plans quarterly');
    expect(tiktok!.getByText(/first visits/).textContent).toBe(
      '120 of 400 first visits (30%) in the last 7 days.',
    );
    expect(weekend!.getByText('paused')).toBeTruthy();
    expect(weekend!.getByText('Visitors on Sat, Sun')).toBeTruthy();
    expect(weekend!.getByText('From 28 Nov 2026, 00:00 UTC.')).toBeTruthy();
    expect(weekend!.getByText(/first visits/).textContent).toBe(
      '0 of 400 first visits (0%) in the last 7 days.',
    );
    expect(everyone!.getByText('Everyone no route above takes.')).toBeTruthy();
    // What each route's visitors get is the worker's answer, not the route's flow read here.
    expect((await everyone!.findByText(/open with the landing/)).textContent).toBe(
      'Its visitors open with the landing one_pager_ai (AI landing’s ai is rolled out).',
    );
    expect(everyone!.getByRole('list', { name: 'Screens route default shows' }).textContent).toBe(
      'one_pager_ai→signup',
    );
    expect((await tiktok!.findByText(/open with the landing/)).textContent).toBe(
      'Its visitors open with the landing one_pager.',
    );
  });

  it('says there are no counts yet when the visits call fails', async () => {
    stubWorker({ status: 404, body: { ok: false, error: 'bad_request' } });
    const map = (await openTraffic()).map();
    expect(map.getAllByText('No counts yet.')).toHaveLength(3);
  });
});

describe('the route editor', () => {
  it('warns that anyone with the link gets the plans of a route its audience a link can meet', async () => {
    stubWorker({ status: 404, body: {} });
    const { traffic } = await openTraffic();
    const routes = within(traffic.getByRole('list', { name: 'Routes in the draft, in order' }));
    const [tiktok, weekend] = routes.getAllByRole('listitem').map((item) => within(item));
    expect(tiktok!.getByText('Anyone who opens this link gets these plans.')).toBeTruthy();
    // A weekday cannot be put in a link: no warning, even with plans.
    const user = userEvent.setup();
    await user.click(weekend!.getByRole('button', { name: 'Choose plans of route weekend' }));
    await user.click(weekend!.getByLabelText(/^monthly:/));
    expect(weekend!.queryByText('Anyone who opens this link gets these plans.')).toBeNull();
  });

  it('moves a route down with its button; default stays last, so the move stops above it', async () => {
    stubWorker({ status: 404, body: {} });
    const { traffic } = await openTraffic();
    const user = userEvent.setup();
    const { routes } = draftRoutes(traffic);
    const down = routes.getByRole('button', { name: 'Move route tiktok down' });
    await user.click(down);
    expect(routes.getAllByRole('heading').map((heading) => heading.textContent)).toEqual([
      '1. Route weekend paused',
      '2. Route tiktok ',
      '3. Route default ',
    ]);
    expect(
      routes.getByRole('button', { name: 'Move route tiktok down' }).getAttribute('aria-disabled'),
    ).toBe('true');
  });

  it('moves a route down and up, removes one and adds one; Discard edits puts the live ones back', async () => {
    stubWorker({ status: 404, body: {} });
    const { traffic } = await openTraffic();
    const order = () => $draft.get()?.document.routing.routes.map((route) => route.id);
    expect(order()).toEqual(['tiktok', 'weekend', 'default']);
    const { routes } = draftRoutes(traffic);
    fireEvent.click(routes.getByRole('button', { name: 'Move route weekend up' }));
    expect(order()).toEqual(['weekend', 'tiktok', 'default']);
    fireEvent.click(routes.getByRole('button', { name: 'Move route weekend down' }));
    expect(order()).toEqual(['tiktok', 'weekend', 'default']);
    fireEvent.click(routes.getByRole('button', { name: 'Remove route weekend' }));
    expect(order()).toEqual(['tiktok', 'default']);
    const form = within(traffic.getByRole('form', { name: 'Add a route' }));
    fireEvent.change(form.getByLabelText('Route name'), { target: { value: 'google' } });
    fireEvent.click(form.getByRole('button', { name: 'Add route' }));
    expect(order()).toEqual(['tiktok', 'google', 'default']);
    fireEvent.click(editArea().getByRole('button', { name: 'Discard edits' }));
    expect(order()).toEqual(['tiktok', 'weekend', 'default']);
    expect(routes.getAllByRole('heading').map((heading) => heading.textContent)).toEqual([
      '1. Route tiktok ',
      '2. Route weekend paused',
      '3. Route default ',
    ]);
  });

  it('schedules and pauses a route in UTC, into the draft', async () => {
    stubWorker({ status: 404, body: {} });
    const { traffic } = await openTraffic();
    const [tiktok] = draftRoutes(traffic).cards;
    fireEvent.change(tiktok!.getByLabelText('tiktok ends (UTC, optional)'), {
      target: { value: '2026-12-01T06:30' },
    });
    await userEvent.setup().click(tiktok!.getByLabelText('Pause tiktok'));
    expect($draft.get()?.document.routing.routes[0]).toEqual({
      id: 'tiktok',
      audience: 'tiktok_de',
      flow: 'lp17ch17pr5',
      plans: ['quarterly'],
      paused: true,
      schedule: { until: '2026-12-01T06:30Z' },
    });
  });
  it('turns a route’s struck prices and countdown off and on, keeping only what is off', async () => {
    stubWorker({ status: 404, body: {} });
    const { traffic } = await openTraffic();
    const user = userEvent.setup();
    const [card] = draftRoutes(traffic).cards;
    const anchors = card!.getByLabelText('Struck prices and savings on tiktok');
    const countdown = card!.getByLabelText('Offer countdown on tiktok');
    expect([
      (anchors as HTMLInputElement).checked,
      (countdown as HTMLInputElement).checked,
    ]).toEqual([true, true]);
    await user.click(anchors);
    await user.click(countdown);
    const tiktok = () => $draft.get()?.document.routing.routes[0];
    expect(tiktok()).toMatchObject({ id: 'tiktok', anchors: false, countdown: false });
    await user.click(anchors);
    expect(tiktok()).not.toHaveProperty('anchors');
    expect(tiktok()?.countdown).toBe(false);
  });

  it('changes who pays in what for every route and for one route, each over the one before', async () => {
    stubWorker({ status: 404, body: {} });
    const { traffic } = await openTraffic();
    const user = userEvent.setup();
    const everyone = within(traffic.getByRole('group', { name: 'Currencies for every route' }));
    expect(everyone.getByText(/No country changed here/)).toBeTruthy();
    await user.selectOptions(everyone.getByLabelText('Country'), 'CH');
    await user.selectOptions(everyone.getByLabelText('Pays in'), 'EUR');
    await user.click(everyone.getByRole('button', { name: 'Add country' }));
    expect($draft.get()?.document.routing.currencies).toEqual({ CH: 'EUR' });
    // Switzerland pays in francs by default; the route's table says what it paid before it.
    expect(everyone.getByLabelText('Switzerland (CH) pays in (otherwise CHF)')).toBeTruthy();

    const [card] = draftRoutes(traffic).cards;
    const tiktok = within(card!.getByRole('group', { name: 'Currencies of route tiktok' }));
    await user.selectOptions(tiktok.getByLabelText('Country'), 'CH');
    await user.selectOptions(tiktok.getByLabelText('Pays in'), 'USD');
    await user.click(tiktok.getByRole('button', { name: 'Add country' }));
    const route = () => $draft.get()?.document.routing.routes[0];
    expect(route()?.currencies).toEqual({ CH: 'USD' });
    const swiss = tiktok.getByLabelText('Switzerland (CH) pays in (otherwise EUR)');
    await user.selectOptions(swiss, 'GBP');
    expect(route()?.currencies).toEqual({ CH: 'GBP' });
    // A country listed once cannot be added twice.
    expect(
      within(tiktok.getByLabelText('Country')).queryByRole('option', { name: /\(CH\)/ }),
    ).toBeNull();

    await user.click(tiktok.getByRole('button', { name: 'Remove Switzerland (CH)' }));
    expect(route()).not.toHaveProperty('currencies');
    await user.click(everyone.getByRole('button', { name: 'Remove Switzerland (CH)' }));
    expect($draft.get()?.document.routing).not.toHaveProperty('currencies');
  });

  it('adds a route with its upsell tier and guide picked in the add form', async () => {
    stubWorker({ status: 404, body: {} });
    const { traffic } = await openTraffic();
    const user = userEvent.setup();
    const form = within(traffic.getByRole('form', { name: 'Add a route' }));
    await user.type(form.getByLabelText('Route name'), 'bf24');
    await user.click(form.getByText('Choose plans for the new route (optional)'));
    const upsell = within(form.getByRole('group', { name: /^Upsell plans of the new route/ }));
    await user.click(upsell.getByRole('checkbox', { name: /^upsell_monthly_599:/ }));
    const guide = within(form.getByRole('group', { name: /^Guide of the new route/ }));
    await user.click(guide.getByRole('radio', { name: /^guide_899:/ }));
    await user.click(form.getByRole('button', { name: 'Add route' }));
    const routes = $draft.get()?.document.routing.routes ?? [];
    const added = routes.find((route) => route.id === 'bf24');
    expect(added).toMatchObject({
      upsellPlans: ['upsell_monthly_599'],
      guidePlans: ['guide_899'],
    });
    expect(added && 'plans' in added).toBe(false);
    expect(routes.at(-1)?.id).toBe('default');
  });

  it('says on each route card what it sells, its plan pickers closed until opened by keyboard', async () => {
    stubWorker({ status: 404, body: {} });
    const { traffic } = await openTraffic();
    const user = userEvent.setup();
    const routes = within(traffic.getByRole('list', { name: 'Routes in the draft, in order' }));
    const [tiktok, weekend, everyone] = routes.getAllByRole('listitem').map((card) => within(card));
    expect(tiktok!.getByText(/^Plans:/).textContent).toBe(
      'Plans: quarterly: $59.99 every 3 months',
    );
    expect(weekend!.getByText(/^Plans:/).textContent).toBe('Plans: each screen’s own');
    // Closed, no card draws a plan box: a list of controls is not three cards of the same labels.
    expect(routes.queryAllByRole('checkbox', { name: /^quarterly:/ })).toEqual([]);
    expect(routes.queryAllByRole('group', { name: /plans of route/ })).toEqual([]);

    const open = tiktok!.getByRole('button', { name: 'Choose plans of route tiktok' });
    expect(open.getAttribute('aria-expanded')).toBe('false');
    open.focus();
    await user.keyboard('{Enter}');
    expect(open.getAttribute('aria-expanded')).toBe('true');
    expect(
      tiktok!.getAllByRole('group').map((group) => group.querySelector('legend')?.textContent),
    ).toEqual([
      'Main plans of route tiktok (optional; none: each screen’s own)',
      'Upsell plans of route tiktok (optional; none: the upsell’s own, upsell_monthly_999, upsell_quarterly_999)',
      'Guide of route tiktok (optional; none: the guide’s own, guide_899)',
      'Currencies of route tiktok',
    ]);
    // Only the opened card draws its boxes.
    expect(routes.getAllByRole('checkbox', { name: /^quarterly:/ })).toHaveLength(1);
    await user.keyboard(' ');
    expect(open.getAttribute('aria-expanded')).toBe('false');
    expect(tiktok!.queryByRole('group', { name: /^Main plans of route tiktok/ })).toBeNull();

    await user.click(everyone!.getByRole('button', { name: 'Choose plans of route default' }));
    const guide = within(everyone!.getByRole('group', { name: /^Guide of route default/ }));
    await user.click(guide.getByRole('radio', { name: /^guide_1799:/ }));
    expect(everyone!.getByText(/^Plans:/).textContent).toBe(
      'Plans: each screen’s own · Guide: guide_1799: $17.99 once',
    );
  });

  it('picks a route’s upsell tiers and its guide from the catalogue, into the draft', async () => {
    stubWorker({ status: 404, body: {} });
    const { traffic } = await openTraffic();
    const user = userEvent.setup();
    const [tiktok] = draftRoutes(traffic).cards;
    await user.click(tiktok!.getByRole('button', { name: 'Choose plans of route tiktok' }));
    const upsell = within(tiktok!.getByRole('group', { name: /^Upsell plans of route tiktok/ }));
    await user.click(upsell.getByRole('checkbox', { name: /^upsell_monthly_799:/ }));
    await user.click(upsell.getByRole('checkbox', { name: /^upsell_quarterly_799:/ }));
    const guide = within(tiktok!.getByRole('group', { name: /^Guide of route tiktok/ }));
    await user.click(guide.getByRole('radio', { name: /^guide_1799: \$17\.99 once/ }));
    expect($draft.get()?.document.routing.routes[0]).toMatchObject({
      id: 'tiktok',
      plans: ['quarterly'],
      upsellPlans: ['upsell_monthly_799', 'upsell_quarterly_799'],
      guidePlans: ['guide_1799'],
    });
    // Back to the screens' own: the lists are left out, not emptied.
    await user.click(upsell.getByRole('checkbox', { name: /^upsell_monthly_799:/ }));
    await user.click(upsell.getByRole('checkbox', { name: /^upsell_quarterly_799:/ }));
    await user.click(guide.getByRole('radio', { name: 'The screen’s own' }));
    const route = $draft.get()?.document.routing.routes[0];
    expect(route && 'upsellPlans' in route).toBe(false);
    expect(route && 'guidePlans' in route).toBe(false);
  });
});

describe('a new route on a guarded ramp', () => {
  /** The weekend route on a ramp rolled back by the cron, its reason said. */
  const ROLLED_BACK: RampStatusAnswer = {
    status: 'rolled_back',
    step: 0,
    steps: 2,
    coverage: 0,
    since: '2026-11-29T09:15:00.000Z',
    reason: 'broken: declines (6.00% against 3.00%)',
    gate: null,
    alpha: 0.0167,
    guardrails: [
      { guardrail: 'declines', action: 'rollback', broken: true, detail: '6.00% against 3.00%' },
    ],
  };

  /** Live: the weekend route unpaused on a ramp, whose results say `answer`. */
  function rampedState(): ConsoleState {
    const state = routedState();
    state.live.routing.routes[1] = {
      id: 'weekend',
      audience: 'weekend',
      flow: 'default',
      ramp: {
        steps: [
          { coverage: 0.05, holdHours: 24, minPerArm: 500 },
          { coverage: 0.5, holdHours: 0, minPerArm: 0 },
        ],
        state: {
          step: 0,
          since: ROLLED_BACK.since,
          status: 'rolled_back',
          reason: ROLLED_BACK.reason!,
        },
      },
    };
    return state;
  }

  it('shows on its card where the ramp stands and why, read from the route’s results', async () => {
    const asked: string[] = [];
    stubWorker(
      { status: 200, body: { days: 7, visits: {}, total: 0, steps: {} } },
      undefined,
      undefined,
      {
        state: rampedState(),
        results: (url) => {
          asked.push(url);
          return { status: 200, body: { ...experimentAnswer(), ramp: ROLLED_BACK } };
        },
      },
    );
    await openTraffic();
    const ramp = within(
      await screen.findByRole('region', { name: 'Guarded ramp of route weekend' }),
    );
    expect((await ramp.findByText(/^Rolled back/)).textContent).toBe(
      'Rolled back at step 1 of 2 (2026-11-29 09:15 UTC): the route takes no one (its visitors get the route they would get without it), and every exposure recorded stays in these results.',
    );
    expect(ramp.getByText(/^Reason:/).textContent).toBe(
      'Reason: broken: declines (6.00% against 3.00%)',
    );
    expect(ramp.getByRole('table', { name: /^Guardrails of the ramp/ })).toBeTruthy();
    expect(asked).toEqual([`${CONSOLE_EXPERIMENTS_PATH}/route%3Aweekend/results`]);
    // No other route has a ramp, so no other card asks.
    expect(screen.getAllByRole('region', { name: /^Guarded ramp of route/ })).toHaveLength(1);
  });

  it('holds the route’s ramp from its card: the route’s words, one version, said on the card', async () => {
    const running: RampStatusAnswer = {
      ...ROLLED_BACK,
      status: 'running',
      coverage: 0.05,
      since: '2026-11-29T09:15:00.000Z',
      reason: null,
      gate: null,
      guardrails: [],
    };
    const asked: string[] = [];
    const moves: { url: string; body: unknown }[] = [];
    let shown = running;
    const state = rampedState();
    state.live.routing.routes[1]!.ramp!.state = {
      step: 0,
      since: running.since,
      status: 'running',
    };
    stubWorker(
      { status: 200, body: { days: 7, visits: {}, total: 0, steps: {} } },
      undefined,
      undefined,
      {
        state,
        results: (url) => {
          asked.push(url);
          return { status: 200, body: { ...experimentAnswer(), ramp: shown } };
        },
      },
    );
    const fetched = vi.mocked(fetch);
    const original = fetched.getMockImplementation()!;
    fetched.mockImplementation(async (url, init) => {
      if (String(url).endsWith('/ramp')) {
        moves.push({ url: String(url), body: JSON.parse(String(init?.body)) });
        shown = { ...running, status: 'held', reason: 'tickets up' };
        return new Response(JSON.stringify({ ok: true, version: { id: 'v7', seq: 7 } }), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        });
      }
      return original(url as string, init);
    });
    await openTraffic();
    const ramp = within(
      await screen.findByRole('region', { name: 'Guarded ramp of route weekend' }),
    );
    await ramp.findByText(/^Running, step 1 of 2/);
    expect(ramp.getAllByRole('button').map((button) => button.textContent)).toEqual([
      'Hold the ramp of route weekend…',
      'Roll back the ramp of route weekend…',
    ]);
    const user = userEvent.setup();
    await user.click(ramp.getByRole('button', { name: 'Hold the ramp of route weekend…' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Hold the ramp of route weekend?' }));
    dialog.getByText(
      /^The ramp stays at its step: the visitors its band takes keep getting the route/,
    );
    await user.type(dialog.getByLabelText(/^Why/), 'tickets up');
    await user.click(dialog.getByRole('button', { name: 'Hold the ramp of route weekend' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(moves).toEqual([
      {
        url: `${CONSOLE_EXPERIMENTS_PATH}/route%3Aweekend/ramp`,
        body: {
          move: 'hold',
          reason: 'tickets up',
          seen: { status: 'running', since: running.since },
        },
      },
    ]);
    // Read again: the card says the ramp is held, and offers Resume.
    await ramp.findByText(/^Held, step 1 of 2/);
    expect(ramp.getByRole('button', { name: 'Resume the ramp of route weekend…' })).toBeTruthy();
    const status = ramp.getByRole('status');
    expect(status.textContent).toBe('Held the ramp of route weekend: published v7.');
    await waitFor(() => expect(document.activeElement).toBe(status));
    // Once on opening, once after the move.
    expect(asked).toEqual(Array(2).fill(`${CONSOLE_EXPERIMENTS_PATH}/route%3Aweekend/results`));
  });

  it('says a ramp only in the draft is not live yet, and a failed read why', async () => {
    stubWorker(
      { status: 200, body: { days: 7, visits: {}, total: 0, steps: {} } },
      undefined,
      undefined,
      {
        state: rampedState(),
        results: () => ({ status: 404, body: { ok: false, error: 'unknown_experiment' } }),
      },
    );
    await openTraffic();
    const ramp = within(
      await screen.findByRole('region', { name: 'Guarded ramp of route weekend' }),
    );
    expect(
      await ramp.findByText('Not live yet: the ramp starts when the draft is published.'),
    ).toBeTruthy();
    cleanup();
    stubWorker(
      { status: 200, body: { days: 7, visits: {}, total: 0, steps: {} } },
      undefined,
      undefined,
      {
        state: rampedState(),
        // An answer the console cannot read (a gateway's page, say): said, not drawn as no ramp.
        results: () => ({ status: 502, body: 'Bad gateway' }),
      },
    );
    await openTraffic();
    const failed = within(
      await screen.findByRole('region', { name: 'Guarded ramp of route weekend' }),
    );
    expect((await failed.findByText(/^Its guardrails could not be read: /)).textContent).toBe(
      'Its guardrails could not be read: The worker answered something the console cannot read. If your sign-in expired, reload the page.',
    );
  });
});

describe('the audiences', () => {
  it('edits a saved audience in the form and saves it into the draft, its sentence updated', async () => {
    stubWorker({ status: 404, body: {} });
    const { traffic } = await openTraffic();
    const user = userEvent.setup();
    const saved = within(traffic.getByRole('list', { name: 'Saved audiences' }));
    expect(saved.getByText('Used by weekend.')).toBeTruthy();
    await user.click(saved.getByRole('button', { name: 'Edit the audience weekend' }));
    const form = within(traffic.getByRole('form', { name: 'Edit the audience weekend' }));
    await user.click(form.getByRole('button', { name: 'Remove sat from condition 1' }));
    await user.click(form.getByRole('button', { name: 'Save audience' }));
    expect($draft.get()?.document.routing.audiences.weekend).toEqual({
      groups: [[{ attribute: 'weekday', operator: 'in', values: ['sun'] }]],
    });
    expect(saved.getByText('Visitors on Sun')).toBeTruthy();
    expect(traffic.getByRole('form', { name: 'New audience' })).toBeTruthy();
  });

  it('refuses a new audience under a name that is taken, or with a condition without values', async () => {
    stubWorker({ status: 404, body: {} });
    const { traffic } = await openTraffic();
    const user = userEvent.setup();
    const form = within(traffic.getByRole('form', { name: 'New audience' }));
    await user.type(form.getByLabelText('Audience name'), 'weekend');
    await user.click(form.getByRole('button', { name: 'Save audience' }));
    expect(form.getByRole('alert').textContent).toBe(
      'weekend is an audience already: edit it above.',
    );
    await user.clear(form.getByLabelText('Audience name'));
    await user.type(form.getByLabelText('Audience name'), 'nights');
    await user.click(form.getByRole('button', { name: 'Save audience' }));
    expect(form.getByRole('alert').textContent).toBe('Add at least one value to each condition.');
    expect(Object.keys($draft.get()?.document.routing.audiences ?? {})).toEqual([
      'tiktok_de',
      'weekend',
    ]);
  });
});

describe('the review', () => {
  it('lists the check’s warnings, which do not stop the publish', async () => {
    stubWorker(
      { status: 404, body: {} },
      {
        ok: true,
        diff: [{ path: 'routing.routes.1.paused', kind: 'changed', before: true, after: false }],
        phase: null,
        warnings: [
          { path: 'routing.routes.1', message: 'the route tiktok above takes all its visitors' },
        ],
      },
    );
    await openTraffic();
    const edit = editArea();
    await userEvent.setup().click(edit.getByRole('button', { name: 'Review changes' }));
    expect(
      (await edit.findByText('the route tiktok above takes all its visitors', { exact: false }))
        .textContent,
    ).toBe('Route 2: the route tiktok above takes all its visitors routing.routes.1');
    expect(edit.getByRole('button', { name: 'Publish' })).toBeTruthy();
  });

  it('names each route whose plans anyone with its link gets, and how far a country holds them', async () => {
    stubWorker(
      { status: 404, body: {} },
      {
        ok: true,
        diff: [{ path: 'routing.routes.1.paused', kind: 'changed', before: true, after: false }],
        phase: null,
        warnings: [],
      },
    );
    const { traffic } = await openTraffic();
    const user = userEvent.setup();
    // The weekend route gets plans too: a weekday cannot be typed, so it is not named.
    const routes = within(traffic.getByRole('list', { name: 'Routes in the draft, in order' }));
    const weekend = within(routes.getAllByRole('listitem')[1]!);
    await user.click(weekend.getByRole('button', { name: 'Choose plans of route weekend' }));
    await user.click(weekend.getByLabelText(/^monthly:/));
    expect(await reviewedLinkPlans(user)).toEqual([
      'Route tiktok (plans quarterly): Anyone who opens this link gets these plans. Source, UTM tags, entry alias and click ids are typed into links, not verified. Kept to DE: its audience also requires the country, which comes from the visitor’s IP address, not from the link (a VPN can still change it).',
    ]);
    expect(editArea().getByRole('button', { name: 'Publish' })).toBeTruthy();
  });
});

describe('a route on paid TikTok clicks', () => {
  it('takes an audience of TikTok ads with TikTok’s click id, a route with its plan, and warns of it', async () => {
    const answer: RouteTestAnswer = {
      route: 'tiktok_paid',
      flow: 'lp17ch17pr5',
      plans: ['quarterly'],
      upsellPlans: null,
      guidePlans: null,
      passed: [],
      source: 'tiktok · click id tiktok · utm_source=tiktok',
      preview: '/console/preview?utm_source=tiktok&route=r.x.1.y',
      gets: visitorGetsAnswer('lp17ch17pr5', ['one_pager_all', 'signup_testim']),
      previewRoute: { id: 'tiktok_paid', flow: 'lp17ch17pr5', plans: ['quarterly'] },
    };
    const { tested } = stubWorker(
      { status: 404, body: {} },
      {
        ok: true,
        diff: [{ path: 'routing.routes.0', kind: 'added', after: { id: 'tiktok_paid' } }],
        phase: null,
        warnings: [],
      },
      { status: 200, body: answer },
      { state: consoleState() },
    );
    // The Traffic area and the review alone: the whole console would draw every area again
    // at each step.
    await loadConsole();
    openTrafficAndReview();
    const traffic = within(screen.getByRole('region', { name: 'Traffic' }));
    const user = userEvent.setup();

    // The audience: source TikTok, and a TikTok click id, with pickers only (names pasted: each
    // key typed would draw the whole console again). Its fields are looked for in its form: a
    // label query reads the labels of every field it passes.
    const audience = within(traffic.getByRole('form', { name: 'New audience' }));
    await user.click(audience.getByLabelText('Audience name'));
    await user.paste('tiktok_paid');
    await user.selectOptions(audience.getByLabelText('Source to add to condition 1'), 'tiktok');
    await user.click(audience.getByRole('button', { name: 'Add value to condition 1' }));
    await user.click(audience.getByRole('button', { name: 'Add a condition' }));
    const attribute = audience.getByLabelText('Attribute of condition 2');
    const clickIdOption = within(attribute).getByRole('option', { name: 'Ad click id' });
    await user.selectOptions(attribute, clickIdOption);
    const network = audience.getByLabelText('Ad click id to add to condition 2');
    expect(
      within(network)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual([
      'Meta (fbclid)',
      'TikTok (ttclid)',
      'Google (gclid, gbraid, wbraid)',
      'None (no click id in the link)',
    ]);
    await user.selectOptions(
      network,
      within(network).getByRole('option', { name: 'TikTok (ttclid)' }),
    );
    await user.click(audience.getByRole('button', { name: 'Add value to condition 2' }));
    expect(audience.getByRole('list', { name: 'Values of condition 2' }).textContent).toBe(
      'TikTok (ttclid) ×',
    );
    await user.click(audience.getByRole('button', { name: 'Save audience' }));
    const saved = within(traffic.getByRole('list', { name: 'Saved audiences' }));
    expect(saved.getByText('TikTok ads with a TikTok click id')).toBeTruthy();
    expect($draft.get()?.document.routing.audiences.tiktok_paid).toEqual({
      groups: [
        [
          { attribute: 'source', operator: 'in', values: ['tiktok'] },
          { attribute: 'click_id', operator: 'in', values: ['tiktok'] },
        ],
      ],
    });

    // The route, with the quarterly plan: whoever opens its link gets the plan.
    const add = within(traffic.getByRole('form', { name: 'Add a route' }));
    await user.click(add.getByLabelText('Route name'));
    await user.paste('tiktok_paid');
    await user.selectOptions(add.getByLabelText('Flow of the new route'), 'lp17ch17pr5');
    await user.click(add.getByRole('button', { name: 'Add route' }));
    const route = draftRoutes(traffic).cards[0]!;
    await user.click(route.getByRole('button', { name: 'Choose plans of route tiktok_paid' }));
    await user.click(route.getByRole('checkbox', { name: /^quarterly:/ }));
    expect(route.getByText('Anyone who opens this link gets these plans.')).toBeTruthy();

    // A visitor with TikTok's click id, against the draft (the worker's answer to which is
    // test/worker/console/route-test.test.ts's "the click id of a test visitor").
    const test = visitorForm(traffic);
    await user.click(test.getByLabelText('Ad link'));
    await user.paste('https://funnel.example/?utm_source=tiktok');
    await user.selectOptions(test.getByLabelText('Ad click id', { exact: true }), 'tiktok');
    await user.click(test.getByRole('button', { name: 'Test visitor' }));
    expect(await test.findByText('This visitor gets route tiktok_paid.')).toBeTruthy();
    expect(tested).toMatchObject([
      {
        link: 'https://funnel.example/?utm_source=tiktok',
        clickId: 'tiktok',
        document: $draft.get()?.document,
      },
    ]);
    expect(test.getByText(/^The link reads as:/).textContent).toContain('tiktok · click id tiktok');

    // The review, before publishing: the plan goes to whoever opens the link, from anywhere.
    expect(await reviewedLinkPlans(user)).toEqual([
      'Route tiktok_paid (plans quarterly): Anyone who opens this link gets these plans. Source, UTM tags, entry alias and click ids are typed into links, not verified. A link alone is enough, from anywhere: require a country in the audience too to keep the plans where you buy the ads.',
    ]);
    // It does not stop the publish.
    expect(editArea().getByRole('button', { name: 'Publish' })).toBeTruthy();
  });
});

describe('testing a visitor', () => {
  const LINK = 'https://funnel.example/?utm_source=tiktok&ttclid=x';

  /** The ad link pasted into its field, as a marketer copies it from the ad: one input, not 52. */
  async function pasteLink(
    user: ReturnType<typeof userEvent.setup>,
    test: ReturnType<typeof visitorForm>,
  ) {
    await user.click(test.getByLabelText('Ad link'));
    await user.paste(LINK);
  }

  it('sends the link, the visitor and the draft routing, and shows the route, why and the preview', async () => {
    const answer: RouteTestAnswer = {
      route: 'default',
      flow: 'default',
      plans: null,
      upsellPlans: null,
      guidePlans: null,
      passed: [
        { id: 'tiktok', why: 'audience "tiktok_de" does not match' },
        { id: 'weekend', why: 'paused' },
      ],
      source: 'tiktok · utm_source=tiktok',
      preview: '/console/preview?utm_source=tiktok&route=r.x.1.y',
      gets: visitorGetsAnswer('default', ['one_pager', 'searching', 'signup'], 'one_pager_ai'),
      previewRoute: { id: 'default', flow: 'default', plans: null },
    };
    const { tested, drawings } = stubWorker({ status: 404, body: {} }, undefined, {
      status: 200,
      body: answer,
    });
    const { traffic } = await openTraffic();
    const test = visitorForm(traffic);
    const user = userEvent.setup();
    await pasteLink(user, test);
    await user.selectOptions(test.getByLabelText('Visitor’s country'), 'FR');
    await user.selectOptions(test.getByLabelText('Platform'), 'android');
    await user.selectOptions(test.getByLabelText('Opened in the app'), 'tiktok');
    await user.selectOptions(test.getByLabelText('New or returning'), 'returning');
    await user.selectOptions(test.getByLabelText('Ad click id'), 'none');
    await user.click(test.getByRole('button', { name: 'Test visitor' }));
    expect(await test.findByText('This visitor gets route default.')).toBeTruthy();
    expect(tested).toEqual([
      {
        link: LINK,
        country: 'FR',
        platform: 'android',
        app: 'tiktok',
        language: 'en',
        clickId: 'none',
        returning: true,
        document: $draft.get()?.document,
      },
    ]);
    const why = test.getByRole('list', {
      name: 'Why each earlier route did not take the visitor',
    });
    expect(why.textContent).toBe('tiktok: audience "tiktok_de" does not matchweekend: paused');
    // What the edge serves there, as the worker answered: the rolled-out winner's landing.
    expect(test.getByText(/this visitor gets route/).textContent).toBe(
      'Against your draft, this visitor gets route default: flow default, opens with the landing one_pager_ai.',
    );
    expect(test.getByRole('list', { name: 'The visitor’s experiments' }).textContent).toBe(
      'AI landing: ai (rolled out)',
    );
    const preview = test.getByRole('link', { name: /Preview route default/ });
    expect(preview.getAttribute('href')).toBe(answer.preview);
    // Opened beside the console, which keeps the marketer's place.
    expect(preview.getAttribute('target')).toBe('_blank');
    // The landing, drawn by the worker from the draft as the route serves it (the preview link
    // opens the live funnel, which does not have what the draft adds).
    const frame = await test.findByTitle(
      'The landing one_pager_ai as this visitor sees it, from your draft',
    );
    expect(frame.getAttribute('srcdoc')).toContain('<h1>one_pager_ai for default</h1>');
    expect(drawings).toEqual([{ screen: 'one_pager_ai', route: 'default' }]);
  });

  it('says why there is no preview link when the route is more than a preview cookie holds', async () => {
    const answer: RouteTestAnswer = {
      route: 'euro_zone',
      flow: 'default',
      plans: null,
      upsellPlans: null,
      guidePlans: null,
      passed: [],
      source: 'direct',
      preview: '',
      previewTooLarge: true,
      gets: visitorGetsAnswer('euro_zone', ['one_pager', 'searching', 'signup'], 'one_pager'),
      previewRoute: { id: 'euro_zone', flow: 'default', plans: null },
    };
    stubWorker({ status: 404, body: {} }, undefined, { status: 200, body: answer });
    const { traffic } = await openTraffic();
    const test = visitorForm(traffic);
    const user = userEvent.setup();
    await pasteLink(user, test);
    await user.click(test.getByRole('button', { name: 'Test visitor' }));
    expect(await test.findByText(/^No preview link: route euro_zone carries more/)).toBeTruthy();
    expect(traffic.queryByRole('link', { name: /Preview route/ })).toBeNull();
    expect(traffic.queryByText(/Previews are not set up/)).toBeNull();
  });

  it('says the draft cannot be tested while it is refused', async () => {
    stubWorker({ status: 404, body: {} }, undefined, {
      status: 400,
      body: {
        ok: false,
        error: 'invalid_config',
        errors: [
          {
            path: 'routing.routes.0.audience',
            message: 'names audience "x", which is not defined',
          },
        ],
      },
    });
    const { traffic } = await openTraffic();
    const test = visitorForm(traffic);
    const user = userEvent.setup();
    await pasteLink(user, test);
    await user.click(test.getByRole('button', { name: 'Test visitor' }));
    const alert = await traffic.findByRole('alert');
    expect(alert.textContent).toContain('The draft was refused, so it cannot be tested.');
    expect(alert.textContent).toContain(
      'Route 1, audience: names audience "x", which is not defined',
    );
  });
});
