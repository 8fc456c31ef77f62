import type { LifecycleEventType } from '../../shared/api/lifecycle';

/**
 * A subscription's failed renewal, from the product API's `renewal_failed` until it is paid or
 * the subscription ends (docs/product-api.md, "Failed renewals"). The worker tells a recovery
 * from an ordinary renewal by this record, not by anything the product API marks: the first
 * `renewal` that happened at or after an open failure paid it, and its amount is recovered
 * revenue in the experiments' results. Pure: the ledger (ledger.ts) reads and writes the open
 * failure in the same transaction as the event.
 */

/** What one event does to the open failure. */
export interface FailureStep {
  /** The subscription's open failure after the event (epoch ms), or null when none. */
  failedAt: number | null;
  /** The open failure the event closed, kept with the event so a released claim gives it back. */
  closed: number | null;
  /** A renewal that paid the open failure. */
  recovered: boolean;
}

/**
 * The step of an event of `kind` at `at` on a subscription whose open failure is `open`:
 * - `renewal_failed` opens one (a further failure of the same renewal keeps the first's time);
 * - `renewal` at or after an open failure closes it as recovered; one dated before it (a late
 *   delivery of an earlier renewal) is ordinary and leaves it open;
 * - `cancellation` closes it unpaid;
 * - refunds and chargebacks leave it as it is.
 */
export function failureStep(
  kind: LifecycleEventType,
  open: number | null,
  at: number,
): FailureStep {
  const unchanged: FailureStep = { failedAt: open, closed: null, recovered: false };
  switch (kind) {
    case 'renewal_failed':
      return { failedAt: open ?? at, closed: null, recovered: false };
    case 'renewal':
      if (open === null || at < open) return unchanged;
      return { failedAt: null, closed: open, recovered: true };
    case 'cancellation':
      return { failedAt: null, closed: open, recovered: false };
    case 'refund':
    case 'chargeback':
      return unchanged;
  }
}
