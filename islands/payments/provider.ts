/**
 * The card providers behind one interface (SPEC.md §4 Payment, §7 "Card payment provider"):
 * Stripe (Elements), Braintree (hosted fields, PayPal, 3-D Secure verifyCard) and the test
 * gateway the embedded portal names in development (card fields in a same-origin iframe, with
 * the behaviour of Stripe's documented test cards). The payment state machine
 * (islands/payments/purchase.ts) only ever talks to this interface.
 */

import type { CardFieldProblems } from '../../shared/card-field-problems';

export type ProviderId = 'stripe' | 'braintree' | 'test';

/**
 * Our own reasons a provider fails, as opposed to the provider's words: each is a key of
 * `errors.*` (shared/api/error-text.ts), so no sentence of copy ships inside an adapter.
 */
export type ProviderProblem =
  /** The provider's script or fields could not load (offline, blocked). */
  | 'card_form_unavailable'
  /** Pay was pressed before the fields were mounted. */
  | 'card_form_not_ready'
  /** 3-D Secure was failed or abandoned. */
  | 'payment_not_authenticated'
  /** An adapter was asked for a step its provider does not have (a programming error). */
  | 'payment_error';

/**
 * A provider refused: the card was declined, its data is invalid, or the visitor did not pass
 * 3-D Secure. `message` is the provider's text for the visitor (SPEC.md §8: a card payment-method
 * creation error shows its message; a confirmation error reports the decline code or processor
 * response); `problem` names our own reason when the provider gave no words.
 */
export class ProviderError extends Error {
  problem: ProviderProblem | null = null;

  constructor(
    message: string,
    readonly declineCode: string | null = null,
    readonly processorResponse: string | null = null,
  ) {
    super(message);
    this.name = 'ProviderError';
  }

  /** A failure of ours, shown with the translated text of `problem`. */
  static of(
    problem: ProviderProblem,
    declineCode: string | null = null,
    processorResponse: string | null = null,
  ): ProviderError {
    const error = new ProviderError('', declineCode, processorResponse);
    error.problem = problem;
    return error;
  }
}

/** Labels of the card fields, translated on the server (SPEC.md §2 card form). */
export interface CardFieldLabels {
  number: string;
  expiry: string;
  cvv: string;
  name: string;
}

/** SPEC.md §4 Payment step 2's payment method, as a provider created it from its fields. */
export interface CardPaymentMethod {
  /** Stripe payment method id, Braintree nonce, test gateway token. */
  nonce: string;
  /**
   * The card's first six digits (its BIN) when the provider names them, else null. Braintree's
   * 3-D Secure verification needs it; the purchase attempt keeps it, so a reload mid-attempt
   * can still verify (islands/payments/attempt.ts).
   */
  bin: string | null;
}

/** How the card fields are put into the page. */
export interface CardFieldsOptions {
  language: string;
  labels: CardFieldLabels;
  /**
   * The text of each field problem, keyed `${field}_${problem}` ('expiry_past',
   * shared/card-check.ts), shown under the field it is about.
   */
  messages?: Record<string, string>;
  /**
   * Told what is wrong with each field whenever it changes, as the provider checks them while
   * the visitor types (the test gateway's frame, Stripe's change events, Braintree's validity).
   */
  onProblems?: (problems: CardFieldProblems) => void;
  /**
   * Told when the visitor edits the card in the provider's fields, whose values the page never
   * reads: a payment error about the card they typed stays until then (SPEC.md §3 paymentError).
   */
  onCardEdited?: () => void;
}

export interface CardProvider {
  readonly id: ProviderId;
  /**
   * Puts the provider's card fields (number, MM/YY, CVV) into `container`: Stripe's and
   * Braintree's iframes, or the test gateway's same-origin iframe. Rejects when the provider's
   * script cannot load.
   */
  mount(container: HTMLElement, options: CardFieldsOptions): Promise<void>;
  unmount(): void;
  /** Pay was pressed with a problem: every field shows its own and the first takes focus. */
  revealProblems?(): void;
  /** The card number field takes focus: the visitor came back to pay with another card. */
  focusNumber?(): void;
  /**
   * SPEC.md §4 Payment step 2: a payment method from the mounted fields. Resolves its nonce and
   * the card's BIN when known; rejects ProviderError.
   */
  createPaymentMethod(input: { cardholderName: string }): Promise<CardPaymentMethod>;
  /**
   * SPEC.md §4 Payment step 4: confirms a payment that requires action (3-D Secure challenge)
   * with its intent secret. Resolves the payment intent id to repeat the subscription call with;
   * rejects ProviderError (failed or abandoned challenge, decline).
   */
  confirmCardPayment(intentSecret: string): Promise<string>;
  /**
   * SPEC.md §4 Alternate provider with 3-D Secure: verifies `nonce` for `amount` and resolves
   * the verified nonce; rejects ProviderError. `bin` is the attempt's card BIN (null when
   * unknown), which Braintree's verification asks for. Braintree and the test gateway have it.
   */
  verifyCard?(input: {
    nonce: string;
    amount: string;
    email: string;
    bin: string | null;
  }): Promise<string>;
}
