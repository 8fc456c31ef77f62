/**
 * What happened to a subscription's money after its first payment, as the event archive and
 * Amplitude record it (worker/lifecycle/money-event.ts makes them from the product API's lifecycle
 * events): one typed event per payment, refund or change of state, each once. The first payment
 * stays `subs_purchase_completed` / `upsell_purchase_completed` (catalogue.ts PURCHASE_EVENTS).
 */

/** A money event's kind: a lifecycle event's type, a renewal that paid an open failure apart. */
export type MoneyKind =
  | 'renewal'
  | 'recovery'
  | 'refund'
  | 'chargeback'
  | 'cancellation'
  | 'renewal_failed';

/** The event name of each kind, in SPEC.md §4's `subs_…` style. */
export const MONEY_EVENT_NAMES: Readonly<Record<MoneyKind, string>> = {
  renewal: 'subs_renewal_completed',
  recovery: 'subs_recovery_completed',
  refund: 'subs_refund_completed',
  chargeback: 'subs_chargeback_received',
  cancellation: 'subs_canceled',
  renewal_failed: 'subs_renewal_failed',
};

/** Every money event's name. */
export const MONEY_EVENTS: ReadonlySet<string> = new Set(Object.values(MONEY_EVENT_NAMES));

/**
 * The sign a kind's amount counts with in revenue: a renewal or a recovery took money, a refund
 * or a chargeback gave it back; a cancellation or a failed renewal moved none (null: no revenue).
 */
export const MONEY_SIGN: Readonly<Record<MoneyKind, 1 | -1 | null>> = {
  renewal: 1,
  recovery: 1,
  refund: -1,
  chargeback: -1,
  cancellation: null,
  renewal_failed: null,
};

export function isMoneyKind(value: unknown): value is MoneyKind {
  return typeof value === 'string' && Object.hasOwn(MONEY_EVENT_NAMES, value);
}
