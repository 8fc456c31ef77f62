import type { MinorUnits } from '../../shared/plans/money';
import type { PaidWith } from '../payments/purchase-types';
import { persistedSlice } from './persisted-slice';

/**
 * What a purchase took, as its charge answered it: the receipt, the upsell and success show it.
 * The amounts and the renewal date are the worker's receipt of the charge
 * (worker/purchases/receipt.ts); nothing here is computed in the page.
 */
export interface Receipt {
  planId: string;
  subscriptionId: string;
  /** What the charge took, in minor units of `currency`. */
  amount: MinorUnits;
  currency: string;
  /** ISO 8601: the first renewal; null for a one-time purchase or when the answer gave none. */
  renewsAt: string | null;
  /** What each renewal takes, in `currency`; null as `renewsAt`. */
  renewalAmount: MinorUnits | null;
  /** Where the product API sends the receipt: the account's email. */
  email: string;
  paidWith: PaidWith | null;
  /**
   * ISO 8601: when the visitor agreed to the automatic renewal, for a purchase whose charge sent
   * the ticked consent (shared/plans/renewal-consent.ts); null where none was asked. Absent from
   * receipts kept before it was: read as null.
   */
  renewalAgreedAt?: string | null;
  /**
   * The subscriber's page for this subscription (the worker's manage link): where the receipt's
   * "Manage or cancel your subscription" goes. Null or absent: no link, the words only.
   */
  manageUrl?: string | null;
}

/**
 * The receipts of this visit: the main purchase's, and those of the upsells bought after it in
 * the order bought (success lists them all). Display only: a visitor who edits them changes what
 * they read, never what is charged, which the product API prices from the catalogue and takes
 * from the method it keeps on file. Only the payment writes them (./keep-receipt.ts).
 */
export const $receipts = persistedSlice<{ main: Receipt | null; added: Receipt[] }>('receipts', {
  main: null,
  added: [],
});
