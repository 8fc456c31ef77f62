import { type ErrorTexts, paymentErrorText, readableText } from '../../shared/api/error-text';
import {
  loadPayPalButton,
  loadWalletButton,
  type OneClickMethod,
  oneClickOffer,
} from '../payments/providers';
import { closingSheetBeforeChallenge } from '../payments/providers/wallet-sheet';
import { type CardFormStatus, type MountedCardFields, mountedCardFields } from './card-form';
import type { CheckoutFormStore, OfferedOneClick } from './checkout-form';
import { chargedToday, payWithNonce } from './checkout-purchase';
import type { PaymentPage } from './payment';
import { showPaymentError } from './payment-error';
import { $signup } from './signup';

/** The texts a one-click method may show, from the checkout's copy. */
export interface OneClickCopy {
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
 * Stripe's wallet button, offered only when Stripe's `paymentRequest.canMakePayment()` found the
 * wallet `method` asks for on this device; null (its button destroyed) when it did not.
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

/** One method's button once it is known to work here, else null (the method stays absent). */
async function offeredMethod(
  method: OneClickMethod,
  offer: 'stripe-wallet' | 'braintree-paypal',
  paying: Paying,
  container: HTMLElement,
): Promise<[OfferedOneClick, () => void] | null> {
  try {
    if (offer === 'stripe-wallet') {
      const button = await loadWallet(method, paying);
      return button ? [{ method, kind: 'wallet', button }, () => button.destroy()] : null;
    }
    const button = await loadPayPal(container, paying);
    return [{ method, kind: 'paypal' }, () => button.destroy()];
  } catch (error) {
    // A script that could not load: the method is not offered, the card still is.
    console.error('[geofunnel] one-click method did not load', method, error);
    return null;
  }
}

/**
 * Once the card fields are in (they load the visitor's provider), asks the provider which of
 * the screen's one-click `methods` this browser can pay with, and offers those only, in the
 * screen's order: Apple Pay and Google Pay after Stripe's payment request says the device has
 * them, PayPal once Braintree drew its button. A method with no provider here (the test
 * gateway has none) or no wallet on this device is never shown. Returns the undo for the
 * component's cleanup.
 */
export function startOneClick(
  $form: CheckoutFormStore,
  methods: readonly OneClickMethod[],
  setup: OneClickSetup,
): () => void {
  const fields = setup.cardForm === 'ready' ? mountedCardFields() : null;
  const charge = chargedToday(setup.planDetails);
  const container = setup.container;
  if (!fields || !charge || !container) return () => {};
  const paying: Paying = [fields, charge, setup];
  let cancelled = false;
  const undo: (() => void)[] = [];
  const loads = methods.map((method) => {
    const offer = oneClickOffer(method, fields.choice, $signup.get());
    return offer ? offeredMethod(method, offer, paying, container) : Promise.resolve(null);
  });
  void Promise.all(loads).then((answers) => {
    const offered = answers.filter((answer) => answer !== null);
    if (cancelled) {
      for (const [, destroy] of offered) destroy();
      return;
    }
    for (const [, destroy] of offered) undo.push(destroy);
    $form.set({
      ...$form.get(),
      oneClick: offered.map(([method]) => method),
      oneClickSettled: true,
    });
  });
  return () => {
    cancelled = true;
    for (const destroy of undo) destroy();
    if ($form.get().oneClick.length > 0) $form.setKey('oneClick', []);
    $form.setKey('oneClickSettled', false);
  };
}
