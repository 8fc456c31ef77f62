// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { $testTraffic } from '../../../console/alerts/stores/test-traffic';
import { TestTraffic } from '../../../console/alerts/TestTraffic';
import { $live } from '../../../console/kit/stores/live';
import type { ConsoleState } from '../../../shared/console-api/config';
import {
  CONSOLE_SIMULATE_PATH,
  type SimulationBatchAnswer,
  type SimulationStarted,
  type VariantTally,
} from '../../../shared/console-api/simulation';
import { aiLandingTest } from '../../fixtures/ai-landing-test';
import { consoleState } from './fixtures';

/**
 * The console's Send test traffic (console/alerts/TestTraffic.tsx, development only): each
 * variant's declined payments, failing scripts and slower pages, sent through the local
 * simulator as `npm run experiments -- simulate --harm` sends them, start then a batch per
 * thousand, and what it wrote said per variant; a field out of range or a refusal said.
 */

const STARTED = {
  experiment: 'lp-ai',
  phase: 1,
  variants: ['control', 'ai'],
  visitors: 1500,
  days: 1,
  now: 1_800_000_000_000,
  batchSize: 1000,
} as SimulationStarted;

const tally = (exposed: number, purchase: number, declined: number): VariantTally =>
  ({ exposed, purchase, declined, errors: 0 }) as VariantTally;

function stubSimulator(refusal?: string) {
  const fetch = vi.fn(async (url: string, _init?: RequestInit) => {
    if (refusal) return Response.json({ error: refusal }, { status: 422 });
    if (url === `${CONSOLE_SIMULATE_PATH}/start`) return Response.json(STARTED);
    const answer: Partial<SimulationBatchAnswer> = {
      tallies: { control: tally(400, 20, 0), ai: tally(350, 0, 100) },
    };
    return Response.json(answer);
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

function drawn() {
  const state: ConsoleState = consoleState();
  state.live.experiments.experiments['lp-ai'] = aiLandingTest(1);
  $live.set({ kind: 'ready', state });
  render(<TestTraffic />);
  return userEvent.selectOptions(screen.getByLabelText('Experiment'), 'lp-ai');
}

const bodyOf = (call: unknown[] | undefined) =>
  JSON.parse(String((call?.[1] as RequestInit | undefined)?.body));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  $testTraffic.set(null);
});

describe('Send test traffic', () => {
  it('sends each variant its harm through the simulator, and says what it wrote', async () => {
    const fetch = stubSimulator();
    await drawn();
    // Picked by its name, as the marketer knows it.
    expect(screen.getByRole('option', { selected: true }).textContent).toBe('AI landing (lp-ai)');
    const ai = screen.getByRole('group', { name: 'Variant ai' });
    const declines = within(ai).getByLabelText(
      'Declined payments, % of those reaching the checkout',
    );
    await userEvent.clear(declines);
    await userEvent.type(declines, '60');
    const visitors = screen.getByLabelText('Visitors');
    await userEvent.clear(visitors);
    await userEvent.type(visitors, '1500{Enter}');
    await screen.findByText(/^Sent 1,500 test visitors to lp-ai\./);
    expect(screen.getByRole('status').textContent).toBe(
      'Sent 1,500 test visitors to lp-ai. control: 800 exposed, 40 purchases, 0 declined payments, 0 failing scripts; ai: 700 exposed, 0 purchases, 200 declined payments, 0 failing scripts.',
    );
    expect(fetch.mock.calls.map(([url]) => url)).toEqual([
      `${CONSOLE_SIMULATE_PATH}/start`,
      `${CONSOLE_SIMULATE_PATH}/batch`,
      `${CONSOLE_SIMULATE_PATH}/batch`,
    ]);
    expect(bodyOf(fetch.mock.calls[0])).toMatchObject({
      experiment: 'lp-ai',
      visitors: 1500,
      days: 1,
      harm: { ai: { declines: 0.6, errors: 0 } },
      vitals: {},
    });
    expect(fetch.mock.calls.slice(1).map((call) => bodyOf(call).batch)).toEqual([0, 1]);
  });

  it('refuses a share out of range before sending, and shows the simulator’s refusal', async () => {
    const fetch = stubSimulator('"lp-ai" is a draft, which exposes no one');
    await drawn();
    const ai = screen.getByRole('group', { name: 'Variant ai' });
    const errors = within(ai).getByLabelText('Failing page scripts, % of visitors');
    await userEvent.clear(errors);
    await userEvent.type(errors, '140');
    await userEvent.click(screen.getByRole('button', { name: 'Send test traffic' }));
    expect(screen.getByRole('alert').textContent).toBe(
      'Variant ai: each share is a number from 0 to 100 (slower pages: 0 to 300).',
    );
    expect(fetch).not.toHaveBeenCalled();
    await userEvent.clear(errors);
    await userEvent.type(errors, '20');
    await userEvent.click(screen.getByRole('button', { name: 'Send test traffic' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      '"lp-ai" is a draft, which exposes no one',
    );
  });
});
