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

/** What a one-click button's loading pays: the mounted fields and the charge. */
type Paying = [MountedCardFields, NonNullable<ReturnType<typeof chargedToday>>, OneClickSetup];

/**
 * Stripe's wallet button, offered when the device has the wallet `method` asks for; null (its
 * button destroyed) when it has not.
 */
async function loadWallet(method: OneClickMethod, [fields, charge, setup]: Paying) {
  const button = await loadWalletButton({
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
  });
  if (button && (method !== 'apple_pay' || button.wallets.applePay)) return button;
  button?.destroy();
  return null;
}

/** Braintree's PayPal button, put into the page's container. */
function loadPayPal(container: HTMLElement, [fields, charge, setup]: Paying) {
  return loadPayPalButton({
    clientToken: $signup.get().btToken,
    amount: charge.price,
    currency: charge.currency,
    container,
    onApprove: (nonce) => payWithNonce(nonce, fields, setup.page()),
    // SPEC.md §8: the failure's message, else 'Payment error'.
    onFailure: (error) => showPaymentError(readableText(paymentErrorText(error), setup.errorTexts)),
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
  const wallet = offer === 'stripe-wallet';
  const paying: Paying = [fields, charge, setup];
  let cancelled = false;
  let destroy = () => {};
  (wallet ? loadWallet(method, paying) : loadPayPal(container, paying))
    .then((button) => {
      if (cancelled) return button?.destroy();
      if (!button) return unavailable(setup.copy.walletUnavailable);
      destroy = () => button.destroy();
      $form.setKey(
        'oneClick',
        'wallets' in button ? { status: 'wallet', button } : { status: 'paypal' },
      );
    })
    .catch(() => {
      if (!cancelled) unavailable(setup.copy[wallet ? 'walletUnavailable' : 'paypalUnavailable']);
    });
  return () => {
    cancelled = true;
    destroy();
  };
}
