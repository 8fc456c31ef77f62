import type { PollingResultResponse } from '../../shared/api/contract';
import { ApiFailure } from '../../shared/api/request';
import { isWorkerErrorCode } from '../../shared/api/worker-error-codes';
import { doubled } from '../../shared/backoff';

export type PollingResult = PollingResultResponse['data']['result_data'];

/** How a charge's answer is waited for (SPEC.md §7 leaves the delay between polls open, §4). */
export const POLLING = {
  /** The pause after the first call without an answer; it doubles after each further one... */
  firstDelayMs: 500,
  /** ...up to this. */
  maxDelayMs: 3_000,
  /** Past this, the checkout says 'confirming your payment' instead of waiting on. */
  deadlineMs: 60_000,
} as const;

/**
 * Statuses that answer nothing about the charge although they are 4xx: a timeout, the same key
 * still being worked on (409), or a request sent too early. The charge may still happen.
 */
const UNSETTLED_CLIENT_STATUSES: ReadonlySet<number> = new Set([408, 409, 425]);

/**
 * The one rule of a charge call (at most one charge per purchase, and the truth told).
 * Once a subscription, 3-D Secure retry or upsell POST has been sent, or a polling id named, only
 * an answer about that very request ends the attempt: a 4xx from the product API (or from the
 * worker, which then forwarded nothing). Everything else (no answer, a timeout, a 5xx whatever
 * code it carries, an answer that could not be read, a worker error) says nothing about whether
 * the card was charged, so the attempt and its key are kept and the same call is asked again.
 */
export function refusedForGood(error: unknown): boolean {
  if (!(error instanceof ApiFailure) || error.kind !== 'http' || error.status === null) {
    return false;
  }
  return error.status >= 400 && error.status < 500 && !UNSETTLED_CLIENT_STATUSES.has(error.status);
}

/**
 * The worker's codes that speak for the attempt itself, not only for this try: the product API
 * closed it unpaid after its provider kept failing (worker/provider-routing/stuck-attempt.ts), so
 * nothing was charged by any earlier send either, and none will be. They end the attempt.
 */
const ATTEMPT_CLOSED_CODES: ReadonlySet<string> = new Set([
  'provider_failed_other_offered',
  'provider_failed_not_charged',
]);

function closedUnpaid(error: unknown): boolean {
  return error instanceof ApiFailure && ATTEMPT_CLOSED_CODES.has(error.code ?? '');
}

/**
 * The worker refused the call itself (its own code, not a 5xx): nothing was forwarded this time.
 * About a call that may have reached the product API before, that says nothing, unless the code
 * speaks for the attempt (ATTEMPT_CLOSED_CODES).
 */
function refusedByWorker(error: unknown): boolean {
  return (
    error instanceof ApiFailure &&
    error.kind === 'http' &&
    error.status !== null &&
    error.status < 500 &&
    isWorkerErrorCode(error.code) &&
    !closedUnpaid(error)
  );
}

export interface AskDeps {
  sleep(ms: number): Promise<void>;
  now(): number;
  /** Hears each failure that is asked again, for the console. */
  report?(error: unknown): void;
}

export type Asked<T> =
  /** The call answered (for a poll: a final result). */
  | { kind: 'answered'; value: T }
  /** The call was refused for good (refusedForGood): nothing was charged by it. */
  | { kind: 'refused'; error: unknown }
  /** No answer before the deadline: the charge may or may not have happened. */
  | { kind: 'unanswered' };

/**
 * Asks `call` until it answers, is refused for good, or `deadline` (epoch ms) passes, pausing
 * between tries with a pause that doubles up to a cap. `call` resolves `undefined` for "not yet"
 * (a polling result still 202), which is asked again like a failure that said nothing.
 *
 * `sentBefore`: the call may already have reached the product API (a resumed attempt, a poll).
 * Then a refusal by the worker alone is asked again too: it forwarded nothing this time, and so
 * says nothing about the earlier send. Any try that fails otherwise may have reached it.
 */
export async function askUntilAnswered<T>(
  call: () => Promise<T | undefined>,
  deps: AskDeps,
  deadline: number,
  sentBefore: boolean,
): Promise<Asked<T>> {
  let delay: number = POLLING.firstDelayMs;
  let maybeSent = sentBefore;
  for (;;) {
    try {
      const value = await call();
      if (value !== undefined) return { kind: 'answered', value };
      maybeSent = true;
    } catch (error) {
      const byWorker = refusedByWorker(error);
      if (refusedForGood(error) && !(byWorker && maybeSent)) return { kind: 'refused', error };
      if (!byWorker) maybeSent = true;
      deps.report?.(error);
    }
    if (deps.now() + delay > deadline) return { kind: 'unanswered' };
    await deps.sleep(delay);
    delay = doubled(delay, POLLING.maxDelayMs);
  }
}
