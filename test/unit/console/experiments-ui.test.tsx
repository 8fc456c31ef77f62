// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  $experimentResults,
  $experimentsStatus,
  NO_EXPERIMENT_RESULTS,
} from '../../../console/experiments/stores/experiments';
import { $draft, duplicateExperiment } from '../../../console/kit/stores/draft';
import { openPage } from '../../../console/kit/stores/page';
import { loadConsole } from '../../../console/kit/stores/publishing';
import { CurrentPage } from '../../../console/page/Console';
import { parseExperiments } from '../../../shared/config/experiments';
import {
  type CheckAnswer,
  CONSOLE_API,
  type ConsoleState,
  type PublishRequest,
} from '../../../shared/console-api/config';
import {
  type AdjustedComparison,
  CONSOLE_EXPERIMENTS_PATH,
  type ExperimentResultsAnswer,
} from '../../../shared/console-api/experiment-results';
import { rampMovePath } from '../../../shared/console-api/ramp-status';
import { CONSOLE_RESULTS_PATH } from '../../../shared/console-api/results';
import type { RouteVisitsAnswer } from '../../../shared/console-api/routes';
import { AFTER_EXPOSURE_CAUTION } from '../../../worker/experiments/results/segment-results';
import { quickRampStarted } from '../../fixtures/quick-ramp-start';
import { NAME_QUESTION, WHO_QUESTION } from '../../fixtures/quiz-questions';
import { renderAreas } from './areas';
import { plansResults, priceResults, saveOfferResults } from './experiment-fixtures';
import { consoleState, resultsAnswer } from './fixtures';

/**
 * The experiments area drawn from the worker's answers (shared/console-api/): one
 * experiment's results as ExperimentResultsAnswer says them, its segments, and the decision
 * dialog built on them.
 */

const RESULTS = `${CONSOLE_EXPERIMENTS_PATH}/landing-all/results`;

/** An adjusted comparison whose interval is a tenth narrower than the plain one's. */
const NARROWER_BY_A_TENTH: AdjustedComparison = {
  absoluteLift: 0.004,
  absoluteInterval: { lower: 0.001, upper: 0.007 },
  relativeLift: 0.08,
  relativeInterval: { lower: 0.02, upper: 0.15 },
  pValue: 0.01,
  strata: 12,
  widthRatio: 0.9,
};

const NO_VISITS: RouteVisitsAnswer = { days: 7, visits: {}, total: 0, steps: {} };

function stubWorker(
  results: (url: string) => ExperimentResultsAnswer | null,
  visits: RouteVisitsAnswer = NO_VISITS,
  check: (request: PublishRequest) => { status: number; body: unknown } = () => ({
    status: 404,
    body: { ok: false, error: 'bad_request' },
  }),
  state: ConsoleState = consoleState(),
) {
  const asked: string[] = [];
  const checked: PublishRequest[] = [];
  const reply = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      if (url === CONSOLE_API.check) {
        const request = JSON.parse(String(init?.body)) as PublishRequest;
        checked.push(request);
        const answer = check(request);
        return reply(answer.status, answer.body);
      }
      if (url === CONSOLE_API.state) return reply(200, state);
      if (url === CONSOLE_API.versions) return reply(200, { versions: [] });
      if (url === CONSOLE_RESULTS_PATH) return reply(200, resultsAnswer());
      if (url === CONSOLE_API.routeVisits) return reply(200, visits);
      if (url.startsWith(RESULTS)) {
        asked.push(url);
        const answer = results(url);
        return answer ? reply(200, answer) : reply(404, { ok: false, error: 'bad_request' });
      }
      return reply(404, { ok: false, error: 'bad_request' });
    }),
  );
  return { asked, checked };
}

/** The Experiments page, as the console draws the page its address names. */
async function openArea() {
  openPage('experiments');
  renderAreas((state) => <CurrentPage state={state} />);
  await loadConsole();
  return within(await screen.findByRole('region', { name: 'Experiments' }));
}

/** The ids a control's aria-describedby names, as the texts a screen reader says. */
const describedBy = (control: HTMLElement) =>
  (control.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent);

/** A table's rows as their texts, its header row first. */
const rowTexts = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .map((row) => row.textContent);

afterEach(() => {
  openPage('overview');
  cleanup();
  vi.unstubAllGlobals();
  $experimentResults.set(NO_EXPERIMENT_RESULTS);
  $experimentsStatus.set('');
  $draft.set(null);
});

