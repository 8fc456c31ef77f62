import { $checkout } from './checkout';
import { showError } from './error';

/**
 * SPEC.md §4 Payment step 7: "the payment error is shown". The toast shows it for 3 s (§8),
 * which a visitor can miss; the checkout also keeps it in its state (§3 Checkout state
 * paymentError) and shows it beside Pay until the visitor acts: edits the card, picks another
 * method, or presses Pay again.
 */
export function showPaymentError(message: string): void {
  showError(message);
  $checkout.setKey('paymentError', { show: true, message });
}

/** The visitor acted on the payment error: it leaves the checkout (the toast keeps its timer). */
export function clearPaymentError(): void {
  if ($checkout.get().paymentError.show) {
    $checkout.setKey('paymentError', { show: false, message: '' });
  }
}
