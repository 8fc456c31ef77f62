import type { ChargeReceipt } from '../../shared/api/contract';
import type { VisitorText } from '../../shared/api/error-text';
import type { ConsentTerms } from '../../shared/plans/consent-terms';

/**
 * What the checkout, the paywalls and the upsells hand the payment state machine
 * (islands/payments/purchase.ts), and what it answers. One purchase attempt = one idempotency key.
 */
export interface PurchaseRequest {
  /** The catalogue plan id, the `:planId` of the subscription calls (SPEC.md §7). */
  planId: string;
  /**
   * 'polling': the card provider's path (Stripe, or the test gateway): POST
   * /users/me/subscriptions/polling/:planId, then poll the result. 'direct': the alternate
   * provider's path (Braintree): POST /users/me/subscriptions/:planId.
   */
  route: 'polling' | 'direct';
  /** Sent as `gateway` (SPEC.md §3 Request payload). */
  gateway: string;
  coupon: string | null;
  /** Plan data merged with extra user data (SPEC.md §3). */
  userData: Record<string, unknown>;
  /**
   * The renewal consent the visitor ticked, where their country asks for one
   * (shared/plans/renewal-consent.ts); sent as `renewal_consent`. Absent: none given.
   */
  renewalConsent?: { text_version: string; language: string; terms?: ConsentTerms } | null;
  /**
   * Where the payment method comes from: the mounted card fields (the provider creates one), a
   * nonce the caller already holds (wallet, PayPal), or the method on file (upsells: none sent).
   */
  method:
    | { kind: 'card-fields'; cardholderName: string }
    | { kind: 'nonce'; nonce: string }
    | { kind: 'on-file' };
}

export type PurchaseOutcome =
  /** SPEC.md §4 step 5–6: isSuccess, the subscription id, the event id, the discounted price. */
  | {
      kind: 'succeeded';
      subscriptionId: string;
      eventId: string | null;
      priceWithDiscount: number | null;
      /** The currency of priceWithDiscount, when the answer named it. */
      currency?: string | null;
      /** What the charge was taken from, when the answer named it (display only). */
      paidWith?: PaidWith | null;
      /** The worker's receipt of the charge (worker/purchases/receipt.ts), when it gave one. */
      receipt?: ChargeReceipt | null;
    }
  /**
   * The card was refused (a decline code): the visitor goes to the 'Payment declined' screen,
   * whose advice follows the codes' class (shared/decline-class.ts).
   */
  | {
      kind: 'declined';
      declineCode: string | null;
      text: VisitorText;
      /** The processor's words, when it gave any: Braintree's carry its code ('2001 …'). */
      processorResponse?: string | null;
    }
  /**
   * A final answer that nothing was charged (or nothing was sent): the text is shown and the
   * form stays usable.
   */
  | {
      kind: 'failed';
      text: VisitorText;
      /**
       * The card provider kept failing and nothing was charged; the worker offers the other
       * provider's form (docs/payments.md, "A visitor already paying when the provider fails").
       */
      otherProvider?: boolean;
    }
  /**
   * No final answer by the deadline (still pending, or the calls said nothing): the
   * checkout shows 'confirming your payment' and keeps asking about the same attempt, under the
   * same key or polling id; never a second charge. `pollingId` is null while the POST itself is
   * unanswered.
   */
  | { kind: 'confirming'; pollingId: string | null };

/**
 * The card (brand, last four) or wallet a charge was taken from, as the charge answer named it:
 * shown on the receipt and on the upsell that charges the same method. Display only: the method
 * an upsell charges is the one the product API keeps on file, whatever the page says.
 */
export type PaidWith =
  | { kind: 'card'; brand: string; last4: string }
  | { kind: 'wallet'; wallet: string };
