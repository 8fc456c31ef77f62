import { describe, expect, it } from 'vitest';
import { failureStep } from '../../../worker/lifecycle/open-failure';

/** How the ledger tells a recovered renewal from an ordinary one (worker/lifecycle/open-failure.ts). */

const FAILED = Date.UTC(2026, 10, 22, 7, 0, 0);
const LATER = FAILED + 3_600_000;

describe('a subscription’s open failure', () => {
  it('opens at the first renewal_failed and keeps that time through the retries’ failures', () => {
    expect(failureStep('renewal_failed', null, FAILED)).toEqual({
      failedAt: FAILED,
      closed: null,
      recovered: false,
    });
    expect(failureStep('renewal_failed', FAILED, LATER).failedAt).toBe(FAILED);
  });

  it('is closed as recovered by a renewal at or after it', () => {
    expect(failureStep('renewal', FAILED, FAILED)).toEqual({
      failedAt: null,
      closed: FAILED,
      recovered: true,
    });
    expect(failureStep('renewal', FAILED, LATER).recovered).toBe(true);
  });

  it('stays open after a renewal dated before it, which is ordinary', () => {
    expect(failureStep('renewal', FAILED, FAILED - 1)).toEqual({
      failedAt: FAILED,
      closed: null,
      recovered: false,
    });
  });

  it('is closed unpaid by a cancellation, and left alone by refunds and chargebacks', () => {
    expect(failureStep('cancellation', FAILED, LATER)).toEqual({
      failedAt: null,
      closed: FAILED,
      recovered: false,
    });
    expect(failureStep('refund', FAILED, LATER).failedAt).toBe(FAILED);
    expect(failureStep('chargeback', FAILED, LATER).failedAt).toBe(FAILED);
  });

  it('makes no ordinary renewal a recovery', () => {
    expect(failureStep('renewal', null, LATER)).toEqual({
      failedAt: null,
      closed: null,
      recovered: false,
    });
  });
});
