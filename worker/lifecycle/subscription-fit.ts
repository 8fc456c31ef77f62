import type { SubscriptionEvent } from './apply';

/**
 * Whether a signed lifecycle event fits the subscription the ledger knows: the product API
 * signing it vouches that it sent it, not that it is right, and a refund in another currency or
 * above what was paid would move the experiments' net revenue by money that never moved. Pure:
 * the ledger (ledger.ts) reads the subscription's money and writes it back in one transaction.
 */

/** What a subscription's buyer paid and got back, in its currency's minor units. */
export interface SubscriptionMoney {
  /**
   * The verified purchase's currency; null when it named none, or the subscription was
   * remembered before the ledger kept money: nothing to check its events against.
   */
  currency: string | null;
  /** The first payment plus every renewal counted since; null with the currency. */
  paidMinor: number | null;
  /** Every refund and chargeback counted, positive. */
  returnedMinor: number;
}

/** A stable code for each way an event may not fit, the endpoint's 422 `error`. */
export type FitRefusal = 'currency_mismatch' | 'refund_exceeds_paid';

/**
 * Why `event` does not fit `money`, or null when it does:
 * - money moves only in the subscription's currency (a renewal, a refund, a chargeback);
 * - what goes back (refunds and chargebacks, partial ones added up) never exceeds what was paid
 *   (the first payment and the renewals counted).
 * A cancellation moves nothing and always fits; so does any event of a subscription whose money
 * the ledger does not know.
 */
export function fitRefusal(event: SubscriptionEvent, money: SubscriptionMoney): FitRefusal | null {
  if (event.kind === 'cancellation' || money.currency === null) return null;
  if (event.currency !== money.currency) return 'currency_mismatch';
  if (event.amountMinor < 0 && money.paidMinor !== null) {
    if (money.returnedMinor - event.amountMinor > money.paidMinor) return 'refund_exceeds_paid';
  }
  return null;
}

/** `money` once `event` (which fits it) is counted; `sign` -1 takes a counted one back out. */
export function countedIn(
  money: SubscriptionMoney,
  event: Pick<SubscriptionEvent, 'amountMinor'>,
  sign: 1 | -1 = 1,
): SubscriptionMoney {
  // Nothing is checked against a subscription without money: nothing to keep either.
  if (money.currency === null) return money;
  const amount = sign * event.amountMinor;
  if (event.amountMinor > 0 && money.paidMinor !== null) {
    return { ...money, paidMinor: money.paidMinor + amount };
  }
  if (event.amountMinor < 0) return { ...money, returnedMinor: money.returnedMinor - amount };
  return money;
}