describe('one experiment’s results', () => {
  it('shows a guarded ramp’s standing above the variants when the answer has one', async () => {
    const ramp: NonNullable<ExperimentResultsAnswer['ramp']> = {
      status: 'held',
      step: 1,
      steps: 3,
      coverage: 0.25,
      since: '2026-12-01T09:00:00.000Z',
      reason: 'broken: lcp (the variant’s LCP is significantly slower)',
      gate: null,
      alpha: 0.05 / 3,
      guardrails: [{ guardrail: 'lcp', action: 'hold', broken: true, detail: 'slower' }],
    };
    stubWorker(() => ({ ...priceResults(), ramp }));
    const area = await openArea();
    fireEvent.click(area.getByRole('button', { name: 'Results of All-in-one landing' }));
    const section = await area.findByRole('region', { name: 'Guarded ramp' });
    expect(within(section).getByText(/^Held, step 2 of 3/)).toBeTruthy();
    // Held: it can be resumed or rolled back, not held again.
    expect(
      within(section)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Resume the ramp of Price US…', 'Roll back the ramp of Price US…']);
    expect(within(section).getByRole('row', { name: /Page loading \(LCP\)/ }).textContent).toBe(
      'Page loading (LCP)holdsBrokenslower',
    );
  });

  it('holds or rolls back a live ramp with a reason, published at once, and says a refusal in the dialog', async () => {
    const ramp: NonNullable<ExperimentResultsAnswer['ramp']> = {
      status: 'running',
      step: 0,
      steps: 2,
      coverage: 0.05,
      since: '2026-12-01T09:00:00.000Z',
      reason: null,
      gate: null,
      alpha: 0.05 / 3,
      guardrails: [],
    };
    stubWorker(() => ({ ...priceResults(), ramp }));
    const answers = [
      { status: 409, body: { ok: false, error: 'ramp_changed' } },
      { status: 200, body: { ok: true, version: { seq: 3, id: 'v3' } } },
    ];
    const sent: unknown[] = [];
    const inner = globalThis.fetch;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        if (url !== rampMovePath('landing-all')) return inner(url, init);
        sent.push(JSON.parse(String(init?.body)));
        const answer = answers.shift()!;
        return new Response(JSON.stringify(answer.body), {
          status: answer.status,
          headers: { 'content-type': 'application/json' },
        });
      }),
    );
    const area = await openArea();
    fireEvent.click(area.getByRole('button', { name: 'Results of All-in-one landing' }));
    const section = within(await area.findByRole('region', { name: 'Guarded ramp' }));
    expect(section.getAllByRole('button').map((b) => b.textContent)).toEqual([
      'Hold the ramp of Price US…',
      'Roll back the ramp of Price US…',
    ]);
    fireEvent.click(section.getByRole('button', { name: /^Roll back the ramp/ }));
    const dialog = within(screen.getByRole('dialog', { name: /^Roll back the ramp/ }));
    dialog.getByText(/^The variant reaches no one/);
    dialog.getByText(/^Every visitor’s record stays/);
    const confirm = dialog.getByRole('button', {
      name: 'Roll back the ramp of Price US',
    });
    fireEvent.click(confirm);
    const reason = dialog.getByLabelText(/^Why/);
    expect(describedBy(reason)).toContain(
      'Say why: it is kept as the ramp’s reason and the version’s note.',
    );
    expect(sent).toEqual([]);
    fireEvent.change(reason, { target: { value: 'checkout broken' } });
    fireEvent.click(confirm);
    await dialog.findByText(/^The ramp moved since this page showed it/);
    fireEvent.click(confirm);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent).toEqual([
      {
        move: 'rollback',
        reason: 'checkout broken',
        seen: { status: 'running', since: '2026-12-01T09:00:00.000Z' },
      },
      {
        move: 'rollback',
        reason: 'checkout broken',
        seen: { status: 'running', since: '2026-12-01T09:00:00.000Z' },
      },
    ]);
    expect($experimentsStatus.get()).toBe('Rolled back the ramp of Price US: published v3.');
  });

  it('shows only the metrics after the trigger, reach, guardrails, and no verdict before the mature sample', async () => {
    const { asked } = stubWorker(() => priceResults());
    const area = await openArea();
    fireEvent.click(area.getByRole('button', { name: 'Results of All-in-one landing' }));
    await area.findByRole('heading', { name: 'Results of Price US' });
    expect(asked).toEqual([RESULTS]);
    expect(
      area.getByText(/^No verdict until the mature sample reaches 5,000 per variant\./),
    ).toBeTruthy();
    expect(area.getByText(/^No verdict until/).closest('p')?.textContent).toBe(
      'No verdict until the mature sample reaches 5,000 per variant. A price test is judged on net revenue of visitors exposed at least 10 days ago, once renewals and refunds are in; now b cheaper intro has 400, a has 400.',
    );
    expect(area.getByText(/^Reach:/).textContent).toContain('2,000 exposed of at most 5,200');
    expect(area.getByText(/^Counted where the variants first differ/).textContent).toBe(
      'Counted where the variants first differ — route default: at checkout_v3_tr.',
    );
    const table = area.getByRole('table', { name: 'b cheaper intro against a' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getByRole('rowheader').textContent)).toEqual([
      'Checkout secondary',
      'Purchase secondary',
      'Revenue per visitor secondary',
      'Upsell secondary',
      'Net revenue per visitor secondary',
      'Mature net revenue per visitor primary',
    ]);
    // Better in the answer, but the price test's verdicts wait for the mature sample.
    expect(within(table).queryByText('better')).toBeNull();
    expect(within(table).getAllByRole('row')[6]!.textContent).toContain('$1.21');
    expect(
      area.getByRole('table', { name: /^Guardrails of b cheaper intro/ }).textContent,
    ).toContain('Payment declined3 (0.3%)');
    const csv = area.getByRole('link', { name: 'Download as CSV' });
    expect(csv.getAttribute('href')).toBe(`${RESULTS}?format=csv`);
  });

  it('shows the lift adjusted for what is known at exposure beside the plain one, under a header a screen reader says', async () => {
    const answer = plansResults();
    const b = answer.variants[0]!.metrics;
    b.find((m) => m.metric === 'purchase')!.adjusted = NARROWER_BY_A_TENTH;
    b.find((m) => m.metric === 'revenue')!.adjusted = null;
    // Adjusted, but no narrower: nothing is said of it.
    b.find((m) => m.metric === 'checkout')!.adjusted = {
      ...NARROWER_BY_A_TENTH,
      widthRatio: 0.998,
    };
    b.find((m) => m.metric === 'upsell')!.adjusted = { ...NARROWER_BY_A_TENTH, widthRatio: 1.2 };
    stubWorker(() => answer);
    const area = await openArea();
    fireEvent.click(area.getByRole('button', { name: 'Results of All-in-one landing' }));
    const table = await area.findByRole('table', { name: 'b cheaper intro against a' });
    const header = within(table).getByRole('columnheader', { name: /^Adjusted lift/ });
    expect(header.textContent).toBe('Adjusted lift (for country, source, platform, language)');
    const cell = (metric: string) => {
      const row = within(table).getByRole('row', { name: new RegExp(`^${metric}`) });
      return within(row).getAllByRole('cell').at(-1)!.textContent;
    };
    expect(cell('Purchase')).toBe('+8% (+2% to +15%), 10% narrower');
    expect(cell('Checkout')).toBe('');
    expect(cell('Upsell')).toBe('');
    expect(cell('Revenue per visitor')).toBe('');
    expect(cell('Net revenue per visitor')).toBe('');
    expect(within(table).queryByText(/as wide|wider|not yet/)).toBeNull();
    // The control's own table, and a variant whose answer has none, show no such column.
    const control = area.getByRole('table', { name: 'a (control)' });
    expect(within(control).queryByRole('columnheader', { name: /^Adjusted lift/ })).toBeNull();
  });

  it('says there is nothing to compare the reach with, never “of at most 0”, when no first visit was counted on its routes', async () => {
    const answer = plansResults();
    answer.reach = { exposed: 2000, expectedAtMost: 0 };
    stubWorker(() => answer);
    const area = await openArea();
    fireEvent.click(area.getByRole('button', { name: 'Results of All-in-one landing' }));
    const reach = await area.findByText(/^Reach:/);
    expect(reach.textContent).toBe(
      'Reach: 2,000 exposed; no first visits on its routes yet to compare with.',
    );
    expect(area.queryByText(/of at most/)).toBeNull();
  });

  it('shows no adjusted column, and says nothing of it, where it narrows no interval', async () => {
    const answer = plansResults();
    for (const metric of answer.variants[0]!.metrics) {
      metric.adjusted = { ...NARROWER_BY_A_TENTH, widthRatio: 1 };
    }
    stubWorker(() => answer);
    const area = await openArea();
    fireEvent.click(area.getByRole('button', { name: 'Results of All-in-one landing' }));
    const table = await area.findByRole('table', { name: 'b cheaper intro against a' });
    expect(within(table).queryByRole('columnheader', { name: /^Adjusted lift/ })).toBeNull();
    expect(within(table).queryByText(/as wide/)).toBeNull();
  });

  it('shows no adjusted column where the answer adjusts nothing', async () => {
    stubWorker(() => plansResults());
    const area = await openArea();
    fireEvent.click(area.getByRole('button', { name: 'Results of All-in-one landing' }));
    const table = await area.findByRole('table', { name: 'b cheaper intro against a' });
    expect(within(table).queryByRole('columnheader', { name: /^Adjusted lift/ })).toBeNull();
  });

  it('shows each variant’s failed renewals, recoveries and recovered revenue, and none when no renewal failed', async () => {
    const answer = plansResults();
    answer.variants[1]!.recovery = { renewalFailed: 0, recovered: 0, revenue: [] };
    stubWorker(() => answer);
    const area = await openArea();
    fireEvent.click(area.getByRole('button', { name: 'Results of All-in-one landing' }));
    const table = await area.findByRole('table', { name: 'Failed renewals of b cheaper intro' });
    const rows = within(table).getAllByRole('row');
    expect(rows.map((row) => row.textContent)).toEqual([
      'Buyers with a renewal declined12',
      'Of them, paid afterwards (recovered)7',
      expect.stringMatching(/^Recovered revenue, USD\$279\.93 \(7 renewals\)$/),
    ]);
    expect(area.queryByRole('table', { name: 'Failed renewals of a' })).toBeNull();
  });

  it('shows a save offer test’s subscriptions shown, kept and cancelled, and the keep rate’s verdict', async () => {
    const answer = saveOfferResults();
    const kept = { relativeLift: null, relativeInterval: null, verdict: null };
    answer.variants[1]!.saveOffer = {
      shown: 200,
      choseKeep: 30,
      tookAction: 0,
      cancelled: 140,
      kept: { ...kept, count: 60, rate: 0.3 },
      reasons: [],
      netRevenue: [],
    };
    answer.variants[0]!.saveOffer = {
      shown: 200,
      choseKeep: 70,
      tookAction: 45,
      cancelled: 100,
      kept: {
        count: 100,
        rate: 0.5,
        relativeLift: 2 / 3,
        relativeInterval: { lower: 0.2, upper: 1.2 },
        verdict: 'better',
      },
      reasons: [],
      netRevenue: [],
    };
    stubWorker(() => answer);
    const area = await openArea();
    fireEvent.click(area.getByRole('button', { name: 'Results of All-in-one landing' }));
    const table = await area.findByRole('table', {
      name: 'Save offer of b cheaper intro: who stayed',
    });
    const rows = within(table)
      .getAllByRole('row')
      .map((row) => row.textContent);
    expect(rows.slice(0, 5)).toEqual([
      'Subscriptions shown the offer200',
      'Tapped Keep my subscription70',
      'Took the offer45',
      'Cancelled after the offer100',
      'Kept (shown and not cancelled)100 (50%)',
    ]);
    expect(rows[5]).toBe('Keep rate against the control+66.7% (+20% to +120%)');
    expect(rows[6]).toBe('Verdictbetter');
    const control = area.getByRole('table', { name: 'Save offer of a: who stayed' });
    expect(within(control).getAllByRole('row')).toHaveLength(5);
    // Decided on the keep rate, never on the funnel's primary metric it does not count.
    expect(area.getByText(/Decided on/).textContent).toContain('Decided on subscriptions kept;');
    // No reason picked and nothing paid yet: neither table is drawn.
    expect(area.queryByRole('table', { name: /^Reasons for leaving picked in/ })).toBeNull();
    expect(area.queryByRole('table', { name: /^Net revenue after the offer of/ })).toBeNull();
  });

  it('shows each save offer arm’s reasons for leaving, most first, and its net revenue per currency with a variant’s verdict', async () => {
    const answer = saveOfferResults();
    const none = { relativeLift: null, relativeInterval: null, verdict: null };
    const revenue = (currency: string, amountMinor: number, paying: number, perShown: number) => ({
      currency,
      amountMinor,
      paying,
      perShown,
      ...none,
    });
    answer.variants[1]!.saveOffer = {
      shown: 200,
      choseKeep: 30,
      tookAction: 0,
      cancelled: 140,
      kept: { ...none, count: 60, rate: 0.3 },
      reasons: [{ reason: 'too_expensive', count: 90 }],
      netRevenue: [revenue('USD', 239_940, 60, 1199.7)],
    };
    answer.variants[0]!.saveOffer = {
      shown: 200,
      choseKeep: 70,
      tookAction: 45,
      cancelled: 100,
      kept: { ...none, count: 100, rate: 0.5 },
      // Not in order: the table puts the most picked first.
      reasons: [
        { reason: 'not_using_it', count: 12 },
        { reason: 'too_expensive', count: 51 },
      ],
      netRevenue: [
        {
          ...revenue('USD', 359_910, 90, 1799.55),
          relativeLift: 0.5,
          relativeInterval: { lower: 0.1, upper: 0.9 },
          verdict: 'better',
        },
        revenue('EUR', 4_400, 3, 22),
      ],
    };
    const state = consoleState();
    state.live.content = {
      ...state.live.content,
      saveOffer: {
        title: { en: 'Before you go' },
        text: { en: 'Half price for three months.' },
        reasons: { too_expensive: { en: 'Too expensive', de: 'Zu teuer' } },
      },
    };
    stubWorker(() => answer, undefined, undefined, state);
    const area = await openArea();
    fireEvent.click(area.getByRole('button', { name: 'Results of All-in-one landing' }));
    const reasons = await area.findByRole('table', {
      name: 'Reasons for leaving picked in b cheaper intro',
    });
    // A reason the live offer words shows its English words; one it lacks, its key.
    expect(rowTexts(reasons)).toEqual([
      'ReasonCancelled who picked it',
      'Too expensive (too_expensive)51',
      'not_using_it12',
    ]);
    const revenueTable = area.getByRole('table', {
      name: 'Net revenue after the offer of b cheaper intro (renewals less refunds and chargebacks)',
    });
    expect(rowTexts(revenueTable)).toEqual([
      'CurrencySubscriptions payingNet revenuePer subscription shownPer shown against the control (interval)Verdict',
      'USD90$3,599.10$18.00+50% (+10% to +90%)better',
      'EUR3€44.00€0.22——',
    ]);
    // The control is what the variants are judged against: no lift, no verdict of its own.
    const control = area.getByRole('table', { name: /^Net revenue after the offer of a / });
    expect(rowTexts(control)).toEqual([
      'CurrencySubscriptions payingNet revenuePer subscription shown',
      'USD60$2,399.40$12.00',
    ]);
    expect(rowTexts(area.getByRole('table', { name: 'Reasons for leaving picked in a' }))).toEqual([
      'ReasonCancelled who picked it',
      'Too expensive (too_expensive)90',
    ]);
  });

  it('shows no save offer table for a test of another layer', async () => {
    stubWorker(() => plansResults());
    const area = await openArea();
    fireEvent.click(area.getByRole('button', { name: 'Results of All-in-one landing' }));
    await area.findByRole('table', { name: /^Guardrails of b cheaper intro/ });
    expect(area.queryByRole('table', { name: /^Save offer of/ })).toBeNull();
  });

  it('shows a save offer test its own tables only, none of the funnel’s, and its reach as subscriptions shown', async () => {
    stubWorker(() => saveOfferResults());
    const area = await openArea();
    fireEvent.click(area.getByRole('button', { name: 'Results of All-in-one landing' }));
    const heading = await area.findByRole('heading', {
      name: 'Results of Half price before a cancel',
    });
    const results = within(heading.closest('.experiment-results') as HTMLElement);
    const tables = results
      .getAllByRole('table')
      .map((table) => (table as HTMLTableElement).caption?.textContent);
    expect(tables).toEqual([
      'Save offer of a: who stayed',
      'Save offer of b cheaper intro: who stayed',
    ]);
    expect(results.queryByText(/visitors exposed/)).toBeNull();
    expect(results.getByText(/^Counted when/).textContent).toBe(
      'Counted when a subscriber’s page shows the offer before a cancel: 400 subscriptions shown so far.',
    );
    expect(results.queryByText(/^Counted where the variants first differ/)).toBeNull();
    expect(results.queryByText(/^Reach:/)).toBeNull();
    // Its subscriptions have no country, source or route to split them by.
    expect(results.queryByLabelText('Split the results by')).toBeNull();
  });

  it('lists the declines by class under Payment declined, a rise in 3-D Secure failures as worse', async () => {
    const answer = plansResults();
    const judged = {
      count: 12,
      rate: 0.012,
      relativeLift: 2,
      relativeInterval: null,
      verdict: 'worse' as const,
    };
    answer.variants[0]!.guardrails.declineClasses = [
      { ...judged, declineClass: 'insufficient_funds', verdict: 'no_difference_yet' },
      {
        ...judged,
        declineClass: 'authentication_failed',
        relativeInterval: { lower: 0.4, upper: 4.1 },
      },
    ];
    stubWorker(() => answer);
    const area = await openArea();
    fireEvent.click(area.getByRole('button', { name: 'Results of All-in-one landing' }));
    const table = await area.findByRole('table', { name: /^Guardrails of b cheaper intro/ });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getByRole('rowheader').textContent)).toEqual([
      'Payment declined',
      'Payment declined: Insufficient funds',
      'Payment declined: 3-D Secure failed',
      'Refunded or charged back',
      'Cancelled',
      'Renewed (a period more paid)',
      'Met a server error (5xx)',
      'Met a page error',
    ]);
    expect(rows[2]!.textContent).toContain('12 (1.2%)');
    expect(within(rows[2]!).getByText('worse')).toBeTruthy();
  });

  it('shows each arm’s page speed: p75, rating and samples, and the variant’s difference', async () => {
    stubWorker(() => plansResults());
    const area = await openArea();
    fireEvent.click(area.getByRole('button', { name: 'Results of All-in-one landing' }));
    const variant = await area.findByRole('table', { name: /^Page speed of b cheaper intro/ });
    const cells = (table: HTMLElement) =>
      within(table)
        .getAllByRole('row')
        .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent));
    expect(cells(variant)).toEqual([
      ['Vital', '75th percentile', 'Visitors sampled', 'Difference from control', 'Verdict'],
      [
        'Largest Contentful Paint (loading)',
        '2,890 ms (needs improvement)',
        '412',
        '+460 ms (+120 ms to +800 ms)',
        'worse',
      ],
      [
        'Interaction to Next Paint (responsiveness)',
        '168 ms (good)',
        '388',
        '−4 ms (−30 ms to +22 ms)',
        'no difference yet',
      ],
      [
        'Cumulative Layout Shift (stability)',
        '0.042 (good)',
        '412',
        '0.00 (−0.01 to +0.01)',
        'no difference yet',
      ],
    ]);
    const control = area.getByRole('table', { name: /^Page speed of a:/ });
    expect(cells(control)[1]).toEqual([
      'Largest Contentful Paint (loading)',
      '2,430 ms (good)',
      '412',
    ]);
  });

  it('shows a verdict once there is one to show', async () => {
    stubWorker(() => plansResults());
    const area = await openArea();
    fireEvent.click(area.getByRole('button', { name: 'Results of All-in-one landing' }));
    const table = await area.findByRole('table', { name: 'b cheaper intro against a' });
    expect(within(table).getAllByText('better')).toHaveLength(6);
    expect(area.queryByText(/No verdict until the mature sample/)).toBeNull();
  });

  it.each([false, true])(
    'shows a price test’s verdict in each currency (awaiting the mature sample: %s)',
    async (awaiting) => {
      const inCurrency = (currency: string, mean: number, verdict: 'better' | 'worse' | null) => ({
        metric: 'mature_revenue' as const,
        primary: false,
        mean,
        absoluteLift: null,
        absoluteInterval: null,
        pValue: null,
        currency,
        count: currency === 'USD' ? 310 : 42,
        relativeLift: verdict === null ? null : verdict === 'better' ? 0.25 : -0.18,
        relativeInterval:
          verdict === null
            ? null
            : verdict === 'better'
              ? { lower: 0.05, upper: 0.45 }
              : { lower: -0.3, upper: -0.06 },
        verdict,
      });
      const answer = priceResults();
      const [b, a] = answer.variants;
      b!.byCurrency = [inCurrency('USD', 121, 'worse'), inCurrency('GBP', 35.5, 'better')];
      a!.byCurrency = [inCurrency('USD', 150, null), inCurrency('GBP', 28, null)];
      stubWorker(() => ({ ...answer, awaitingMatureSample: awaiting }));
      const area = await openArea();
      fireEvent.click(area.getByRole('button', { name: 'Results of All-in-one landing' }));
      const table = await area.findByRole('table', {
        name: /^Mature revenue of b cheaper intro by currency/,
      });
      const rows = within(table)
        .getAllByRole('row')
        .slice(1)
        .map((row) => [...row.children].map((cell) => cell.textContent));
      expect(rows.map((row) => row.slice(0, 3))).toEqual([
        ['USD', '310', '$1.21'],
        ['GBP', '42', '£0.36'],
      ]);
      // Dearer in dollars, better in pounds: each currency its own verdict, once it may be read.
      expect(rows.map((row) => row[4])).toEqual(awaiting ? ['—', '—'] : ['worse', 'better']);
      const control = area.getByRole('table', { name: /^Mature revenue of a by currency/ });
      expect(within(control).queryByRole('columnheader', { name: 'Verdict' })).toBeNull();
    },
  );

  it('shows no currency table for a price test paid in one currency', async () => {
    stubWorker(() => priceResults());
    const area = await openArea();
    fireEvent.click(area.getByRole('button', { name: 'Results of All-in-one landing' }));
    await area.findByRole('table', { name: 'b cheaper intro against a' });
    expect(area.queryByRole('table', { name: /by currency/ })).toBeNull();
  });

  it('splits by a segment: its levels, the caution and the hidden levels, and a CSV of the same', async () => {
    const { asked } = stubWorker((url) => {
      const answer = priceResults();
      if (!url.includes('segment=country')) return answer;
      answer.segment = {
        dimension: 'country',
        caution: 'segments find ideas and bugs; confirm a segment winner with a test aimed at it',
        hiddenLevels: 3,
        levels: [
          {
            level: 'US',
            variants: [
              {
                variant: 'a',
                exposed: 400,
                metrics: [
                  {
                    metric: 'purchase',
                    mean: 0.05,
                    relativeLift: null,
                    relativeInterval: null,
                    verdict: null,
                  },
                ],
              },
              {
                variant: 'b',
                exposed: 410,
                metrics: [
                  {
                    metric: 'purchase',
                    mean: 0.06,
                    relativeLift: 0.2,
                    relativeInterval: { lower: -0.1, upper: 0.5 },
                    verdict: 'no_difference_yet',
                  },
                ],
              },
            ],
          },
        ],
      };
      return answer;
    });
    const area = await openArea();
    fireEvent.click(area.getByRole('button', { name: 'Results of All-in-one landing' }));
    await area.findByRole('heading', { name: 'Results of Price US' });
    fireEvent.change(area.getByLabelText('Split the results by'), { target: { value: 'country' } });
    await area.findByText(
      'segments find ideas and bugs; confirm a segment winner with a test aimed at it',
    );
    expect(asked.at(-1)).toBe(`${RESULTS}?segment=country`);
    const level = area.getByRole('table', { name: 'country US' });
    // A row per metric, a column per variant, the verdict in each variant's cell.
    const [head] = within(level).getAllByRole('row');
    const purchase = within(level).getByRole('rowheader', { name: 'Purchase' }).closest('tr');
    expect(
      within(head!)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Metric', 'a (400 exposed)', 'b (410 exposed)']);
    expect(
      within(purchase!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['5%', '6%+20% (−10% to +50%)no difference yet']);
    expect(
      area.getByText('3 more levels are hidden: fewer than 100 exposed visitors in some variant.'),
    ).toBeTruthy();
    expect(area.getByRole('link', { name: 'Download as CSV' }).getAttribute('href')).toBe(
      `${RESULTS}?segment=country&format=csv`,
    );
  });

  it('splits by a quiz answer: each variant described by its choices, named by their labels', async () => {
    const live = consoleState();
    // A state of its own: the fixture's documents are shared with every other test of the run.
    const questions = { q_who: WHO_QUESTION, q_name: NAME_QUESTION };
    const state: ConsoleState = {
      ...live,
      live: { ...live.live, content: { ...live.live.content, questions } },
    };
    const purchase = (mean: number) => ({
      metric: 'purchase' as const,
      mean,
      relativeLift: null,
      relativeInterval: null,
      verdict: null,
    });
    const { asked } = stubWorker(
      (url) => {
        const answer = priceResults();
        if (!url.includes('segment=answer')) return answer;
        answer.segment = {
          dimension: 'answer:who',
          caution: AFTER_EXPOSURE_CAUTION,
          afterExposure: true,
          hiddenLevels: 0,
          levels: [
            {
              level: 'child',
              variants: [
                { variant: 'a', exposed: 0, metrics: [purchase(0)] },
                { variant: 'b', exposed: 200, metrics: [purchase(0.2)] },
              ],
            },
            {
              level: 'unanswered',
              variants: [
                { variant: 'a', exposed: 300, metrics: [purchase(0.1)] },
                { variant: 'b', exposed: 20, metrics: [purchase(0)] },
              ],
            },
          ],
        };
        return answer;
      },
      NO_VISITS,
      undefined,
      state,
    );
    const area = await openArea();
    fireEvent.click(area.getByRole('button', { name: 'Results of All-in-one landing' }));
    await area.findByRole('heading', { name: 'Results of Price US' });
    const picker = area.getByLabelText('Split the results by');
    const options = within(picker)
      .getAllByRole('option')
      .map((option) => option.textContent);
    // A text answer is never a segment.
    expect(options).toContain('Quiz answer: Who do you want to keep safe?');
    expect(options).not.toContain('Quiz answer: Your name?');
    fireEvent.change(picker, { target: { value: 'answer:who' } });
    await area.findByText(AFTER_EXPOSURE_CAUTION);
    expect(asked.at(-1)).toBe(`${RESULTS}?segment=answer%3Awho`);
    const child = area.getByRole('table', { name: '“who”: Your child (child)' });
    const row = within(child).getByRole('rowheader', { name: 'Purchase' }).closest('tr');
    // Described, never judged: a rate per variant, no lift, no verdict.
    expect(
      within(row!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['0%', '20%']);
    expect(area.getByRole('table', { name: '“who” not answered' })).toBeTruthy();
  });

  it('says why when the results cannot be read', async () => {
    stubWorker(() => null);
    const area = await openArea();
    fireEvent.click(area.getByRole('button', { name: 'Results of All-in-one landing' }));
    expect((await area.findByRole('alert')).textContent).not.toBe('');
  });
});

/** The worker's refusal of a route default the split test would hide (decision-reach.ts). */
const HIDDEN_BY_SPLIT = {
  status: 400,
  body: {
    ok: false,
    error: 'invalid_config',
    errors: [
      {
        path: 'experiments.experiments.landing-all.decision.action',
        message:
          'cannot make variant "b" the default of its routes: new visitors would not see it, because the split test ("split") draws route "default" and walks its visitors through its own flows: variant "default" (landing "one_pager")',
      },
    ],
  },
};

/** A check that finds nothing to refuse or warn of. */
const CHECK_PASSES: CheckAnswer = { ok: true, diff: [], phase: null };

const splitDrawsDefault = (request: PublishRequest) =>
  (request.document.split.routes ?? ['default']).includes('default');

/** The decision dialog of All-in-one landing, once its results have been read. */
async function openDecision(answer: ExperimentResultsAnswer) {
  stubWorker(() => answer);
  const area = await openArea();
  fireEvent.click(area.getByRole('button', { name: 'End All-in-one landing with a decision…' }));
  const dialog = within(await screen.findByRole('dialog', { name: 'End All-in-one landing' }));
  expect(await dialog.findAllByText('better: +10% (+5% to +15%) on Purchase.')).toHaveLength(2);
  return dialog;
}

/** The ramp the Quick schedule makes with payment declines set to hold. */
const QUICK_RAMP_HOLDING_DECLINES = {
  steps: [
    { coverage: 0.05, holdHours: 4, minPerArm: 200 },
    { coverage: 0.25, holdHours: 4, minPerArm: 1000 },
    { coverage: 0.5, holdHours: 0, minPerArm: 0 },
  ],
  guardrails: { declines: 'hold' },
  state: { step: 0, status: 'running' },
};

describe('the decision dialog', () => {
  it('says the results are being read while they are, not that none could be', async () => {
    stubWorker(() => plansResults());
    const answered = globalThis.fetch;
    // The results never arrive while the dialog is looked at.
    vi.stubGlobal('fetch', (url: string, init?: RequestInit) =>
      url.startsWith(RESULTS) ? new Promise(() => {}) : answered(url, init),
    );
    const area = await openArea();
    fireEvent.click(area.getByRole('button', { name: 'End All-in-one landing with a decision…' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'End All-in-one landing' }));
    expect(dialog.getAllByText('Reading the results on Purchase…').length).toBeGreaterThan(0);
    expect(dialog.queryByText(/No results could be read/)).toBeNull();
  });

  it('chooses nothing for the marketer and ships a winner without a reason', async () => {
    const dialog = await openDecision(plansResults());
    for (const radio of dialog.getAllByRole('radio'))
      expect((radio as HTMLInputElement).checked).toBe(false);
    fireEvent.click(dialog.getByRole('radio', { name: /^Won/ }));
    fireEvent.click(dialog.getByRole('radio', { name: /^Roll variant b out/ }));
    expect(dialog.queryByLabelText('Reason (required)')).toBeNull();
    fireEvent.click(dialog.getByRole('button', { name: 'Record the decision' }));
    const decided = $draft.get()?.document.experiments.experiments['landing-all'];
    expect(decided?.status).toBe('shipped');
    expect(decided?.decision).toMatchObject({
      result: 'won',
      action: 'roll_out',
      variant: 'b',
      evidence: {
        phase: 2,
        metric: 'purchase',
        relativeLift: 0.1,
        verdict: 'better',
        srmAlarm: false,
      },
    });
    expect(decided?.decision?.reason).toBeUndefined();
  });

  it('does not offer a default the split test would hide, and says what ships it instead', async () => {
    const hidden =
      'cannot make variant "b" the default of its routes: new visitors would not see it, because the split test ("split") draws route "default" and walks its visitors through its own flows: variant "default" (landing "one_pager"). Roll variant "b" out to the experiment\'s audience instead: it shows on top of the split test\'s flows';
    const { checked } = stubWorker(
      () => plansResults(),
      NO_VISITS,
      () => ({
        status: 400,
        body: {
          ok: false,
          error: 'invalid_config',
          errors: [
            { path: 'experiments.experiments.landing-all.decision.action', message: hidden },
          ],
        },
      }),
    );
    const area = await openArea();
    fireEvent.click(area.getByRole('button', { name: 'End All-in-one landing with a decision…' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'End All-in-one landing' }));
    const notice = await dialog.findByText(/^Cannot make variant "b" the default of its routes/);
    expect(notice.textContent).toMatch(/the split test \("split"\) draws route "default".*\.$/);
    expect(dialog.queryByRole('radio', { name: /^Make variant b the default/ })).toBeNull();
    // The roll-out, which ships it, tells why it is the way.
    const rollOut = dialog.getByRole('radio', { name: /^Roll variant b out/ });
    expect(rollOut.getAttribute('aria-describedby')?.split(' ')).toContain(notice.id);
    // What was checked: the draft with the decision in it and route default on the new landing.
    const [asked] = checked;
    expect(asked?.document.experiments.experiments['landing-all']?.decision).toMatchObject({
      action: 'route_default',
      variant: 'b',
    });
    const flow = asked?.document.routing.routes.find((route) => route.id === 'default')?.flow;
    expect(asked?.document.flows.flows[flow ?? '']?.[0]).toBe('one_pager_all');
    // Nothing went into the draft.
    expect($draft.get()?.document.experiments.experiments['landing-all']?.status).toBe('running');
  });

  it('takes route default out of the split when only the split would hide the new default', async () => {
    const { checked } = stubWorker(
      () => plansResults(),
      NO_VISITS,
      (request) =>
        splitDrawsDefault(request) ? HIDDEN_BY_SPLIT : { status: 200, body: CHECK_PASSES },
    );
    const area = await openArea();
    fireEvent.click(area.getByRole('button', { name: 'End All-in-one landing with a decision…' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'End All-in-one landing' }));
    const choice = await dialog.findByRole('radio', {
      name: 'Make variant b the default of default, taking default out of the split test',
    });
    // Both were asked: as the draft is, and with route default out of the split.
    expect(checked.map((request) => request.document.split.routes)).toEqual([undefined, []]);
    fireEvent.click(dialog.getByRole('radio', { name: /^Won/ }));
    fireEvent.click(choice);
    fireEvent.click(dialog.getByRole('button', { name: 'Record the decision' }));
    const document = $draft.get()?.document;
    expect(document?.split.routes).toEqual([]);
    expect(document?.experiments.experiments['landing-all']?.decision).toMatchObject({
      action: 'route_default',
      variant: 'b',
    });
    const flow = document?.routing.routes.find((route) => route.id === 'default')?.flow;
    expect(document?.flows.flows[flow ?? '']?.[0]).toBe('one_pager_all');
  });

  it('asks a reason to keep the control while the sample ratio alarm is on', async () => {
    const answer = plansResults();
    answer.sampleRatio.alarm = true;
    const dialog = await openDecision(answer);
    fireEvent.click(dialog.getByRole('radio', { name: /^Lost/ }));
    fireEvent.click(dialog.getByRole('radio', { name: /^Keep the control/ }));
    fireEvent.click(dialog.getByRole('button', { name: 'Record the decision' }));
    expect(dialog.getByText(/^Type the reason/)).toBeTruthy();
    expect($draft.get()?.document.experiments.experiments['landing-all']?.status).toBe('running');
    fireEvent.change(dialog.getByLabelText('Reason (required)'), {
      target: { value: 'a redirect broke the split; retest' },
    });
    fireEvent.click(dialog.getByRole('button', { name: 'Record the decision' }));
    const decided = $draft.get()?.document.experiments.experiments['landing-all'];
    expect(decided?.status).toBe('stopped');
    expect(decided?.decision).toMatchObject({
      action: 'keep_control',
      reason: 'a redirect broke the split; retest',
      evidence: { srmAlarm: true, verdict: null },
    });
  });
});

describe('a winner rolled out in steps', () => {
  async function openWon() {
    const dialog = await openDecision(plansResults());
    fireEvent.click(dialog.getByRole('radio', { name: /^Won/ }));
    return dialog;
  }
  const IN_STEPS = 'Roll it out in steps (a guarded ramp)';

  it('is offered beside a roll-out only, its checkbox saying what a ramped roll-out does', async () => {
    const dialog = await openWon();
    expect(dialog.queryByRole('checkbox', { name: IN_STEPS })).toBeNull();
    fireEvent.click(dialog.getByRole('radio', { name: /^Keep the control/ }));
    expect(dialog.queryByRole('checkbox', { name: IN_STEPS })).toBeNull();
    fireEvent.click(dialog.getByRole('radio', { name: /^Roll variant b out/ }));
    const inSteps = dialog.getByRole('checkbox', { name: IN_STEPS });
    expect(describedBy(inSteps).join(' ')).toMatch(
      /After its last step the variant reaches everyone/,
    );
    // Off until chosen: no step fields, and the roll-out ships to everyone at once.
    expect(dialog.queryByRole('group', { name: 'Steps of the ramp' })).toBeNull();
    fireEvent.click(dialog.getByRole('button', { name: 'Record the decision' }));
    const decided = $draft.get()?.document.experiments.experiments['landing-all']?.decision;
    expect(decided).toMatchObject({ action: 'roll_out', variant: 'b' });
    expect(decided?.ramp).toBeUndefined();
  });

  it('writes the ramp into the decision it records, from its first step now', async () => {
    const dialog = await openWon();
    fireEvent.click(dialog.getByRole('radio', { name: /^Roll variant b out/ }));
    fireEvent.click(dialog.getByRole('checkbox', { name: IN_STEPS }));
    fireEvent.change(dialog.getByLabelText('Fill the steps from a schedule'), {
      target: { value: 'quick' },
    });
    fireEvent.change(dialog.getByLabelText('Payment declines'), { target: { value: 'hold' } });
    const before = Date.now();
    fireEvent.click(dialog.getByRole('button', { name: 'Record the decision' }));
    const decided = $draft.get()?.document.experiments.experiments['landing-all'];
    expect(decided?.status).toBe('shipped');
    expect(decided?.decision).toMatchObject({
      action: 'roll_out',
      variant: 'b',
      ramp: QUICK_RAMP_HOLDING_DECLINES,
    });
    const since = Date.parse(decided?.decision?.ramp?.state.since ?? '');
    expect(since).toBeGreaterThanOrEqual(before - 1000);
    // The experiment's own ramp is untouched: the roll-out ramps, not the test.
    expect(decided?.ramp).toBeUndefined();
    // And the config's own check takes it as written.
    expect(parseExperiments($draft.get()?.document.experiments)).toMatchObject({ ok: true });
  });

  it('says a refused step at its field, focuses it, and keeps the decision out of the draft', async () => {
    const dialog = await openWon();
    fireEvent.click(dialog.getByRole('radio', { name: /^Roll variant b out/ }));
    fireEvent.click(dialog.getByRole('checkbox', { name: IN_STEPS }));
    const second = dialog.getByLabelText('Step 2: % of the audience that enters');
    fireEvent.change(second, { target: { value: '3' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Record the decision' }));
    expect(document.activeElement).toBe(second);
    expect(second.getAttribute('aria-invalid')).toBe('true');
    expect(describedBy(second)).toContain(
      'Enter more than the step before’s 5%: a ramp only grows.',
    );
    expect($draft.get()?.document.experiments.experiments['landing-all']?.status).toBe('running');
    // Choosing not to ramp ships it at once, the refused steps set aside.
    fireEvent.click(dialog.getByRole('checkbox', { name: IN_STEPS }));
    fireEvent.click(dialog.getByRole('button', { name: 'Record the decision' }));
    const decided = $draft.get()?.document.experiments.experiments['landing-all']?.decision;
    expect(decided).toMatchObject({ action: 'roll_out', variant: 'b' });
    expect(decided?.ramp).toBeUndefined();
  });
});

describe('a rolled-out winner', () => {
  /** The landing test ended a month ago with b rolled out to route default. */
  function rolledOut(): ConsoleState {
    const state = consoleState();
    const test = state.live.experiments.experiments['landing-all']!;
    state.live.experiments.experiments['landing-all'] = {
      ...test,
      status: 'shipped',
      endedAt: new Date(Date.now() - 30 * 86_400_000).toISOString(),
      decision: {
        result: 'won',
        action: 'roll_out',
        variant: 'b',
        at: '2026-10-26T00:00:00Z',
        by: 'anna@example.com',
        evidence: {
          phase: 1,
          metric: 'purchase',
          relativeLift: 0.1,
          interval: [0.05, 0.15],
          verdict: 'better',
          srmAlarm: false,
        },
      },
    };
    return state;
  }

  it('is made the default of its routes, taking them out of the split that would hide it', async () => {
    stubWorker(
      () => plansResults(),
      NO_VISITS,
      (request) =>
        splitDrawsDefault(request) ? HIDDEN_BY_SPLIT : { status: 200, body: CHECK_PASSES },
      rolledOut(),
    );
    const area = await openArea();
    fireEvent.click(area.getByRole('button', { name: 'Make b the default of its routes…' }));
    const dialog = within(
      await screen.findByRole('dialog', { name: 'Make b the default of route default?' }),
    );
    await dialog.findByText(/, so this takes default out of the split test/);
    // What the split would hide is settled by leaving it: no "Cannot make" beside the choice.
    expect(dialog.queryByText(/^Cannot make variant/)).toBeNull();
    fireEvent.click(dialog.getByRole('button', { name: 'Make b the default of route default' }));
    const document = $draft.get()?.document;
    expect(document?.split.routes).toEqual([]);
    const decided = document?.experiments.experiments['landing-all'];
    expect(decided?.decision).toMatchObject({ action: 'route_default', variant: 'b' });
    // The evidence it was shipped on stays with it.
    expect(decided?.decision?.evidence.relativeLift).toBe(0.1);
    const flow = document?.routing.routes.find((route) => route.id === 'default')?.flow;
    expect(document?.flows.flows[flow ?? '']?.[0]).toBe('one_pager_all');
  });

  it('offers nothing while something else would hide it, and says what', async () => {
    stubWorker(
      () => plansResults(),
      NO_VISITS,
      () => HIDDEN_BY_SPLIT,
      rolledOut(),
    );
    const area = await openArea();
    fireEvent.click(area.getByRole('button', { name: 'Make b the default of its routes…' }));
    const dialog = within(
      await screen.findByRole('dialog', { name: 'Make b the default of route default?' }),
    );
    await dialog.findByText(/^Cannot make variant "b" the default of its routes/);
    expect(dialog.queryByRole('button', { name: /^Make b the default/ })).toBeNull();
    expect($draft.get()?.document.experiments.experiments['landing-all']?.decision?.action).toBe(
      'roll_out',
    );
  });

  it('can be archived, saying its audience goes back to the control', async () => {
    stubWorker(() => plansResults(), NO_VISITS, undefined, rolledOut());
    const area = await openArea();
    fireEvent.click(area.getByRole('button', { name: 'Archive All-in-one landing…' }));
    const dialog = within(
      await screen.findByRole('dialog', { name: 'Archive All-in-one landing?' }),
    );
    expect(
      dialog.getByText(/^Variant b is rolled out to its audience on route default/).textContent,
    ).toBe(
      'Variant b is rolled out to its audience on route default: archived, those visitors see the route as it is (the control, a) again. To keep b for them, make it the routes’ default instead. Archiving frees the whole layer landing and the landing it changes for good: other experiments may take them.',
    );
    fireEvent.click(dialog.getByRole('button', { name: 'Archive All-in-one landing' }));
    expect($draft.get()?.document.experiments.experiments['landing-all']?.status).toBe('archived');
  });
});

describe('the create form’s duration estimate', () => {
  it('counts the traffic at the trigger: the paywall for a price test, first visits for a landing', async () => {
    stubWorker(() => null, {
      days: 7,
      visits: { default: 7000 },
      total: 7000,
      steps: { default: { lookup: 3500, signup: 2100, paywall: 1400, upsell: 140 } },
    });
    const area = await openArea();
    const form = within(area.getByRole('form', { name: 'Create an experiment' }));
    const estimate = () => area.getByText(/^Planned sample:/).textContent;
    // The price preset first, in the free paywall layer: 200 a day reach the paywall.
    expect(estimate()).toContain(
      'About 200 visitors a day reach it (visitors who reached the paywall on its routes in the last 7 days',
    );
    // The landing and flow layers are taken: the whole of each, as if freed.
    const wholeLayer = () => {
      fireEvent.change(form.getByLabelText('Range in the layer from (%)'), {
        target: { value: '0' },
      });
      fireEvent.change(form.getByLabelText('Range in the layer to (%)'), {
        target: { value: '100' },
      });
    };
    fireEvent.change(form.getByLabelText('What to test'), { target: { value: 'landing' } });
    wholeLayer();
    expect(estimate()).toContain(
      'About 1,000 visitors a day reach it (first visits on its routes in the last 7 days',
    );
    fireEvent.change(form.getByLabelText('What to test'), { target: { value: 'flow' } });
    wholeLayer();
    expect(estimate()).toContain('At most 1,000 visitors a day can reach it');
    expect(estimate()).toContain('This is an upper bound');
  });
});

describe('an upsell price test', () => {
  it('is created by mouse: the upsell layer, each variant’s tiers and guide from the catalogue', async () => {
    stubWorker(() => null, {
      days: 7,
      visits: { default: 7000 },
      total: 7000,
      steps: { default: { lookup: 3500, signup: 2100, paywall: 1400, upsell: 700 } },
    });
    const area = await openArea();
    const form = within(area.getByRole('form', { name: 'Create an experiment' }));
    fireEvent.change(form.getByLabelText('What to test'), { target: { value: 'upsell_price' } });
    // Counted where the variants differ: the visitors who reached the upsell.
    expect(area.getByText(/^Planned sample:/).textContent).toContain(
      'About 100 visitors a day reach it (buyers of a main plan on its routes',
    );
    fireEvent.change(form.getByLabelText('Experiment name'), {
      target: { value: 'Upsell at 7.99' },
    });
    const upsell = within(form.getByRole('group', { name: /^Upsell plans variant b offers/ }));
    // The paywall's plans are not offered here, the upsell's tiers are, with their prices.
    expect(upsell.queryByRole('checkbox', { name: /^monthly:/ })).toBeNull();
    fireEvent.click(upsell.getByRole('checkbox', { name: /^upsell_monthly_799: \$7\.99 a month/ }));
    fireEvent.click(upsell.getByRole('checkbox', { name: /^upsell_quarterly_799:/ }));
    const guide = within(form.getByRole('group', { name: /^Guide variant b offers/ }));
    fireEvent.click(guide.getByRole('radio', { name: /^guide_1799:/ }));
    fireEvent.click(form.getByRole('button', { name: 'Create draft experiment' }));
    const created = $draft.get()?.document.experiments.experiments['upsell-at-7-99'];
    expect(created).toMatchObject({
      layer: 'upsell',
      status: 'draft',
      control: 'a',
      metrics: { primary: 'mature_revenue' },
      variants: {
        a: { weight: 1, change: {} },
        b: {
          weight: 1,
          change: {
            upsellPlans: ['upsell_monthly_799', 'upsell_quarterly_799'],
            guidePlans: ['guide_1799'],
          },
        },
      },
    });
    // Its card says what b changes, and starts it into the draft.
    const article = await area.findByRole('article', { name: /Upsell at 7\.99/ });
    expect(article.textContent).toContain(
      'changes upsell plans upsell_monthly_799, upsell_quarterly_799',
    );
    const card = within(article);
    fireEvent.click(card.getByRole('button', { name: 'Start Upsell at 7.99…' }));
    const start = within(await screen.findByRole('dialog', { name: 'Start Upsell at 7.99?' }));
    fireEvent.click(start.getByRole('button', { name: 'Start Upsell at 7.99' }));
    expect($draft.get()?.document.experiments.experiments['upsell-at-7-99']?.status).toBe(
      'running',
    );
  });
});

describe('a country price test', () => {
  it('is created by picking the currency a country pays in, and refused while it changes none', async () => {
    stubWorker(() => null);
    const area = await openArea();
    const form = within(area.getByRole('form', { name: 'Create an experiment' }));
    fireEvent.change(form.getByLabelText('What to test'), { target: { value: 'country_price' } });
    fireEvent.change(form.getByLabelText('Experiment name'), {
      target: { value: 'Pounds in the UK' },
    });
    fireEvent.click(form.getByRole('button', { name: 'Create draft experiment' }));
    expect(form.getByText('Choose what variant b changes.')).toBeTruthy();
    expect($draft.get()?.document.experiments.experiments).not.toHaveProperty('pounds-in-the-uk');

    const table = within(form.getByRole('group', { name: 'Currencies variant b charges in' }));
    fireEvent.change(table.getByLabelText('Country'), { target: { value: 'GB' } });
    fireEvent.change(table.getByLabelText('Pays in'), { target: { value: 'USD' } });
    fireEvent.click(table.getByRole('button', { name: 'Add country' }));
    expect(table.getByLabelText('United Kingdom (GB) pays in (otherwise GBP)')).toBeTruthy();
    fireEvent.click(form.getByRole('button', { name: 'Create draft experiment' }));
    expect($draft.get()?.document.experiments.experiments['pounds-in-the-uk']).toMatchObject({
      layer: 'paywall',
      metrics: { primary: 'mature_revenue' },
      variants: {
        a: { weight: 1, change: {} },
        b: { weight: 1, change: { currencies: { GB: 'USD' } } },
      },
    });
    const variants = await area.findByRole('list', { name: 'Variants of Pounds in the UK' });
    expect(
      within(variants)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'a (control), 50%: changes nothing (the route as it is)',
      'b, 50%: changes GB paying in USD',
    ]);
  });
});

describe('a test started on a guarded ramp', () => {
  it('takes its steps from a schedule, page speeds only hold or warn, and refusals at their fields', async () => {
    stubWorker(() => null);
    const area = await openArea();
    const form = within(area.getByRole('form', { name: 'Create an experiment' }));
    fireEvent.change(form.getByLabelText('Experiment name'), { target: { value: 'Ramped' } });
    fireEvent.click(form.getByRole('checkbox', { name: /^monthly_3d_intro:/ }));
    fireEvent.change(form.getByLabelText(/^Coverage/), { target: { value: '50' } });
    expect(form.queryByRole('group', { name: 'Steps of the ramp' })).toBeNull();
    fireEvent.click(form.getByRole('checkbox', { name: 'Start on a guarded ramp' }));
    fireEvent.change(form.getByLabelText('Fill the steps from a schedule'), {
      target: { value: 'quick' },
    });
    const steps = within(form.getByRole('group', { name: 'Steps of the ramp' }));
    const enters = (n: number) =>
      steps.getByLabelText(`Step ${n}: % of the audience that enters`) as HTMLInputElement;
    expect([1, 2, 3].map((n) => enters(n).value)).toEqual(['10', '50', '100']);
    const lcp = form.getByLabelText('Page loading (LCP)');
    expect([...lcp.querySelectorAll('option')].map((o) => o.textContent)).toEqual([
      'Hold at its step',
      'Warn only',
    ]);
    expect(describedBy(lcp)).toContain(
      'Hold or warn only: a page speed is reported by the visitor’s browser, which could forge it.',
    );
    fireEvent.change(form.getByLabelText('Payment declines'), { target: { value: 'hold' } });
    fireEvent.change(enters(2), { target: { value: '5' } });

    fireEvent.click(form.getByRole('button', { name: 'Create draft experiment' }));
    const coverage = form.getByLabelText(/^Coverage/);
    expect(document.activeElement).toBe(coverage);
    expect(describedBy(coverage)).toContain('Enter 100% with a ramp: its steps say who enters.');
    expect(describedBy(enters(2))).toContain(
      'Enter more than the step before’s 10%: a ramp only grows.',
    );
    expect($draft.get()?.document.experiments.experiments).not.toHaveProperty('ramped');

    fireEvent.change(coverage, { target: { value: '100' } });
    fireEvent.change(enters(2), { target: { value: '50' } });
    fireEvent.click(form.getByRole('button', { name: 'Create draft experiment' }));
    const created = $draft.get()?.document.experiments.experiments.ramped;
    expect(created).toMatchObject({
      status: 'draft',
      coverage: 1,
      ramp: QUICK_RAMP_HOLDING_DECLINES,
    });
  });
});

describe('a landing test on the Quick ramp', () => {
  it('is created by picking the landing variant b shows, and started into the draft the ramp walks publish', async () => {
    // The built worker's: the AI landing among the screens, the landing layer free.
    const state = consoleState();
    state.screens = [...state.screens, { id: 'one_pager_ai', kind: 'landing' }];
    const { 'landing-all': _, ...others } = state.live.experiments.experiments;
    state.live.experiments = { ...state.live.experiments, experiments: others };
    stubWorker(() => null, NO_VISITS, undefined, state);
    const area = await openArea();
    const form = within(area.getByRole('form', { name: 'Create an experiment' }));
    fireEvent.change(form.getByLabelText('What to test'), { target: { value: 'landing' } });
    fireEvent.change(form.getByLabelText('Experiment name'), {
      target: { value: 'AI landing ramp' },
    });
    fireEvent.change(form.getByLabelText('The landing screen variant b shows'), {
      target: { value: 'one_pager_ai' },
    });
    fireEvent.click(form.getByRole('checkbox', { name: 'Start on a guarded ramp' }));
    fireEvent.change(form.getByLabelText('Fill the steps from a schedule'), {
      target: { value: 'quick' },
    });
    expect(
      (form.getByLabelText('Step 1: % of the audience that enters') as HTMLInputElement).value,
    ).toBe('10');
    fireEvent.click(form.getByRole('button', { name: 'Create draft experiment' }));
    const card = within(await area.findByRole('article', { name: /AI landing ramp/ }));
    fireEvent.click(card.getByRole('button', { name: 'Start AI landing ramp…' }));
    const start = within(await screen.findByRole('dialog', { name: 'Start AI landing ramp?' }));
    fireEvent.click(start.getByRole('button', { name: 'Start AI landing ramp' }));
    // What test/browser/ramp-steps.ts publishes for the ramp walks, but for the seed each draws
    // afresh and the moment its ramp started.
    const published = quickRampStarted(state.live, 'AI landing ramp');
    const { id } = published;
    const { seed, ramp, ...expected } = published.document.experiments.experiments[id]!;
    const started = $draft.get()?.document.experiments.experiments[id];
    expect(started).toEqual({
      ...expected,
      seed: started?.seed,
      ramp: { ...ramp, state: { ...ramp?.state, since: expect.any(String) } },
    });
    expect(started).toMatchObject({
      status: 'running',
      variants: { b: { change: { screens: { landing: 'one_pager_ai' } } } },
      ramp: { steps: [{ coverage: 0.05 }, { coverage: 0.25 }, { coverage: 0.5 }] },
    });
    expect(seed).not.toBe(started?.seed);
  });
});

describe('a save offer test', () => {
  it('is created in layer subscriber, each variant showing an offer variant the content defines', async () => {
    const state = consoleState();
    // A new content object: the fixture's is shared with the other tests.
    state.live.content = {
      ...state.live.content,
      saveOffer: {
        title: { en: 'Before you go' },
        text: { en: 'We set the app up with you, free.' },
        variants: { half_price: { title: { en: 'Stay for half price' } }, call_us: {} },
      },
    };
    stubWorker(() => null, NO_VISITS, undefined, state);
    const area = await openArea();
    const form = within(area.getByRole('form', { name: 'Create an experiment' }));
    expect(form.getByRole('group', { name: /^Routes it takes visitors from/ })).toBeTruthy();
    fireEvent.change(form.getByLabelText('What to test'), { target: { value: 'save_offer' } });
    expect((form.getByLabelText('Layer') as HTMLInputElement).value).toBe('subscriber');
    // The subscriber's page knows no route or visitor facts: neither is asked.
    expect(form.queryByRole('group', { name: /^Routes it takes visitors from/ })).toBeNull();
    expect(form.queryByLabelText('Saved audience (optional)')).toBeNull();
    // Judged on who stayed, not on a funnel metric: the sample counts subscribers shown it.
    expect(form.queryByLabelText('Primary metric of the new experiment')).toBeNull();
    expect(form.getByLabelText('Planned subscribers shown the offer per variant')).toBeTruthy();
    expect(form.getByText(/^Planned sample: .* subscribers in each of 2 variants/)).toBeTruthy();
    expect(form.getByLabelText('Keep rate now (% of subscribers shown the offer)')).toBeTruthy();
    expect(form.getByText(/subscribers shown the offer per variant\.$/)).toBeTruthy();
    expect(form.getByText(/Variant a is the control: the save offer as written/)).toBeTruthy();
    const picker = form.getByLabelText('The save offer variant b shows');
    expect([...picker.querySelectorAll('option')].map((o) => o.value)).toEqual([
      '',
      'half_price',
      'call_us',
    ]);
    fireEvent.change(form.getByLabelText('Experiment name'), { target: { value: 'Half price' } });
    fireEvent.change(picker, { target: { value: 'half_price' } });
    // A funnel layer is refused beside the layer, as the worker's check would.
    fireEvent.change(form.getByLabelText('Layer'), { target: { value: 'paywall' } });
    fireEvent.click(form.getByRole('button', { name: 'Create draft experiment' }));
    const layer = form.getByLabelText('Layer');
    expect(layer.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(layer);
    expect(
      layer
        .getAttribute('aria-describedby')
        ?.split(' ')
        .map((id) => document.getElementById(id)?.textContent),
    ).toContain(
      "A save offer test changes the save offer, which the subscriber's page shows: put it in layer subscriber.",
    );
    expect($draft.get()?.document.experiments.experiments).not.toHaveProperty('half-price');
    fireEvent.change(layer, { target: { value: 'subscriber' } });
    fireEvent.click(form.getByRole('button', { name: 'Create draft experiment' }));
    const created = $draft.get()?.document.experiments.experiments['half-price'];
    expect(created).toMatchObject({
      layer: 'subscriber',
      audience: {},
      status: 'draft',
      variants: {
        a: { weight: 1, change: {} },
        b: { weight: 1, change: { saveOffer: 'half_price' } },
      },
    });
  });
});

describe('the list of experiments', () => {
  it('groups them by what visitors get now and says what the unpublished draft changes', async () => {
    stubWorker(() => null);
    const area = await openArea();
    expect(area.queryByRole('heading', { name: /in the draft/ })).toBeNull();
    const running = () => within(area.getByRole('list', { name: 'Running now (1)' }));
    const card = () => running().getByRole('article', { name: /^All-in-one landing/ });
    expect(card().querySelector('.badge')?.textContent).toBe('running');
    expect(within(card()).queryByText(/your draft/i)).toBeNull();

    // Paused in the draft: still live and running for visitors until published.
    fireEvent.click(area.getByRole('button', { name: 'Pause All-in-one landing…' }));
    const pause = within(await screen.findByRole('dialog', { name: 'Pause All-in-one landing?' }));
    fireEvent.click(pause.getByRole('button', { name: 'Pause All-in-one landing' }));
    expect(area.queryByRole('list', { name: /^Paused/ })).toBeNull();
    expect(card().querySelector('.badge')?.textContent).toBe('running');
    expect(
      within(card()).getByText('Your draft pauses it when you publish; until then it is running.'),
    ).toBeTruthy();

    // A copy exists only in the draft: not started, and said to be unpublished.
    act(() => duplicateExperiment('landing-all', 'landing-all-followup', 'followup'));
    const notStarted = within(area.getByRole('list', { name: 'Not started (1)' }));
    const copy = notStarted.getByRole('article', { name: /^All-in-one landing/ });
    expect(copy.querySelector('.badge')?.textContent).toBe('not started');
    expect(within(copy).getByText('New in your draft: not published yet.')).toBeTruthy();
    expect(running().getAllByRole('article')).toHaveLength(1);
  });
});

describe('a card’s and the create form’s own buttons', () => {
  it('duplicates an ended experiment for a follow-up from its card: a draft copy, said so', async () => {
    const state = consoleState();
    state.live.experiments.experiments['landing-all'] = {
      ...state.live.experiments.experiments['landing-all']!,
      status: 'stopped',
      startedAt: '2026-10-01T09:00:00.000Z',
      endedAt: '2026-10-10T09:00:00.000Z',
    };
    stubWorker(() => null, NO_VISITS, undefined, state);
    const area = await openArea();
    fireEvent.click(
      area.getByRole('button', { name: 'Duplicate All-in-one landing for a follow-up' }),
    );
    const notStarted = within(area.getByRole('list', { name: 'Not started (1)' }));
    expect(
      notStarted.getByRole('article', { name: /^All-in-one landing \(follow-up\)/ }),
    ).toBeTruthy();
    expect($draft.get()?.document.experiments.experiments['landing-all-followup']?.status).toBe(
      'draft',
    );
    expect($experimentsStatus.get()).toMatch(
      /^Duplicated landing-all as the draft landing-all-followup, with a new seed\.$/,
    );
  });

  it('adds and removes a variant, and takes the planned sample from its calculator', async () => {
    stubWorker(() => null);
    const area = await openArea();
    const form = within(area.getByRole('form', { name: 'Create an experiment' }));
    fireEvent.click(form.getByRole('button', { name: 'Add a variant' }));
    fireEvent.click(form.getByRole('button', { name: 'Remove variant c' }));
    expect(form.queryByRole('button', { name: 'Remove variant c' })).toBeNull();
    fireEvent.change(form.getByLabelText('Conversion rate now (%)'), { target: { value: '10' } });
    fireEvent.click(form.getByRole('button', { name: 'Plan for 6,706 per variant' }));
    expect(form.getByLabelText<HTMLInputElement>('Planned visitors per variant').value).toBe(
      '6706',
    );
  });
});
