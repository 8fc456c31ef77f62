/**
 * The right of withdrawal's terms, as the contract page (worker/contract-page/) states them and
 * the embedded portal honours them (docs/payments.md, "Withdraw and cancel online"). EU Consumer
 * Rights Directive Art. 9: 14 days from the contract's conclusion for a service, here the first
 * charge. Art. 14(3) lets a trader keep a share for the service supplied only when the consumer
 * expressly asked for it to start within the period and acknowledged losing the right; the
 * checkout asks for no such request, so by Art. 14(4) a withdrawal owes nothing: the whole first
 * charge goes back, as the money-back guarantee gives it (./guarantee.ts). After the 14 days a
 * withdrawal is a cancellation: nothing more renews.
 */

/** Days after the first charge during which a withdrawal refunds it. */
export const WITHDRAWAL_DAYS = 14;

const DAY_MS = 86_400_000;

/** Whether a subscription first charged at `chargedAt` (ISO 8601) may still be withdrawn from. */
export function withinWithdrawalPeriod(chargedAt: string | null, nowMs: number): boolean {
  const at = chargedAt === null ? Number.NaN : Date.parse(chargedAt);
  return Number.isFinite(at) && nowMs < at + WITHDRAWAL_DAYS * DAY_MS;
}
