import { useStore } from '@nanostores/react';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import type { ErrorTexts } from '../shared/api/error-text';
import {
  type PaymentMethodId,
  type PaymentMethodOption,
  PaymentMethodPicker,
} from './kit/PaymentMethodPicker';
import type { CardFieldLabels } from './payments/provider';
import type { TestGatewayCopy } from './payments/providers/test-gateway';
import { $cardForm, mountCardFields, mountedCardFields } from './stores/card-form';
import { $checkout } from './stores/checkout';
import { $paymentPhase, type PaymentPage, pay, resumePayment } from './stores/payment';
import { paymentDeps } from './stores/payment-deps';
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
  /** Where each outcome leads; `here` is filled in the browser. */
  page: Omit<PaymentPage, 'here' | 'texts'>;
  errorTexts: Partial<ErrorTexts>;
  /**
   * A paywall's call to action ('Start my trial'): the form stays closed behind it until pressed
   * (SPEC.md §3 Plans state showCheckout), and the card provider loads only then.
   */
  gateLabel?: string;
}

function here(): string {
  return `${window.location.pathname}${window.location.search}`;
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
  page,
  errorTexts,
  gateLabel,
}: CheckoutPaymentProps) {
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const fieldsRef = useRef<HTMLDivElement>(null);
  const [open, setOpen] = useState(!gateLabel);
  const [activeId, setActiveId] = useState<PaymentMethodId>(defaultId);
  const cardForm = useStore($cardForm);
  const phase = useStore($paymentPhase);
  // The server knows no stored name; a name typed before a reload comes back once mounted.
  const [cardholderName, setCardholderName] = useState('');
  useEffect(() => setCardholderName($checkout.get().cardholderName), []);

  useEffect(() => {
    const container = fieldsRef.current;
    if (!open || !container) return;
    let cancelled = false;
    let undo = () => {};
    // Wallets and PayPal come with their providers' own buttons (issue 5); none is offered by
    // the providers loaded here yet, so the card is the method to start from.
    setActiveId('card');
    mountCardFields(container, {
      forceDirect,
      language,
      labels: copy.fields,
      copy: copy.gateway,
    }).then((unmount) => {
      if (cancelled) return unmount();
      undo = unmount;
      // An attempt a reload interrupted mid-poll continues here (issue 5).
      const fields = mountedCardFields();
      if (fields)
        void resumePayment(
          { ...page, here: here(), texts: errorTexts },
          paymentDeps(fields.provider),
        );
    });
    return () => {
      cancelled = true;
      undo();
    };
  }, [open, forceDirect, language, copy, page, errorTexts]);

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
    const plans = $plans.get();
    const signup = $signup.get();
    const request = purchaseRequestFor({
      planId: plans.plan,
      details: plans.planDetails,
      choice: fields.choice,
      visitor: { email: signup.email, uuid: signup.uuid },
      method: { kind: 'card-fields', cardholderName: $checkout.get().cardholderName.trim() },
    });
    void pay(request, { ...page, here: here(), texts: errorTexts }, paymentDeps(fields.provider));
  }

  const busy = phase !== 'idle';
  const cardChosen = activeId === 'card';
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
        onSelect={setActiveId}
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
              }}
            />
          </label>
        </fieldset>
        {cardChosen ? null : <p className="payment-methods__note">{copy.methodUnavailable}</p>}
      </div>
      {phase === 'confirming' ? (
        <p className="payment-form__status" role="status">
          {copy.confirming}
        </p>
      ) : null}
      <button
        id="continue-button"
        type="submit"
        className="button button--primary"
        disabled={busy || cardForm !== 'ready' || !cardChosen}
        aria-busy={busy || undefined}
      >
        {buttonLabel}
      </button>
    </form>
  );
}
