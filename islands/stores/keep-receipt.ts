import { cataloguePriceOf } from '../payments/purchase-tracking';
import type { PurchaseOutcome } from '../payments/purchase-types';
import { $receipt } from './receipt';
import { $signup } from './signup';

/**
 * Keeps the receipt of a main purchase that succeeded. The amount and currency are the charge
 * answer's; a product API that leaves them out gets the plan's first charge, which the page sent
 * as `user_data` (SPEC.md §3) and the catalogue priced.
 */
export function keepReceipt(
  outcome: Extract<PurchaseOutcome, { kind: 'succeeded' }>,
  plan: { planId: string; userData: Record<string, unknown> },
  now: number,
): void {
  const catalogue = cataloguePriceOf(plan.userData);
  $receipt.set({
    main: {
      planId: plan.planId,
      subscriptionId: outcome.subscriptionId,
      amount: outcome.priceWithDiscount ?? catalogue.price,
      currency: outcome.currency ?? catalogue.currency,
      chargedAt: now,
      email: $signup.get().email,
      paidWith: outcome.paidWith ?? null,
    },
  });
}
