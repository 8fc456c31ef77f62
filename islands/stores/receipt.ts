import type { PaidWith } from '../payments/purchase-types';
import { persistedSlice } from './persisted-slice';

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
 * keeps on file. Only the payment writes it (./keep-receipt.ts); the screens after read it.
 */
export const $receipt = persistedSlice<{ main: Receipt | null }>('receipt', { main: null });
