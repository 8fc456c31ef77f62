import type { PaymentRequestPaymentMethodEvent } from '@stripe/stripe-js';
import { defaultStripeDeps, loadStripeClient, type StripeDeps } from './stripe';
import { sheetCompletingOnce, type WalletSheet } from './wallet-sheet';

/**
 * Apple Pay and Google Pay through Stripe's payment request (SPEC.md §2 "one-click payment",
 * §4 Payment step 2: "a supplied nonce is used"). The browser's own sheet collects the card; the
 * payment method id it yields goes through the same purchase as a card, and the sheet is told
 * the outcome.
 */

export interface WalletPurchase {
  /** Stripe publishable key and account name of the portal's payment settings (SPEC.md §7). */
  publishableKey: string;
  /** Two-letter country of the Stripe account, e.g. 'US'. */
  country: string;
  /** Lower-case ISO currency of the plan, e.g. 'usd'. */
  currency: string;
  /** What the sheet shows: the plan's label and its price in minor units (cents). */
  total: { label: string; amount: number };
  /**
   * Runs the purchase with the wallet's payment method id; resolves true when it succeeded.
   * The sheet waits for it, and Stripe gives it 30 seconds before the browser gives up. The
   * purchase may close the sheet sooner through `sheet` (before a 3-D Secure challenge, which
   * Stripe shows only once the sheet is completed); the outcome then reaches the visitor on the
   * page instead, and the sheet is not told again.
   */
  onPaymentMethod(paymentMethodId: string, sheet: WalletSheet): Promise<boolean>;
}

export interface WalletButton {
  /** Which wallets the browser offers; at least one is true. */
  readonly wallets: { applePay: boolean; googlePay: boolean };
  /** Opens the browser's payment sheet; call it from the click handler of the wallet button. */
  show(): void;
  /** Stops listening for payment methods. */
  destroy(): void;
}

/**
 * A wallet button for `purchase`, or null when this browser offers neither Apple Pay nor
 * Google Pay (then no wallet is shown). Rejects a ProviderError when Stripe.js cannot load.
 */
export async function createStripeWalletButton(
  purchase: WalletPurchase,
  deps: StripeDeps = defaultStripeDeps,
): Promise<WalletButton | null> {
  const stripe = await loadStripeClient(purchase.publishableKey, deps);
  const request = stripe.paymentRequest({
    country: purchase.country,
    currency: purchase.currency,
    total: purchase.total,
  });
  const available = await request.canMakePayment();
  const wallets = {
    applePay: available?.applePay === true,
    googlePay: available?.googlePay === true,
  };
  if (!wallets.applePay && !wallets.googlePay) return null;

  const onPaymentMethod = async (event: PaymentRequestPaymentMethodEvent) => {
    const sheet = sheetCompletingOnce((status) => event.complete(status));
    let succeeded = false;
    try {
      succeeded = await purchase.onPaymentMethod(event.paymentMethod.id, sheet);
    } catch {
      succeeded = false;
    }
    sheet.complete(succeeded ? 'success' : 'fail');
  };
  request.on('paymentmethod', onPaymentMethod);

  return {
    wallets,
    show: () => request.show(),
    destroy: () => {
      request.off('paymentmethod', onPaymentMethod);
    },
  };
}
