import { map } from 'nanostores';
import type { CardFieldLabels } from '../payments/provider';
import type { OneClickMethod } from '../payments/providers';
import type { TestGatewayCopy } from '../payments/providers/test-gateway';
import type { WalletButton } from '../payments/providers/wallets';
import { browserOnly } from './browser-only';
import { mountCardFields, mountedCardFields } from './card-form';
import { $checkout } from './checkout';
import type { PaymentPage } from './payment';
import { $anotherCardAsked, resumePayment } from './payment';
import { paymentStoreDeps } from './payment-deps';
import { clearPaymentError } from './payment-error';
import { $plans } from './plans';

/**
 * A one-click method this browser can pay with (SPEC.md §2 "one-click payment"): a wallet whose
 * availability Stripe's payment request confirmed, with its button, or PayPal's button drawn.
 * A method not confirmed is never in the form: nothing is offered that would then be refused.
 */
export type OfferedOneClick =
  | { method: OneClickMethod; kind: 'wallet'; button: WalletButton }
  | { method: OneClickMethod; kind: 'paypal' };

/** One checkout payment form: open or behind its gate, the one-click methods it offers. */
export interface CheckoutFormState {
  open: boolean;
  /** In the screen's order; empty until the provider confirms one, and in the server's HTML. */
  oneClick: OfferedOneClick[];
  /** The provider has answered which of the screen's one-click methods this browser has. */
  oneClickSettled: boolean;
  /** The server knows no stored name; a name typed before a reload comes back once mounted. */
  cardholderName: string;
}

export type CheckoutFormStore = ReturnType<typeof checkoutFormStore>;

/** A form, closed behind the paywall's call to action if `gated`. */
export function checkoutFormStore(gated: boolean) {
  return browserOnly(
    map<CheckoutFormState>({
      open: !gated,
      oneClick: [],
      oneClickSettled: false,
      cardholderName: '',
    }),
    'checkout-form',
  );
}

/** The paywall's call to action was pressed: the form opens (SPEC.md §3 Plans showCheckout). */
export function openCheckout($form: CheckoutFormStore): void {
  $plans.setKey('showCheckout', true);
  $form.setKey('open', true);
}

/** The name on card typed before a reload comes back, once the page is mounted. */
export function restoreCardholderName($form: CheckoutFormStore): void {
  $form.setKey('cardholderName', $checkout.get().cardholderName);
}

export function editCardholderName($form: CheckoutFormStore, name: string): void {
  $form.setKey('cardholderName', name);
  $checkout.setKey('cardholderName', name);
  clearPaymentError();
}

/**
 * Puts the visitor's provider's card fields into `container`; then an attempt a reload
 * interrupted mid-poll continues, with the same idempotency key. Returns the undo for the
 * component's cleanup.
 */
export function startCardFields(
  container: HTMLElement,
  options: {
    forceDirect: boolean;
    language: string;
    labels: CardFieldLabels;
    messages: Record<string, string>;
    copy: TestGatewayCopy;
    page: () => PaymentPage;
  },
): () => void {
  let cancelled = false;
  let undo = () => {};
  mountCardFields(container, { ...options, onCardEdited: clearPaymentError }).then((unmount) => {
    if (cancelled) return unmount();
    undo = unmount;
    const fields = mountedCardFields();
    if (!fields) return;
    if ($anotherCardAsked.get()) {
      // Asked for on 'Payment declined': the fields are fresh, so they wait for the new card.
      $anotherCardAsked.set('');
      fields.provider.focusNumber?.();
    }
    void resumePayment(options.page(), paymentStoreDeps(fields.provider));
  });
  return () => {
    cancelled = true;
    undo();
  };
}
