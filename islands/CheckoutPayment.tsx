import { useStore } from '@nanostores/react';
import { type FormEvent, type RefObject, useEffect, useId, useRef, useState } from 'react';
import { type ErrorTexts, readableText } from '../shared/api/error-text';
import {
  type PaymentMethodId,
  type PaymentMethodOption,
  PaymentMethodPicker,
} from './kit/PaymentMethodPicker';
import { useAfterHydration } from './kit/use-after-hydration';
import type { CardFieldLabels } from './payments/provider';
import type { TestGatewayCopy } from './payments/providers/test-gateway';
import { $cardForm, type CardFormStatus } from './stores/card-form';
import { $checkout } from './stores/checkout';
import {
  type CheckoutFormState,
  type CheckoutFormStore,
  checkoutFormStore,
  chooseMethod,
  editCardholderName,
  openCheckout,
  restoreCardholderName,
  startCardFields,
} from './stores/checkout-form';
import { type CheckoutPage, payByCard, payingPage } from './stores/checkout-purchase';
import { startOneClick } from './stores/one-click';
import { $paymentPhase } from './stores/payment';
import { clearPaymentError } from './stores/payment-error';
import { $plans } from './stores/plans';

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
  page: CheckoutPage;
  errorTexts: Partial<ErrorTexts>;
  /**
   * A paywall's call to action ('Start my trial'): the form stays closed behind it until pressed
   * (SPEC.md §3 Plans state showCheckout), and the card provider loads only then.
   */
  gateLabel?: string;
}

/**
 * The payment form of a checkout (SPEC.md §2 checkout page content, §4 Payment): the method
 * choice, the card provider's fields (in its iframe), our own optional name on card, and Pay.
 * Pay runs one purchase of the plan chosen above (PlanChoice keeps it in $plans); the button
 * stays busy until a final outcome, so repeated presses never make a second attempt. The work
 * is done by the stores (./stores/checkout-form.ts, one-click.ts, checkout-purchase.ts); the
 * effects here start and stop it with the elements it needs.
 */
export default function CheckoutPayment(props: CheckoutPaymentProps) {
  const { copy, page, errorTexts, gateLabel } = props;
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const hydrated = useAfterHydration();
  const [$form] = useState(() => checkoutFormStore(props.defaultId, Boolean(gateLabel)));
  const form = useStore($form);
  const { open, activeId } = form;
  const cardForm = useStore($cardForm);
  const phase = useStore($paymentPhase);
  const [fieldsRef, paypalRef] = useCheckoutWork(props, $form, form, cardForm);
  // A payment error stays beside Pay until the visitor acts (./stores/payment-error.ts). The
  // server's HTML has none, which the first render must match.
  const { paymentError } = useStore($checkout);
  const errorShown = hydrated && paymentError.show && paymentError.message !== '';

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if ($form.get().activeId === 'card') payByCard(payingPage(page, errorTexts));
  }

  if (!open) {
    return (
      <CheckoutGate
        label={gateLabel}
        hydrated={hydrated}
        onOpen={() => {
          openCheckout($form);
          // The visitor carries on in the form that just opened.
          requestAnimationFrame(() => formRef.current?.focus());
        }}
      />
    );
  }
  const busy = phase !== 'idle';
  const cardChosen = activeId === 'card';
  return (
    <form
      ref={formRef}
      className={`payment-form payment-methods payment-methods--${props.layout}`}
      aria-label={copy.cardTitle}
      tabIndex={-1}
      onSubmit={onSubmit}
    >
      <PaymentMethodPicker
        label={copy.methodsLabel}
        methods={props.methods}
        activeId={activeId}
        panelId={`${id}panel`}
        onSelect={(method) => chooseMethod($form, method)}
      />
      <div id={`${id}panel`} className="payment-methods__panel">
        <CardFieldset {...{ id, copy, $form, form, busy, fieldsRef }} hidden={!cardChosen} />
        <OneClickPanel {...{ copy, $form, form, busy, paypalRef }} />
      </div>
      <PaymentStatus
        {...{ id, copy, phase, errorTexts }}
        error={errorShown ? paymentError.message : null}
      />
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
        {phase === 'confirming' ? copy.confirming : phase === 'paying' ? copy.paying : copy.pay}
      </button>
    </form>
  );
}

/**
 * Starts the stores' work once mounted, and stops it: the name on card typed before a reload,
 * the card fields once the form is open, the button of the one-click method chosen. Returns the
 * elements the fields and PayPal's button go into.
 */
