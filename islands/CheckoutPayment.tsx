import { useStore } from '@nanostores/react';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { type ErrorTexts, paymentErrorText, readableText } from '../shared/api/error-text';
import { currentScreenUrl } from './boot';
import {
  type PaymentMethodId,
  type PaymentMethodOption,
  PaymentMethodPicker,
} from './kit/PaymentMethodPicker';
import { useAfterHydration } from './kit/use-after-hydration';
import type { CardFieldLabels } from './payments/provider';
import {
  loadPayPalButton,
  loadWalletButton,
  minorUnits,
  type OneClickMethod,
  oneClickOffer,
} from './payments/providers';
import type { TestGatewayCopy } from './payments/providers/test-gateway';
import { closingSheetBeforeChallenge } from './payments/providers/wallet-sheet';
import type { WalletButton } from './payments/providers/wallets';
import type { PurchaseOutcome, PurchaseRequest } from './payments/purchase-types';
import {
  $cardForm,
  type MountedCardFields,
  mountCardFields,
  mountedCardFields,
} from './stores/card-form';
import { $checkout } from './stores/checkout';
import { $paymentPhase, type PaymentPage, pay, resumePayment } from './stores/payment';
import { paymentStoreDeps } from './stores/payment-deps';
import { clearPaymentError, showPaymentError } from './stores/payment-error';
import { $plans } from './stores/plans';
import { purchaseRequestFor } from './stores/purchase-request';
import { $signup } from './stores/signup';

/** Every text of the payment form, translated on the server. */
export interface CheckoutPaymentCopy {
  /** Accessible name of the method group ('Payment method'). */
  methodsLabel: string;
  cardTitle: string;
  fields: CardFieldLabels;
  namePlaceholder: string;
  gateway: TestGatewayCopy;
  loading: string;
  noAccount: string;
  unavailable: string;
  /** Shown for a wallet or PayPal the card provider does not offer on this page. */
  methodUnavailable: string;
  /** Stripe's payment request found neither Apple Pay nor Google Pay on this device. */
  walletUnavailable: string;
  /** Braintree's PayPal button could not load. */
  paypalUnavailable: string;
  /** Switches to the card from an unavailable one-click method. */
  payByCard: string;
  payWithApplePay: string;
  payWithGooglePay: string;
  /** The line of the wallet sheet that carries the amount ('Total today'). */
  walletTotal: string;
  oneClickLoading: string;
  pay: string;
  paying: string;
  confirming: string;
}

export interface CheckoutPaymentProps {
  layout: 'vertical' | 'horizontal';
  methods: PaymentMethodOption[];
  defaultId: PaymentMethodId;
  copy: CheckoutPaymentCopy;
  /** SPEC.md §2: checkout_h3_pp_braintree forces the alternate provider's direct route. */
  forceDirect: boolean;
  language: string;
  /**
   * Two-letter country of the Stripe account, e.g. 'US' (worker variable
   * STRIPE_ACCOUNT_COUNTRY): Stripe's payment request takes the account's country, not the
   * visitor's, and the portal's payment settings do not name it (SPEC.md §7).
   */
  stripeAccountCountry: string;
  /** Where each outcome leads; `here` is filled in the browser. */
  page: Omit<PaymentPage, 'here' | 'texts'>;
  errorTexts: Partial<ErrorTexts>;
  /**
   * A paywall's call to action ('Start my trial'): the form stays closed behind it until pressed
   * (SPEC.md §3 Plans state showCheckout), and the card provider loads only then.
   */
  gateLabel?: string;
}

/** What the panel of a one-click method shows (SPEC.md §2 "one-click payment"). */
type OneClickState =
  | { status: 'loading' }
  | { status: 'wallet'; button: WalletButton }
  | { status: 'paypal' }
  | { status: 'unavailable'; text: string };

/** The plan chosen above (PlanChoice keeps it in $plans), paid with `method`. */
function chosenPlanPurchase(
  fields: MountedCardFields,
  method: PurchaseRequest['method'],
): PurchaseRequest {
  const plans = $plans.get();
  const signup = $signup.get();
  return purchaseRequestFor({
    planId: plans.plan,
    details: plans.planDetails,
    choice: fields.choice,
    visitor: { email: signup.email, uuid: signup.uuid },
    method,
  });
}

