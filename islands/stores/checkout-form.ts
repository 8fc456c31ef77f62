import { map, onMount, onNotify } from 'nanostores';
import type { CardFieldLabels } from '../payments/provider';
import type { OneClickMethod } from '../payments/providers';
import type { TestGatewayCopy } from '../payments/providers/test-gateway';
import type { WalletButton } from '../payments/providers/wallets';
import { browserOnly } from './browser-only';
import { $cardForm, mountCardFields, mountedCardFields } from './card-form';
import { $checkout } from './checkout';
import type { PaymentPage } from './payment';
import { $anotherCardAsked, $paymentPhase, resumePayment } from './payment';
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
  /** The gate was pressed and waits for the provider's answer (pressGate). */
  waiting: boolean;
}

export type CheckoutFormStore = ReturnType<typeof checkoutFormStore>;

/**
 * A form, closed behind the paywall's call to action if `gated`. The server and the first client
 * render see it so; once its island listens (islands/kit/use-working-store.ts) it takes back
 * the name on card typed before a reload, and opens its gate by itself where the visitor is
 * past it (startCheckoutForm).
 */
export function checkoutFormStore(gated: boolean) {
  const $form = browserOnly(
    map<CheckoutFormState>({
      open: !gated,
      oneClick: [],
      oneClickSettled: false,
      cardholderName: '',
      waiting: false,
    }),
    'checkout-form',
  );
  onMount($form, () => startCheckoutForm($form));
  return $form;
}

/** The paywall's call to action was pressed: the form opens (SPEC.md §3 Plans showCheckout). */
export function openCheckout($form: CheckoutFormStore): void {
  $plans.setKey('showCheckout', true);
  $form.set({ ...($form.value as CheckoutFormState), open: true, waiting: false });
}

/** How long a pressed gate waits for the provider's answer before it opens the form anyway. */
export const GATE_WAIT_MS = 4000;

/**
 * The gate's press. Where one-click methods lead (`oneClickFirst`), the form opens once the
 * provider has answered (at once when it already has), so a method that arrives never pushes
 * the card form down under the visitor; a provider that does not answer within GATE_WAIT_MS
 * holds nobody back (keepGate).
 */
export function pressGate($form: CheckoutFormStore, oneClickFirst: boolean): void {
  if (oneClickFirst && !providerAnswered($form)) $form.setKey('waiting', true);
  else openCheckout($form);
}

/** The provider has said which one-click methods this browser has, or there will be none. */
function providerAnswered($form: CheckoutFormStore): boolean {
  const cardForm = $cardForm.get();
  return (
    cardForm === 'no-account' || cardForm === 'unavailable' || Boolean($form.value?.oneClickSettled)
  );
}

/**
 * The form's work while its island is there: the name on card typed before a reload comes back,
 * and an error about a card typed before goes (a page load mounts empty card fields, so it has
 * nothing left to stand beside). A visitor who opened the form before (SPEC.md §3 Plans
 * showCheckout, kept for the visit) comes back to it, not to the call to action: after a
 * decline's Try again they need not press "Start my trial" a second time. Returns the stop.
 */
function startCheckoutForm($form: CheckoutFormStore): () => void {
  $form.setKey('cardholderName', $checkout.get().cardholderName);
  clearPaymentError();
  if ($plans.get().showCheckout) openCheckout($form);
  return keepGate($form);
}

/**
 * Opens the gate when the visitor is past it, until stopped: a payment a reload interrupted
 * resumes in the form waiting behind it, so the visitor sees where the payment stands, and a
 * visitor back from 'Payment declined' for another card gets the card form they came for. A
 * pressed gate that waits opens when the provider answers, or after GATE_WAIT_MS.
 */
function keepGate($form: CheckoutFormStore): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const review = () => {
    const { open, waiting } = $form.value as CheckoutFormState;
    const resuming = $paymentPhase.get() !== 'idle' || $anotherCardAsked.get() !== '';
    if (!open && (resuming || (waiting && providerAnswered($form)))) return openCheckout($form);
    if (!waiting) {
      clearTimeout(timer);
      timer = undefined;
    } else timer ??= setTimeout(() => openCheckout($form), GATE_WAIT_MS);
  };
  review();
  const stops = [
    onNotify($form, review),
    $cardForm.listen(review),
    $paymentPhase.listen(review),
    $anotherCardAsked.listen(review),
  ];
  return () => {
    for (const stop of stops) stop();
    clearTimeout(timer);
  };
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
