/**
 * The card providers behind one interface (SPEC.md §4 Payment, §7 "Card payment provider"):
 * Stripe (Elements), Braintree (hosted fields, PayPal, 3-D Secure verifyCard) and the test
 * gateway the embedded portal names in development (card fields in a same-origin iframe, with
 * the behaviour of Stripe's documented test cards). The payment state machine
 * (islands/payments/purchase.ts) only ever talks to this interface.
 */

export type ProviderId = 'stripe' | 'braintree' | 'test';

/**
 * A provider refused: the card was declined, its data is invalid, or the visitor did not pass
 * 3-D Secure. `message` is the provider's text for the visitor (SPEC.md §8: a card payment-method
 * creation error shows its message; a confirmation error reports the decline code or processor
 * response).
 */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly declineCode: string | null = null,
    readonly processorResponse: string | null = null,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/** Labels of the card fields, translated on the server (SPEC.md §2 card form). */
export interface CardFieldLabels {
  number: string;
  expiry: string;
  cvv: string;
  name: string;
}

export interface CardProvider {
  readonly id: ProviderId;
  /**
   * Puts the provider's card fields (number, MM/YY, CVV) into `container`: Stripe's and
   * Braintree's iframes, or the test gateway's same-origin iframe. Rejects when the provider's
   * script cannot load.
   */
  mount(
    container: HTMLElement,
    options: { language: string; labels: CardFieldLabels },
  ): Promise<void>;
  unmount(): void;
  /**
   * SPEC.md §4 Payment step 2: a payment method from the mounted fields. Resolves its nonce
   * (Stripe payment method id, Braintree nonce, test gateway token); rejects ProviderError.
   */
  createPaymentMethod(input: { cardholderName: string }): Promise<string>;
  /**
   * SPEC.md §4 Payment step 4: confirms a payment that requires action (3-D Secure challenge)
   * with its intent secret. Resolves the payment intent id to repeat the subscription call with;
   * rejects ProviderError (failed or abandoned challenge, decline).
   */
  confirmCardPayment(intentSecret: string): Promise<string>;
  /**
   * SPEC.md §4 Alternate provider with 3-D Secure: verifies `nonce` for `amount` and resolves
   * the verified nonce; rejects ProviderError. Braintree and the test gateway have it.
   */
  verifyCard?(input: { nonce: string; amount: string; email: string }): Promise<string>;
}