/**
 * Pays with a nonce a wallet sheet or PayPal's window handed over (SPEC.md §4 Payment step 2: "a
 * supplied nonce is used"), on the route of the visitor's provider. Resolves true only when the
 * purchase succeeded, so Stripe's sheet closes with success or failure accordingly (unless it
 * was closed already, before a 3-D Secure challenge).
 */
async function payWithNonce(
  nonce: string,
  fields: MountedCardFields,
  page: PaymentPage,
): Promise<boolean> {
  const request = chosenPlanPurchase(fields, { kind: 'nonce', nonce });
  const deps = paymentStoreDeps(fields.provider);
  // pay() acts on the outcome itself (next page, declined page, error); the sheet only needs to
  // know whether the last answer, after any 'confirming' rechecks, was a success.
  const seen: { last: PurchaseOutcome | null } = { last: null };
  const remember = <T extends PurchaseOutcome | null>(outcome: T): T => {
    seen.last = outcome;
    return outcome;
  };
  await pay(request, page, {
    ...deps,
    purchase: async (sent) => remember(await deps.purchase(sent)),
    resumePurchase: async () => remember(await deps.resumePurchase()),
  });
  return seen.last?.kind === 'succeeded';
}

/** The price the first charge takes and its currency, from the plan PlanChoice kept. */
function chargedToday(details: Record<string, unknown> | null) {
  const price = typeof details?.periodPrice === 'string' ? details.periodPrice : '';
  const currency = typeof details?.currency === 'string' ? details.currency : '';
  const amount = minorUnits(price);
  return amount === null || !currency ? null : { price, amount, currency };
}

/**
 * The payment form of a checkout (SPEC.md §2 checkout page content, §4 Payment): the method
 * choice, the card provider's fields (in its iframe), our own optional name on card, and Pay.
 * Pay runs one purchase of the plan chosen above (PlanChoice keeps it in $plans); the button
 * stays busy until a final outcome, so repeated presses never make a second attempt.
 */
