import { persistedSlice } from './persisted-slice';

/** SPEC.md §3 Checkout state. */
export const $checkout = persistedSlice<{
  cardholderName: string;
  isSuccess: true | null;
  id: string;
  stripeNonce: string;
  braintreeNonce: string;
  paymentError: { show: boolean; message: string };
  isCardFormShown: boolean;
  showSuccessPopup: boolean;
}>('checkout', {
  cardholderName: '',
  isSuccess: null,
  id: '',
  stripeNonce: '',
  braintreeNonce: '',
  paymentError: { show: false, message: '' },
  isCardFormShown: false,
  showSuccessPopup: false,
});
