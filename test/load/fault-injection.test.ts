import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltWorker, startBuiltWorker } from '../../scripts/built-worker';
import {
  brokenPromises,
  EACH_CALL_IN_TURN,
  type FaultRunResult,
  runFaultLoad,
  summary,
} from '../../scripts/load/fault-run';

/**
 * The fault-injection run, small enough for every `npm test`: concurrent visitors pay
 * through the built development worker, with the real payment state machine, while the portal's
 * sign-up, subscription POST (charging, then losing its answer) and polling result fail in turn.
 * `npm run load` is the same run at full size.
 */

let worker: BuiltWorker;
let result: FaultRunResult;

beforeAll(async () => {
  worker = await startBuiltWorker({ quiet: true });
  result = await runFaultLoad({
    origin: worker.url.origin,
    portalDb: worker.portalDb,
    eventsDb: worker.eventsDb,
    visitors: 12,
    concurrency: 8,
    phases: EACH_CALL_IN_TURN,
    faultMs: 3_000,
    failuresSeen: () => worker.logs.filter((line) => line.error === 'portal_error').length,
    patienceMs: 60_000,
    settleMs: 15_000,
  });
}, 120_000);

afterAll(() => worker?.stop());

describe('paying while portal calls fail in turn', () => {
  it('charges nobody twice, tells nobody it failed, loses no purchase event', () => {
    expect(brokenPromises(result), summary(result)).toEqual([]);
    expect(result.visitors).toHaveLength(12);
    for (const visitor of result.visitors) {
      expect(visitor.charges, summary(result)).toBe(1);
      expect(visitor.told, summary(result)).not.toContain('failed');
      expect(visitor.told.at(-1)).toBe('succeeded');
      expect([visitor.verified, visitor.stored]).toEqual([1, 1]);
    }
  });

  it('the faults did strike each call, and each struck answer is an error line for ops', () => {
    const struck = new Set(
      worker.logs.filter((line) => line.error === 'portal_error').map((line) => line.call),
    );
    expect(struck).toEqual(new Set(['signup', 'pollingSubscription', 'pollingResult']));
    // Visitors met the outage: sign-ups were refused and had to be tried again.
    expect(result.visitors.some((visitor) => visitor.signupRetries > 0)).toBe(true);
  });
});
