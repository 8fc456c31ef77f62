import { $checkout } from '../stores/checkout';
import { type AttemptStore, readAttempt } from './attempt';

/**
 * The page's one AttemptStore: the `attempt` field of the persisted `$checkout` slice (SPEC.md §3
 * Persisted slices), so the attempt survives a reload. One object for the page, because the state
 * machine treats runs on the same store as the same purchase (islands/payments/purchase.ts).
 * What localStorage gives back is checked: a malformed value reads as no attempt.
 */
export const checkoutAttempts: AttemptStore = {
  load: () => readAttempt($checkout.get().attempt),
  save: (attempt) => $checkout.setKey('attempt', attempt),
  clear: () => $checkout.setKey('attempt', null),
};
