// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { RampStatus } from '../../../console/experiments/RampStatus';
import { rampStatus } from '../../../worker/experiments/ramps/ramp-status';
import { aiLandingTest } from '../../fixtures/ai-landing-test';
import { resultsAnswer } from '../../fixtures/experiment-results-answer';
import { rampedLandingTest } from '../../fixtures/ramped-landing-test';

/**
 * A guarded ramp on the experiment's results (console/experiments/RampStatus.tsx), from what the
 * results answer says of it (worker/experiments/ramps/ramp-status.ts): its step, the next gate,
 * and each guardrail's action and state, read-only.
 */

afterEach(cleanup);

const NOW = Date.parse('2026-12-02T12:00:00Z');

const ramped = (status: 'running' | 'rolled_back' = 'running') =>
  rampedLandingTest(
    status === 'rolled_back'
      ? { status, reason: 'broken: declines (6.00% against 3.00%)' }
      : { status },
  );

/** Results with `declines` of 3,000 exposed in the variant, 90 in the control. */
function results(declines: number) {
  const answer = resultsAnswer({ control: { exposed: 3000 }, cheap: { exposed: 3000 } });
  answer.variants[0]!.guardrails.declines.count = 90;
  answer.variants[1]!.variant = 'ai';
  answer.variants[1]!.guardrails.declines.count = declines;
  return answer;
}

const rows = () =>
  within(screen.getByRole('table', { name: /^Guardrails of the ramp/ }))
    .getAllByRole('row')
    .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent ?? ''));

describe('a guarded ramp on the results', () => {
  it('shows its step, the next gate and each guardrail', () => {
    render(<RampStatus ramp={rampStatus(ramped(), results(95), NOW)!} />);
    expect(screen.getByRole('heading', { name: 'Guarded ramp' })).toBeTruthy();
    expect(screen.getByText(/^Running, step 1 of 2/).textContent).toBe(
      'Running, step 1 of 2 since 2026-12-01 00:00 UTC: 10% of its visitors enter, half getting the variant and half the control.',
    );
    expect(screen.getByText(/^Next gate/).textContent).toBe(
      'Next gate: Step 2 (100% enter) once 2026-12-02 00:00 UTC has passed and each arm has 500 exposed (now 3,000), with no guardrail that holds or rolls back broken.',
    );
    expect(rows().slice(0, 4)).toEqual([
      ['Guardrail', 'When broken, it', 'State', 'What it sees'],
      ['Primary conversion (worse only)', 'rolls back', 'OK', '0.00% converted against 0.00%'],
      ['Payment declines', 'rolls back', 'OK', '3.17% against 3.00%'],
      ['Checkout errors', 'rolls back', 'OK', '0.00% against 0.00%, too few to judge yet'],
    ]);
    expect(rows().slice(4, 6)).toEqual([
      ['Server errors (5xx)', 'rolls back', 'OK', '0.03% against 0.03%, too few to judge yet'],
      ['Page errors (hold only)', 'holds', 'OK', '0.07% against 0.07%, too few to judge yet'],
    ]);
    // Conversion, declines, checkout, server and client errors and the sample ratio act:
    // 0.05 / 6 each.
    expect(screen.getByRole('table', { name: /α = 0\.0083 / })).toBeTruthy();
  });

  it('says which guardrail broke, and that a rolled-back variant reaches no one', () => {
    const { unmount } = render(<RampStatus ramp={rampStatus(ramped(), results(180), NOW)!} />);
    expect(rows()[2]).toEqual(['Payment declines', 'rolls back', 'Broken', '6.00% against 3.00%']);
    unmount();
    render(<RampStatus ramp={rampStatus(ramped('rolled_back'), results(180), NOW)!} />);
    expect(screen.getByText(/^Rolled back/).textContent).toBe(
      'Rolled back at step 1 of 2 (2026-12-01 00:00 UTC): the variant reaches no one, and every exposure recorded stays in these results.',
    );
    expect(screen.getByText(/^Reason:/).textContent).toBe(
      'Reason: broken: declines (6.00% against 3.00%)',
    );
    expect(screen.queryByText(/^Next gate/)).toBeNull();
  });

  it('is absent for an experiment without a ramp', () => {
    expect(rampStatus(aiLandingTest(1), results(90), NOW)).toBeNull();
  });
});
