// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PlannedSample, sampleFor } from '../../../console/experiments/PlannedSample';
import { plannedVisitorsPerArm } from '../../../shared/statistics/planned-sample';

/** The console works out the planned sample with the results' own statistics. */

afterEach(cleanup);

describe('the planned sample from a rate and a lift', () => {
  it('is what the results are tuned for: 6,706 per variant for 20% on 10%', () => {
    expect(sampleFor(10, 20)).toBe(6706);
    expect(sampleFor(2, 10)).toBe(plannedVisitorsPerArm({ baselineRate: 0.02, relativeLift: 0.1 }));
    // A smaller lift takes more visitors, about four times as many for half the lift.
    expect(sampleFor(10, 10)! / sampleFor(10, 20)!).toBeGreaterThan(3.5);
  });

  it('is none for rates that make no test', () => {
    expect(sampleFor(0, 20)).toBeNull();
    expect(sampleFor(100, 20)).toBeNull();
    expect(sampleFor(10, 0)).toBeNull();
    expect(sampleFor(60, 80)).toBeNull();
    expect(sampleFor(Number.NaN, 20)).toBeNull();
  });

  it('goes into the plan only when the marketer chooses it', () => {
    const onPlan = vi.fn();
    render(<PlannedSample onPlan={onPlan} />);
    fireEvent.change(screen.getByLabelText('Conversion rate now (%)'), { target: { value: '10' } });
    expect(onPlan).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Plan for 6,706 per variant' }));
    expect(onPlan).toHaveBeenCalledWith(6706);
    fireEvent.change(screen.getByLabelText('Smallest lift worth finding (%)'), {
      target: { value: '0' },
    });
    expect(screen.queryByRole('button', { name: /^Plan for/ })).toBeNull();
  });
});