function useCheckoutWork(
  props: CheckoutPaymentProps,
  $form: CheckoutFormStore,
  { open, activeId }: CheckoutFormState,
  cardForm: CardFormStatus,
) {
  const { copy, forceDirect, language, stripeAccountCountry, page, errorTexts } = props;
  const { planDetails } = useStore($plans);
  const fieldsRef = useRef<HTMLDivElement>(null);
  const paypalRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    restoreCardholderName($form);
    // A page load mounts empty card fields, so an error about a card typed before has nothing
    // left to stand beside.
    clearPaymentError();
  }, [$form]);

  useEffect(() => {
    const container = fieldsRef.current;
    if (!open || !container) return;
    return startCardFields(container, {
      forceDirect,
      language,
      labels: copy.fields,
      copy: copy.gateway,
      page: () => payingPage(page, errorTexts),
    });
  }, [open, forceDirect, language, copy, page, errorTexts]);

  useEffect(
    () =>
      startOneClick($form, activeId, {
        cardForm,
        planDetails,
        container: paypalRef.current,
        copy,
        stripeAccountCountry,
        errorTexts,
        page: () => payingPage(page, errorTexts),
      }),
    [$form, activeId, cardForm, planDetails, copy, page, errorTexts, stripeAccountCountry],
  );
  return [fieldsRef, paypalRef] as const;
}

/** A paywall's call to action, in place of the form until pressed. */
function CheckoutGate({
  label,
  hydrated,
  onOpen,
}: {
  label: string | undefined;
  hydrated: boolean;
  onOpen: () => void;
}) {
  return (
    <div className="continue-form">
      <button
        id="continue-button"
        type="button"
        className="button button--primary"
        onClick={onOpen}
        // Held until the script answers it, as Pay is (its card form is 'loading' on the
        // server): should the script never load, a message replaces it (islands/hydrate.ts).
        aria-disabled={!hydrated || undefined}
        // It brings the payment form into view (SPEC.md §4 analytics: button__scroll).
        data-event="button__scroll"
      >
        {label}
      </button>
    </div>
  );
}

interface PanelProps {
  copy: CheckoutPaymentCopy;
  $form: CheckoutFormStore;
  form: CheckoutFormState;
  busy: boolean;
}

/** The card provider's fields, the state of their loading, and our own name on card. */
function CardFieldset({
  id,
  copy,
  $form,
  form,
  busy,
  fieldsRef,
  hidden,
}: PanelProps & { id: string; fieldsRef: RefObject<HTMLDivElement | null>; hidden: boolean }) {
  const cardForm = useStore($cardForm);
  const notice =
    cardForm === 'loading'
      ? copy.loading
      : cardForm === 'no-account'
        ? copy.noAccount
        : cardForm === 'unavailable'
          ? copy.unavailable
          : null;
  return (
    <fieldset className="card-form" hidden={hidden} disabled={busy}>
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
          value={form.cardholderName}
          onChange={(event) => editCardholderName($form, event.target.value)}
        />
      </label>
    </fieldset>
  );
}

/** The panel of a one-click method: PayPal's container, the wallet's button, or why not. */
function OneClickPanel({
  copy,
  $form,
  form,
  busy,
  paypalRef,
}: PanelProps & { paypalRef: RefObject<HTMLDivElement | null> }) {
  const shown = form.activeId === 'card' ? null : form.oneClick;
  return (
    <>
      <div
        ref={paypalRef}
        className="payment-methods__paypal"
        hidden={shown?.status !== 'paypal'}
      />
      {shown?.status === 'wallet' ? (
        <button
          type="button"
          className="button button--primary payment-methods__wallet"
          disabled={busy}
          // The browser opens its sheet only from the click itself (a user activation).
          onClick={() => shown.button.show()}
        >
          {shown.button.wallets.applePay ? copy.payWithApplePay : copy.payWithGooglePay}
        </button>
      ) : null}
      {shown?.status === 'loading' ? (
        <p className="payment-methods__note" role="status">
          {copy.oneClickLoading}
        </p>
      ) : null}
      {shown?.status === 'unavailable' ? (
        <>
          <p className="payment-methods__note">{shown.text}</p>
          <button type="button" className="button" onClick={() => chooseMethod($form, 'card')}>
            {copy.payByCard}
          </button>
        </>
      ) : null}
    </>
  );
}

/** Where the payment stands past Pay, and its error (always in the page, so it is announced). */
function PaymentStatus({
  id,
  copy,
  phase,
  errorTexts,
  error,
}: {
  id: string;
  copy: CheckoutPaymentCopy;
  phase: string;
  errorTexts: Partial<ErrorTexts>;
  error: string | null;
}) {
  return (
    <>
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
      {/* SPEC.md §3 paymentError: a message put into it is announced. */}
      <p id={`${id}payment-error`} className="payment-methods__error" role="alert">
        {error}
      </p>
    </>
  );
}
