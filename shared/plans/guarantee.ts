/**
 * The money-back guarantee's terms, as the subscriber's page offers it and the embedded portal
 * honours it. SPEC.md §1 and §9 promise "a 100% money-back guarantee" and the copy says "If the
 * app does not work for you, ask for a refund and get all your money back"
 * (locales/<language>/plans.json `plans.guarantee`); SPEC.md gives no period, so the window is
 * ours: 30 days from the first charge, the usual length of such a promise, written in
 * docs/payments.md ("The subscriber's page"). A claim gives back the whole first charge and
 * ends the subscription (nothing renews), once per subscription.
 */

/** Days after the first charge during which the guarantee may be claimed. */
export const GUARANTEE_DAYS = 30;

const DAY_MS = 86_400_000;

/** What the terms read of a subscription. */
export interface GuaranteeSubject {
  /** `active` or `canceled` may claim; a `refunded` one has had its money back. */
  status: string;
  /** ISO 8601: the first charge; unknown, the terms cannot be read, so no claim. */
  chargedAt: string | null;
  /** What the first charge took; nothing paid, nothing to give back. */
  paidAmount: number | null;
}

/** When the guarantee's window closes (epoch ms), or null when the first charge is not known. */
export function guaranteeEndsAt(chargedAt: string | null): number | null {
  const at = chargedAt === null ? Number.NaN : Date.parse(chargedAt);
  return Number.isFinite(at) ? at + GUARANTEE_DAYS * DAY_MS : null;
}

/** Whether `subscription` may claim its money back at `nowMs`. */
export function guaranteeApplies(subscription: GuaranteeSubject, nowMs: number): boolean {
  if (subscription.status !== 'active' && subscription.status !== 'canceled') return false;
  if (subscription.paidAmount === null || subscription.paidAmount <= 0) return false;
  const endsAt = guaranteeEndsAt(subscription.chargedAt);
  return endsAt !== null && nowMs < endsAt;
}
