import { describe, expect, it } from 'vitest';
import type { ProviderJourneyReport } from '../../../scripts/load/provider-journey';
import {
  brokenOutagePromises,
  faultWindows,
  type OutageResult,
} from '../../../scripts/load/provider-outage';

/**
 * The provider outage run's verdict (`npm run load -- --provider stripe`): the three promises it
 * checks, each shown broken by a run that breaks it, and kept by one that keeps them.
 */

const START = 1_000_000;
const at = (seconds: number) => START + seconds * 1000;

function visitor(over: Partial<ProviderJourneyReport & { charges: number }> = {}) {
  return {
    visitorId: crypto.randomUUID(),
    userId: crypto.randomUUID(),
    given: 'stripe' as const,
    pressedAt: at(10),
    firstFailureAt: at(10),
    failuresAt: [at(10), at(55)],
    offeredAt: at(20),
    paidWith: 'braintree' as const,
    told: ['failed', 'succeeded'] as ProviderJourneyReport['told'],
    problem: null,
    charges: 1,
    ...over,
  };
}

function run(over: Partial<OutageResult> = {}): OutageResult {
  return {
    visitors: [visitor()],
    faults: faultWindows([60, 30, 30]),
    turns: [{ at: 12, failing: true }],
    routed: {},
    startedAt: START,
    durationMs: 220_000,
    ...over,
  };
}

describe('the provider outage run', () => {
  it('reads the pattern as windows of the fault: on, off, on', () => {
    expect(faultWindows([60, 30, 30])).toEqual([
      { from: 0, to: 60 },
      { from: 90, to: 120 },
    ]);
  });

  it('keeps its promises in a run that keeps them', () => {
    const back = [
      { at: 12, failing: true },
      { at: 200, failing: false },
    ];
    expect(brokenOutagePromises(run({ turns: back }), 'stripe')).toEqual([]);
  });

  it('breaks on a provider back 2 s after its fault ended, and on the flip that follows', () => {
    const flipping = [
      { at: 12, failing: true },
      { at: 62, failing: false },
      { at: 95, failing: true },
    ];
    expect(brokenOutagePromises(run({ turns: flipping }), 'stripe')).toEqual([
      'the provider was counted back 7.0 s after the last failure a visitor met, before its 60 s cool-down',
      'the provider flipped back and failing again 1 times',
    ]);
  });

  it('breaks on a visitor offered late, or never, and on a double charge', () => {
    const late = visitor({ offeredAt: at(26) });
    const never = visitor({ offeredAt: null, paidWith: null, charges: 0 });
    const twice = visitor({ charges: 2 });
    expect(brokenOutagePromises(run({ visitors: [late, never, twice] }), 'stripe')).toEqual([
      '1 visitors charged more than once',
      '2 of 3 visitors already paying were not offered the other provider within 15 s',
    ]);
  });
});
