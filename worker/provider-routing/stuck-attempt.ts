import type { ChargeOutcome, ChargeProvider } from '../../shared/charge-outcome';

/**
 * A checkout's charge stuck on a failing provider (docs/payments.md, "A visitor already paying
 * when the provider fails"). The page asks the same attempt again and again while its provider
 * answers 5xx or nothing; the attempt may have charged (TECH_UNKNOWN), so the ledger lets no
 * other attempt through. Research's rule for TECH_UNKNOWN: reconcile first, cascade only once
 * non-authorisation is proven. So, once the attempt has failed long enough (or its provider is
 * known to be failing), the worker asks the product API to close it (shared/api/attempt-close.ts)
 * instead of sending it once more; closed, nothing was charged and nothing will be, and the page
 * is offered the other provider's form. Pure: the wiring is ./checkout-provider.ts.
 */

/**
 * How long an attempt's provider may fail it before the worker closes it, from its first call.
 * The page asks again after 0.5, 1.5, 3.5, 6.5, 9.5 s (islands/payments/poll-result.ts POLLING),
 * so the close comes at the resend at 9.5 s, and the offer within the 15 s a visitor is promised,
 * with room for a slow product API.
 */
export const FAILOVER_AFTER_MS = 8_000;

/** What the decision reads of the attempt, as the purchase's ledger keeps it. */
export interface KeptAttempt {
  provider: ChargeProvider;
  /** How long ago its first call was, by the clock the ledger stamped it with. */
  waitedMs: number;
  outcome: ChargeOutcome | null;
  challenged: boolean;
  pollingId: string | null;
}

/**
 * Whether a resend of `attempt` should close it rather than be sent again: it was answered with
 * a provider's failure that may have charged (TECH_UNKNOWN: a 5xx, a timeout), its POST named
 * no polling id (one that did is reconciled by it, worker/purchase-ledger/charge-guard.ts), no
 * 3-D Secure was asked (neither provider takes the other's authentication), and either its
 * provider is failing for everyone or it has failed this attempt for FAILOVER_AFTER_MS.
 */
export function closeDue(attempt: KeptAttempt, provider: { failing: boolean }): boolean {
  if (attempt.outcome !== 'TECH_UNKNOWN' || attempt.pollingId !== null) return false;
  if (attempt.challenged) return false;
  return provider.failing || attempt.waitedMs >= FAILOVER_AFTER_MS;
}

/** What asking the product API to close an attempt came to. */
export type CloseAnswer =
  /** Nothing was charged under it, and nothing will be. */
  | 'closed'
  /** A charge was made under it: the call, asked again, says what it came to. */
  | 'charged'
  /** The product API did not answer usably: nothing is known, the attempt stays as it was. */
  | 'unknown';
