import { cataloguePriceOf } from '../payments/purchase-tracking';
import type { PaidWith, PurchaseOutcome } from '../payments/purchase-types';
import { persistedSlice } from './persisted-slice';
import { $signup } from './signup';

/** What the main purchase took, as its charge answered it: the receipt and the upsell show it. */
export interface Receipt {
  planId: string;
  subscriptionId: string;
  /** In major units (6.99): what the charge answer says was taken, else the plan's first charge. */
  amount: number;
  currency: string;
  /** Epoch ms the success was known: the day renewals count from. */
  chargedAt: number;
  /** Where the product API sends the receipt: the account's email. */
  email: string;
  paidWith: PaidWith | null;
}

/**
 * The main purchase's receipt, kept for the screens after the checkout (the upsell names the card,
 * success repeats the order). Display only: a visitor who edits it changes what they read, never
 * what is charged, which the product API prices from the catalogue and takes from the method it
 * keeps on file.
 */
export const $receipt = persistedSlice<{ main: Receipt | null }>('receipt', { main: null });

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
