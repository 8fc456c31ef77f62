import type { PollingResultResponse } from '../../shared/api/contract';
import { failureLeftNoAnswer } from '../../shared/api/error-text';
import { ApiFailure } from '../../shared/api/request';
import type { PollingResultAnswer } from '../api/client';

export type PollingResult = PollingResultResponse['data']['result_data'];

/** How the result of a charge is read (SPEC.md §7 leaves the delay between polls open, §4). */
export const POLLING = {
  /** The pause after the first pending answer; it doubles after each further one... */
  firstDelayMs: 500,
  /** ...up to this. */
  maxDelayMs: 3_000,
  /** Past this, the checkout says 'confirming your payment' instead of waiting on (issue 5). */
  deadlineMs: 60_000,
} as const;

export interface PollingDeps {
  getPollingResult(pollingId: string): Promise<PollingResultAnswer>;
  sleep(ms: number): Promise<void>;
  now(): number;
}

export type PollingEnd =
  /** The charge is final: the portal's `result_data`, null when it returned nothing. */
  | { kind: 'final'; result: PollingResult }
  /** Still 202 (or unreachable) at the deadline. */
  | { kind: 'pending' }
  /** The portal refused to answer about this polling id; the error to show. */
  | { kind: 'error'; error: unknown };

/**
 * Reads GET /polling/get-result/{id} while it answers 202 (SPEC.md §7), with a pause that doubles
 * up to a cap, until the deadline. A poll that got no answer (offline for a moment, the portal
 * unreachable) is read as "still pending": it says nothing about the charge, which goes on.
 */
export async function pollUntilFinal(pollingId: string, deps: PollingDeps): Promise<PollingEnd> {
  const deadline = deps.now() + POLLING.deadlineMs;
  let delay: number = POLLING.firstDelayMs;
  for (;;) {
    try {
      const answer = await deps.getPollingResult(pollingId);
      if (answer.status !== 202) return { kind: 'final', result: answer.data.data.result_data };
    } catch (error) {
      if (!isPassing(error)) return { kind: 'error', error };
    }
    if (deps.now() + delay > deadline) return { kind: 'pending' };
    await deps.sleep(delay);
    delay = Math.min(delay * 2, POLLING.maxDelayMs);
  }
}

/**
 * No answer at all, or the worker could not reach the portal: worth asking again. An answer that
 * came but could not be read is not (SPEC.md §8 shows a parse failure).
 */
function isPassing(error: unknown): boolean {
  const unreadable =
    error instanceof ApiFailure && (error.kind === 'parse' || error.kind === 'shape');
  return failureLeftNoAnswer(error) && !unreadable;
}
