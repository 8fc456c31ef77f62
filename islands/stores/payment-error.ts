import { $checkout } from './checkout';
import { showError } from './error';

/** How many checkout forms in the page show the payment error beside their Pay. */
let formsBesidePay = 0;

/** A checkout form that shows the payment error beside its Pay; returns its leaving. */
export function showsPaymentErrorBesidePay(): () => void {
  formsBesidePay += 1;
  return () => {
    formsBesidePay -= 1;
  };
}

/**
 * SPEC.md §4 Payment step 7: "the payment error is shown". The checkout keeps it in its state
 * (§3 Checkout state paymentError) and shows it beside Pay, announced, until the visitor acts:
 * edits the card, picks another method, or presses Pay again. The toast (§8, 3 s) says it only
 * where no form shows it so: a 3-D Secure failure read twice at once, in red above and below the
 * card fields, looked like two failures.
 */
export function showPaymentError(message: string): void {
  if (formsBesidePay === 0) showError(message);
  $checkout.setKey('paymentError', { show: true, message });
}

/** The visitor acted on the payment error: it leaves the checkout (the toast keeps its timer). */
export function clearPaymentError(): void {
  if ($checkout.get().paymentError.show) {
    $checkout.setKey('paymentError', { show: false, message: '' });
  }
}
