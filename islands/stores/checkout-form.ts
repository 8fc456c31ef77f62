import { map } from 'nanostores';
import type { PaymentMethodId } from '../kit/PaymentMethodPicker';
import type { CardFieldLabels } from '../payments/provider';
import type { TestGatewayCopy } from '../payments/providers/test-gateway';
import type { WalletButton } from '../payments/providers/wallets';
import { browserOnly } from './browser-only';
import { mountCardFields, mountedCardFields } from './card-form';
import { $checkout } from './checkout';
import type { PaymentPage } from './payment';
import { resumePayment } from './payment';
import { paymentStoreDeps } from './payment-deps';
import { clearPaymentError } from './payment-error';
import { $plans } from './plans';

/** What the panel of a one-click method shows (SPEC.md §2 "one-click payment"). */
export type OneClickState =
  | { status: 'loading' }
  | { status: 'wallet'; button: WalletButton }
  | { status: 'paypal' }
  | { status: 'unavailable'; text: string };

/** One checkout payment form: open or behind its gate, the method chosen, what it shows. */
export interface CheckoutFormState {
  open: boolean;
  activeId: PaymentMethodId;
  /**
   * The method the page opened on gives way to the card when it is not offered here; a method
   * the visitor chose stays chosen, with the reason shown.
   */
  visitorChose: boolean;
  oneClick: OneClickState;
  /** The server knows no stored name; a name typed before a reload comes back once mounted. */
  cardholderName: string;
}

export type CheckoutFormStore = ReturnType<typeof checkoutFormStore>;

/** A form opening on `defaultId`, closed behind the paywall's call to action if `gated`. */
export function checkoutFormStore(defaultId: PaymentMethodId, gated: boolean) {
  return browserOnly(
    map<CheckoutFormState>({
      open: !gated,
      activeId: defaultId,
      visitorChose: false,
      oneClick: { status: 'loading' },
      cardholderName: '',
    }),
    'checkout-form',
  );
}

/** The visitor picked a method: it stays chosen, and the last error gives way if it changed. */
export function chooseMethod($form: CheckoutFormStore, method: PaymentMethodId): void {
  if (method !== $form.get().activeId) clearPaymentError();
  $form.set({ ...$form.get(), activeId: method, visitorChose: true });
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
    if (fields) void resumePayment(options.page(), paymentStoreDeps(fields.provider));
  });
  return () => {
    cancelled = true;
    undo();
  };
}