export default function CheckoutPayment({
  layout,
  methods,
  defaultId,
  copy,
  forceDirect,
  language,
  stripeAccountCountry,
  page,
  errorTexts,
  gateLabel,
}: CheckoutPaymentProps) {
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const fieldsRef = useRef<HTMLDivElement>(null);
  const [open, setOpen] = useState(!gateLabel);
  const hydrated = useAfterHydration();
  const [activeId, setActiveId] = useState<PaymentMethodId>(defaultId);
  const paypalRef = useRef<HTMLDivElement>(null);
  const cardForm = useStore($cardForm);
  const phase = useStore($paymentPhase);
  const { planDetails } = useStore($plans);
  const [oneClick, setOneClick] = useState<OneClickState>({ status: 'loading' });
  // The method the page opened on gives way to the card when it is not offered here; a method
  // the visitor chose stays chosen, with the reason shown.
  const visitorChose = useRef(false);
  // The server knows no stored name; a name typed before a reload comes back once mounted.
  const [cardholderName, setCardholderName] = useState('');
  useEffect(() => setCardholderName($checkout.get().cardholderName), []);
  // A payment error stays beside Pay until the visitor acts (./stores/payment-error.ts). A page
  // load mounts empty card fields, so an error about a card typed before has nothing left to
  // stand beside; and the server's HTML has none, which the first render must match.
  const { paymentError } = useStore($checkout);
  useEffect(() => clearPaymentError(), []);
  const errorShown = hydrated && paymentError.show && paymentError.message !== '';

  useEffect(() => {
    const container = fieldsRef.current;
    if (!open || !container) return;
    let cancelled = false;
    let undo = () => {};
    mountCardFields(container, {
      forceDirect,
      language,
      labels: copy.fields,
      copy: copy.gateway,
      onCardEdited: clearPaymentError,
    }).then((unmount) => {
      if (cancelled) return unmount();
      undo = unmount;
      // An attempt a reload interrupted mid-poll continues here, with the same idempotency key.
      const fields = mountedCardFields();
      if (fields)
        void resumePayment(
          { ...page, here: currentScreenUrl(), texts: errorTexts },
          paymentStoreDeps(fields.provider),
        );
    });
    return () => {
      cancelled = true;
      undo();
    };
  }, [open, forceDirect, language, copy, page, errorTexts]);

  useEffect(() => {
    if (activeId === 'card') return;
    const method: OneClickMethod = activeId;
    const unavailable = (text: string) => {
      if (visitorChose.current) setOneClick({ status: 'unavailable', text });
      else setActiveId('card');
    };
    if (cardForm === 'loading') {
      setOneClick({ status: 'loading' });
      return;
    }
    // The one-click methods pay through the visitor's provider, loaded with the card fields.
    const fields = cardForm === 'ready' ? mountedCardFields() : null;
    const signup = $signup.get();
    const offer = fields ? oneClickOffer(method, fields.choice, signup) : null;
    const charge = chargedToday(planDetails);
    const container = paypalRef.current;
    if (!fields || !offer || !charge || !container) {
      unavailable(copy.methodUnavailable);
      return;
    }
    let cancelled = false;
    let destroy = () => {};
    setOneClick({ status: 'loading' });
    const payingPage = () => ({ ...page, here: currentScreenUrl(), texts: errorTexts });
    if (offer === 'stripe-wallet') {
      loadWalletButton({
        publishableKey: signup.stripe?.key ?? '',
        country: stripeAccountCountry,
        currency: charge.currency.toLowerCase(),
        total: { label: copy.walletTotal, amount: charge.amount },
        // A 3-D Secure challenge opens only once the sheet is closed (Stripe's contract); the
        // purchase's outcome after that shows on the page, as a card payment's does.
        onPaymentMethod: (paymentMethodId, sheet) =>
          payWithNonce(
            paymentMethodId,
            {
              ...fields,
              provider: closingSheetBeforeChallenge(fields.provider, () =>
                sheet.complete('success'),
              ),
            },
            payingPage(),
          ),
      })
        .then((button) => {
          const offered =
            button && (method !== 'apple_pay' || button.wallets.applePay) ? button : null;
          if (cancelled || !offered) {
            button?.destroy();
            if (!cancelled) unavailable(copy.walletUnavailable);
            return;
          }
          destroy = () => offered.destroy();
          setOneClick({ status: 'wallet', button: offered });
        })
        .catch(() => {
          if (!cancelled) unavailable(copy.walletUnavailable);
        });
    } else {
      loadPayPalButton({
        clientToken: signup.btToken,
        amount: charge.price,
        currency: charge.currency,
        container,
        onApprove: (nonce) => payWithNonce(nonce, fields, payingPage()),
        // SPEC.md §8: the failure's message, else 'Payment error'.
        onFailure: (error) => showPaymentError(readableText(paymentErrorText(error), errorTexts)),
      })
        .then((button) => {
          if (cancelled) return button.destroy();
          destroy = () => button.destroy();
          setOneClick({ status: 'paypal' });
        })
        .catch(() => {
          if (!cancelled) unavailable(copy.paypalUnavailable);
        });
    }
    return () => {
      cancelled = true;
      destroy();
    };
  }, [activeId, cardForm, planDetails, copy, page, errorTexts, stripeAccountCountry]);

  function choose(method: PaymentMethodId) {
    visitorChose.current = true;
    if (method !== activeId) clearPaymentError();
    setActiveId(method);
  }

  function openCheckout() {
    $plans.setKey('showCheckout', true);
    setOpen(true);
    // The visitor carries on in the form that just opened.
    requestAnimationFrame(() => formRef.current?.focus());
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const fields = mountedCardFields();
    if (!fields || activeId !== 'card') return;
    const request = chosenPlanPurchase(fields, {
      kind: 'card-fields',
      cardholderName: $checkout.get().cardholderName.trim(),
    });
    void pay(
      request,
      { ...page, here: currentScreenUrl(), texts: errorTexts },
      paymentStoreDeps(fields.provider),
    );
  }

  const busy = phase !== 'idle';
  const cardChosen = activeId === 'card';
  const oneClickShown = cardChosen ? null : oneClick.status;
  const notice =
    cardForm === 'loading'
      ? copy.loading
      : cardForm === 'no-account'
        ? copy.noAccount
        : cardForm === 'unavailable'
          ? copy.unavailable
          : null;
  const buttonLabel =
    phase === 'confirming' ? copy.confirming : phase === 'paying' ? copy.paying : copy.pay;

  if (!open) {
    return (
      <div className="continue-form">
        <button
          id="continue-button"
          type="button"
          className="button button--primary"
          onClick={openCheckout}
          // Held until the script answers it, as Pay is (its card form is 'loading' on the
          // server): should the script never load, a message replaces it (islands/hydrate.ts).
          aria-disabled={!hydrated || undefined}
          // It brings the payment form into view (SPEC.md §4 analytics: button__scroll).
          data-event="button__scroll"
        >
          {gateLabel}
        </button>
      </div>
    );
  }

  return (
    <form
      ref={formRef}
      className={`payment-form payment-methods payment-methods--${layout}`}
      aria-label={copy.cardTitle}
      tabIndex={-1}
      onSubmit={onSubmit}
    >
      <PaymentMethodPicker
        label={copy.methodsLabel}
        methods={methods}
        activeId={activeId}
        panelId={`${id}panel`}
        onSelect={choose}
      />
      <div id={`${id}panel`} className="payment-methods__panel">
        <fieldset className="card-form" hidden={!cardChosen} disabled={busy}>
          <legend className="card-form__title">{copy.cardTitle}</legend>
          <div ref={fieldsRef} className="card-form__provider" />
          {notice ? (
            <p className="card-form__notice" role="status">
              {notice}
            </p>
          ) : null}
          <label className="card-form__field" htmlFor={`${id}name`}>
            <span className="card-form__label">{copy.fields.name}</span>
            <input
              id={`${id}name`}
              className="card-form__input"
              type="text"
              autoComplete="cc-name"
              placeholder={copy.namePlaceholder}
              value={cardholderName}
              onChange={(event) => {
                setCardholderName(event.target.value);
                $checkout.setKey('cardholderName', event.target.value);
                clearPaymentError();
              }}
            />
          </label>
        </fieldset>
        <div
          ref={paypalRef}
          className="payment-methods__paypal"
          hidden={oneClickShown !== 'paypal'}
        />
        {oneClickShown === 'wallet' && oneClick.status === 'wallet' ? (
          <button
            type="button"
            className="button button--primary payment-methods__wallet"
            disabled={busy}
            // The browser opens its sheet only from the click itself (a user activation).
            onClick={() => oneClick.button.show()}
          >
            {oneClick.button.wallets.applePay ? copy.payWithApplePay : copy.payWithGooglePay}
          </button>
        ) : null}
        {oneClickShown === 'loading' ? (
          <p className="payment-methods__note" role="status">
            {copy.oneClickLoading}
          </p>
        ) : null}
        {oneClickShown === 'unavailable' && oneClick.status === 'unavailable' ? (
          <>
            <p className="payment-methods__note">{oneClick.text}</p>
            <button type="button" className="button" onClick={() => choose('card')}>
              {copy.payByCard}
            </button>
          </>
        ) : null}
      </div>
      {phase === 'confirming' ? (
        <p className="payment-form__status" role="status">
          {copy.confirming}
        </p>
      ) : null}
      {phase === 'unconfirmed' ? (
        // Stays after the toast is gone: Pay is held until a reload tells what happened.
        <p className="payment-form__status" role="alert">
          {readableText({ key: 'payment_may_have_gone_through' }, errorTexts)}
        </p>
      ) : null}
      {/* Always in the page, so a message put into it is announced (SPEC.md §3 paymentError). */}
      <p id={`${id}payment-error`} className="payment-methods__error" role="alert">
        {errorShown ? paymentError.message : null}
      </p>
      <button
        id="continue-button"
        type="submit"
        className="button button--primary"
        // A one-click method pays with its own button; Pay is the card's.
        hidden={!cardChosen}
        disabled={busy || cardForm !== 'ready' || !cardChosen}
        // Held but no longer working once 'unconfirmed': it waits for the visitor's reload.
        aria-busy={(busy && phase !== 'unconfirmed') || undefined}
        aria-describedby={errorShown ? `${id}payment-error` : undefined}
      >
        {buttonLabel}
      </button>
    </form>
  );
}
