import type { CardProvider } from '../provider';

/**
 * The browser's payment sheet (Apple Pay, Google Pay) while a purchase runs on the payment method
 * it handed over. Kept apart from the Stripe adapter (wallets.ts), so the checkout island can wrap
 * its provider without loading Stripe's chunk.
 */
export interface WalletSheet {
  /**
   * Tells the browser the outcome and closes the sheet. Stripe takes one answer per payment
   * method: only the first call counts, later ones are ignored.
   */
  complete(status: 'success' | 'fail'): void;
}

/** A sheet over Stripe's `event.complete`, which is called at most once. */
export function sheetCompletingOnce(complete: (status: 'success' | 'fail') => void): WalletSheet {
  let completed = false;
  return {
    complete(status) {
      if (completed) return;
      completed = true;
      complete(status);
    },
  };
}

/**
 * `provider`, except that the sheet is closed (`close`) before a 3-D Secure challenge opens.
 * Stripe: the sheet must be completed first, then `confirmCardPayment(clientSecret)` shows the
 * challenge (SPEC.md §4 Payment step 4); with the sheet still open the challenge has nowhere to
 * appear. The same holds for verifyCard's challenge (SPEC.md §4 Alternate provider with 3-D
 * Secure). Every call goes to `provider` itself, so an adapter relying on `this` or its own
 * closure state keeps working.
 */
export function closingSheetBeforeChallenge(
  provider: CardProvider,
  close: () => void,
): CardProvider {
  const wrapped: CardProvider = {
    id: provider.id,
    mount: (container, options) => provider.mount(container, options),
    unmount: () => provider.unmount(),
    createPaymentMethod: (input) => provider.createPaymentMethod(input),
    confirmCardPayment: (intentSecret) => {
      close();
      return provider.confirmCardPayment(intentSecret);
    },
  };
  // Only a provider that verifies gets verifyCard: the state machine asks whether it exists.
  const verifyCard = provider.verifyCard;
  if (verifyCard) {
    wrapped.verifyCard = (input) => {
      close();
      return verifyCard.call(provider, input);
    };
  }
  return wrapped;
}
