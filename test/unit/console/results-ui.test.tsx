// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { $results, loadResults } from '../../../console/kit/stores/results';
import { PhaseResults } from '../../../console/results/PhaseResults';
import { Results } from '../../../console/results/Results';
import { CONSOLE_RESULTS_PATH, type ResultsAnswer } from '../../../shared/console-api/results';
import { resultsAnswer } from './fixtures';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The rows of the metrics table named `caption`, each as its cells' texts. */
function rowsOf(caption: string): string[][] {
  return within(screen.getByRole('table', { name: caption }))
    .getAllByRole('row')
    .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent ?? ''));
}

/** A chart's figure, by its caption. */
function figure(caption: string): HTMLElement {
  return screen.getByText(caption, { selector: 'figcaption' }).closest('figure')!;
}

describe('the results of a phase', () => {
  it('puts the control first, marked, without a lift; the variant with its lift and verdict', () => {
    render(<PhaseResults answer={resultsAnswer()} />);
    const cards = screen.getAllByRole('article');
    expect(cards.map((card) => card.querySelector('h3')?.textContent)).toEqual([
      'default control',
      'lp17 ',
    ]);
    expect(rowsOf('default (control)')[0]).toEqual(['Metric', 'Converted', 'Rate']);
    expect(rowsOf('default (control)')[4]).toEqual(['Purchase primary', '101', '5%']);
    const lp17 = rowsOf('lp17 against default');
    expect(lp17[0]).toEqual(['Metric', 'Converted', 'Rate', 'Lift (95% interval)', 'Verdict']);
    expect(lp17[4]).toEqual(['Purchase primary', '112', '5.6%', '+12% (+4% to +20%)', 'better']);
    expect(lp17[1]).toEqual(['Lookup secondary', '1,344', '67.2%', '+12% (+4% to +20%)', 'better']);
    // Revenue per visitor in dollars (minor units in the answer), and the cap said once.
    expect(lp17[5]?.[2]).toBe('$1.67');
    expect(screen.getByText(/^Revenue above \$120\.00 capped/)).toBeTruthy();
    expect(screen.getByText(/€29\.90 in other currencies/)).toBeTruthy();
    // The first thing read about the variant: its verdict on the primary metric.
    const lp17Card = screen.getByRole('article', { name: /^lp17/ });
    expect(lp17Card.querySelector('.primary-verdict')?.textContent).toBe(
      'Purchase (primary): better, lift +12% (+4% to +20%)',
    );
    expect(within(lp17Card).getByText(/visitors exposed/).textContent).toBe(
      '2,000 visitors exposed, 50% of new visitors',
    );
    const control = screen.getByRole('article', { name: /^default/ });
    expect(control.textContent).toContain('(7 known bots not counted)');
    expect(screen.getByText(/^Split healthy/).textContent).toBe(
      '✓ Split healthy: visitors match the weights (p = 0.53).',
    );
  });

  it('says what was left out of an arm and why: known bots, addresses over their budget, pages never confirmed', () => {
    const answer = resultsAnswer();
    const variants = answer.variants.map((variant) =>
      variant.control
        ? { ...variant, overBudget: 12 }
        : { ...variant, bots: 0, overBudget: 1, unconfirmed: 4 },
    );
    render(<PhaseResults answer={{ ...answer, variants }} />);
    expect(screen.getByRole('article', { name: /^default/ }).textContent).toContain(
      '(7 known bots, 12 over their address’s daily budget not counted)',
    );
    expect(screen.getByRole('article', { name: /^lp17/ }).textContent).toContain(
      '(1 over their address’s daily budget, 4 never confirmed by their page’s script not counted)',
    );
  });

  it('names the live config once when one publish wrote its split and its flows', () => {
    render(<PhaseResults answer={{ ...resultsAnswer(), configVersion: 'v7+v7' }} />);
    expect(screen.getByText(/live config/).textContent).toContain('(live config v7).');
    cleanup();
    // Written apart (an old CLI, KV by hand), both are said.
    render(<PhaseResults answer={{ ...resultsAnswer(), configVersion: 'v7+v5' }} />);
    expect(screen.getByText(/live config/).textContent).toContain('(live config v7+v5).');
  });

  it('marks the primary metric the experiment chose, and the others secondary', () => {
    const answer = resultsAnswer();
    answer.primaryMetric = 'signup';
    for (const variant of answer.variants) {
      for (const metric of variant.metrics) metric.primary = metric.metric === 'signup';
    }
    render(<PhaseResults answer={answer} />);
    const marks = rowsOf('lp17 against default')
      .slice(1)
      .map((row) => row[0]);
    expect(marks).toEqual([
      'Lookup secondary',
      'Sign-up primary',
      'Checkout secondary',
      'Purchase secondary',
      'Revenue per visitor secondary',
    ]);
    expect(screen.getByText(/^Phase/).textContent).toContain('Primary metric: Sign-up');
  });

  it('raises the alarm on a broken split and withholds every verdict', () => {
    const answer = resultsAnswer();
    answer.sampleRatio = { chiSquare: 48.2, pValue: 3.8e-12, alarm: true };
    for (const metric of answer.variants[0]!.metrics) metric.verdict = 'withheld_srm';
    render(<PhaseResults answer={answer} />);
    expect(screen.getByText(/^The split is broken/).closest('.notice')?.textContent).toMatch(
      /^The split is broken: visitors do not match the weights \(p < 0\.000001\)\. Every verdict of this phase is withheld\./,
    );
    expect(screen.queryByText(/Split healthy/)).toBeNull();
    expect(
      rowsOf('lp17 against default')
        .slice(1)
        .map((row) => row[4]),
    ).toEqual(Array(5).fill('withheld (SRM)'));
    expect(screen.queryByText('better')).toBeNull();
  });

  it('says plainly when nobody has been exposed yet, and shows no table', () => {
    const answer: ResultsAnswer = {
      ...resultsAnswer(),
      startedAt: null,
      mainCurrency: null,
      revenueCap: null,
      liftOverDays: [],
    };
    answer.variants = answer.variants.map((variant) => ({ ...variant, exposed: 0, bots: 0 }));
    render(<PhaseResults answer={answer} />);
    expect(screen.getByText('No visitor has been exposed in this phase yet.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('draws each step of the funnel and the lift by day, each with its text', () => {
    render(<PhaseResults answer={resultsAnswer()} />);
    const funnel = figure('Funnel of lp17');
    expect([...funnel.querySelectorAll('li')].map((step) => step.textContent)).toEqual([
      'Exposed: 2,000 (100%)',
      'Lookup: 1,344 (67.2%)',
      'Sign-up: 672 (33.6%)',
      'Checkout: 448 (22.4%)',
      'Purchase: 112 (5.6%)',
    ]);
    const lift = figure('Purchase: lift of lp17 against default, day by day');
    expect(lift.querySelector('svg')?.getAttribute('aria-hidden')).toBe('true');
    const days = within(lift)
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.textContent);
    expect(days).toEqual([
      '20 Novnone yetnone yet',
      '21 Nov+10%−40% to +60%',
      '22 Nov+12%+4% to +20%',
    ]);
    // The control is compared with nobody: no lift chart of its own.
    expect(screen.queryByText(/lift of default/)).toBeNull();
  });
});

describe('picking a phase', () => {
  it('loads that phase, says so, links its CSV and JSON, and puts it in the address', async () => {
    const asked: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        asked.push(url);
        const phase = new URL(url, 'http://console.test').searchParams.get('phase');
        const answer = { ...resultsAnswer(), phase: phase ? Number(phase) : 2 };
        return new Response(JSON.stringify(answer), {
          headers: { 'content-type': 'application/json' },
        });
      }),
    );
    $results.set({ answer: null, loading: true, failure: null });
    render(<Results livePhase={2} />);
    await loadResults(null);
    const user = userEvent.setup();
    const picker = await screen.findByLabelText('Phase');
    expect([...picker.querySelectorAll('option')].map((option) => option.textContent)).toEqual([
      'Phase 2 (live)',
      'Phase 1',
    ]);
    expect(screen.getByRole('link', { name: /^Download CSV/ }).getAttribute('href')).toBe(
      `${CONSOLE_RESULTS_PATH}?format=csv&phase=2`,
    );
    await user.selectOptions(picker, '1');
    await user.click(screen.getByRole('button', { name: 'Show' }));
    expect(await screen.findByText('Showing phase 1.')).toBeTruthy();
    expect(asked).toEqual([CONSOLE_RESULTS_PATH, `${CONSOLE_RESULTS_PATH}?phase=1`]);
    expect(location.search).toBe('?phase=1');
    expect(screen.getByRole('link', { name: /^JSON/ }).getAttribute('href')).toBe(
      `${CONSOLE_RESULTS_PATH}?phase=1`,
    );
    expect(screen.getByText(/^Phase/, { selector: 'p' }).textContent).toMatch(/^Phase 1,/);
  });

  it('keeps the picker when a phase cannot be loaded, and says why', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(JSON.stringify({ ok: false, error: 'config_store_failed' }), {
            status: 503,
            headers: { 'content-type': 'application/json' },
          }),
      ),
    );
    $results.set({ answer: resultsAnswer(), loading: false, failure: null });
    render(<Results livePhase={2} />);
    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText('Phase'), '1');
    await user.click(screen.getByRole('button', { name: 'Show' }));
    // Not the publish's wording of that code: nothing was being published.
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The results could not be read from their store. Try again in a minute.',
    );
    expect(screen.getByLabelText('Phase')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });
});
