import type { PurchaseAttempt } from '../payments/attempt';
import { persistedSlice } from './persisted-slice';

/**
 * SPEC.md §3 Checkout state, plus `attempt`: the purchase attempt under way (one idempotency
 * key per attempt, and a reload during polling resumes it). Read it through
 * islands/payments/checkout-attempts.ts, which checks what localStorage gave back.
 */
export const $checkout = persistedSlice<{
  cardholderName: string;
  isSuccess: true | null;
  id: string;
  stripeNonce: string;
  braintreeNonce: string;
  paymentError: { show: boolean; message: string };
  isCardFormShown: boolean;
  showSuccessPopup: boolean;
  attempt: PurchaseAttempt | null;
}>('checkout', {
  cardholderName: '',
  isSuccess: null,
  id: '',
  stripeNonce: '',
  braintreeNonce: '',
  paymentError: { show: false, message: '' },
  isCardFormShown: false,
  showSuccessPopup: false,
  attempt: null,
});
