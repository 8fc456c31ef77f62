import { type ErrorTexts, paymentErrorText, readableText } from '../../shared/api/error-text';
import type { PaymentMethodId } from '../kit/PaymentMethodPicker';
import {
  loadPayPalButton,
  loadWalletButton,
  type OneClickMethod,
  oneClickOffer,
} from '../payments/providers';
import { closingSheetBeforeChallenge } from '../payments/providers/wallet-sheet';
import { type CardFormStatus, type MountedCardFields, mountedCardFields } from './card-form';
import type { CheckoutFormStore } from './checkout-form';
import { chargedToday, payWithNonce } from './checkout-purchase';
import type { PaymentPage } from './payment';
import { showPaymentError } from './payment-error';
import { $signup } from './signup';

/** The texts a one-click method may show, from the checkout's copy. */
export interface OneClickCopy {
  /** Shown for a wallet or PayPal the card provider does not offer on this page. */
  methodUnavailable: string;
  /** Stripe's payment request found neither Apple Pay nor Google Pay on this device. */
  walletUnavailable: string;
  /** Braintree's PayPal button could not load. */
  paypalUnavailable: string;
  /** The line of the wallet sheet that carries the amount ('Total today'). */
  walletTotal: string;
}

/** What a one-click method's loading needs from the page. */
export interface OneClickSetup {
  cardForm: CardFormStatus;
  planDetails: Record<string, unknown> | null;
  /** Where PayPal's button goes. */
  container: HTMLElement | null;
  copy: OneClickCopy;
  /** SPEC.md §7: Stripe's payment request takes the account's country (STRIPE_ACCOUNT_COUNTRY). */
  stripeAccountCountry: string;
  errorTexts: Partial<ErrorTexts>;
  page: () => PaymentPage;
}

/**
 * One loading of a method's button: what it pays, `cancelled` once the method was left, and
 * `destroy`, the undo of a button that arrived.
 */
interface Loading {
  fields: MountedCardFields;
  charge: NonNullable<ReturnType<typeof chargedToday>>;
  setup: OneClickSetup;
  cancelled: boolean;
  destroy: () => void;
  unavailable: (text: string) => void;
}

/** Stripe's wallet button, offered when the device has the wallet `method` asks for. */
function loadWallet($form: CheckoutFormStore, method: OneClickMethod, loading: Loading): void {
  const { fields, charge, setup } = loading;
  loadWalletButton({
    publishableKey: $signup.get().stripe?.key ?? '',
    country: setup.stripeAccountCountry,
    currency: charge.currency.toLowerCase(),
    total: { label: setup.copy.walletTotal, amount: charge.amount },
    // A 3-D Secure challenge opens only once the sheet is closed (Stripe's contract); the
    // purchase's outcome after that shows on the page, as a card payment's does.
    onPaymentMethod: (paymentMethodId, sheet) =>
      payWithNonce(
        paymentMethodId,
        {
          ...fields,
          provider: closingSheetBeforeChallenge(fields.provider, () => sheet.complete('success')),
        },
        setup.page(),
      ),
  })
    .then((button) => {
      const offered = button && (method !== 'apple_pay' || button.wallets.applePay) ? button : null;
      if (loading.cancelled || !offered) {
        button?.destroy();
        if (!loading.cancelled) loading.unavailable(setup.copy.walletUnavailable);
        return;
      }
      loading.destroy = () => offered.destroy();
      $form.setKey('oneClick', { status: 'wallet', button: offered });
    })
    .catch(() => {
      if (!loading.cancelled) loading.unavailable(setup.copy.walletUnavailable);
    });
}

/** Braintree's PayPal button, put into the page's container. */
function loadPayPal($form: CheckoutFormStore, container: HTMLElement, loading: Loading): void {
  const { fields, charge, setup } = loading;
  loadPayPalButton({
    clientToken: $signup.get().btToken,
    amount: charge.price,
    currency: charge.currency,
    container,
    onApprove: (nonce) => payWithNonce(nonce, fields, setup.page()),
    // SPEC.md §8: the failure's message, else 'Payment error'.
    onFailure: (error) => showPaymentError(readableText(paymentErrorText(error), setup.errorTexts)),
  })
    .then((button) => {
      if (loading.cancelled) return button.destroy();
      loading.destroy = () => button.destroy();
      $form.setKey('oneClick', { status: 'paypal' });
    })
    .catch(() => {
      if (!loading.cancelled) loading.unavailable(setup.copy.paypalUnavailable);
    });
}

/**
 * Loads the button of the one-click method chosen, through the visitor's provider (loaded with
 * the card fields). Where the method is not offered, a method the visitor chose shows why; the
 * one the page opened on gives way to the card. Returns the undo for the component's cleanup.
 */
export function startOneClick(
  $form: CheckoutFormStore,
  activeId: PaymentMethodId,
  setup: OneClickSetup,
): () => void {
  if (activeId === 'card') return () => {};
  const method: OneClickMethod = activeId;
  const unavailable = (text: string) => {
    if ($form.get().visitorChose) $form.setKey('oneClick', { status: 'unavailable', text });
    else $form.setKey('activeId', 'card');
  };
  if (setup.cardForm === 'loading') {
    $form.setKey('oneClick', { status: 'loading' });
    return () => {};
  }
  const fields = setup.cardForm === 'ready' ? mountedCardFields() : null;
  const offer = fields ? oneClickOffer(method, fields.choice, $signup.get()) : null;
  const charge = chargedToday(setup.planDetails);
  const container = setup.container;
  if (!fields || !offer || !charge || !container) {
    unavailable(setup.copy.methodUnavailable);
    return () => {};
  }
  $form.setKey('oneClick', { status: 'loading' });
  const loading: Loading = {
    fields,
    charge,
    setup,
    cancelled: false,
    destroy: () => {},
    unavailable,
  };
  if (offer === 'stripe-wallet') loadWallet($form, method, loading);
  else loadPayPal($form, container, loading);
  return () => {
    loading.cancelled = true;
    loading.destroy();
  };
}
