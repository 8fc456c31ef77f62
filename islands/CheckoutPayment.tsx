import { useStore } from '@nanostores/react';
import { type FormEvent, type RefObject, useEffect, useId, useRef, useState } from 'react';
import { type ErrorTexts, readableText } from '../shared/api/error-text';
import { CardholderNameField } from './kit/CardholderNameField';
import { OneClickMethods, type OneClickMethodsCopy } from './kit/OneClickMethods';
import { OtherProviderOffer } from './kit/OtherProviderOffer';
import {
  type PayTermsCopy,
  PayTermsLine,
  PayTotal,
  type PlanPayWords,
  RenewalConsentBox,
  type RenewalConsentCheck,
  usePayWords,
  useRenewalConsentCheck,
} from './kit/PayTerms';
import type { PaymentMethodOption } from './kit/payment-methods';
import { useAfterHydration } from './kit/use-after-hydration';
import { useWorkingStore } from './kit/use-working-store';
import type { CardFieldLabels } from './payments/provider';
import type { OneClickMethod } from './payments/providers';
import type { TestGatewayCopy } from './payments/providers/test-gateway';
import {
  $cardForm,
  $cardProblems,
  type CardFormStatus,
  fieldsWithProblems,
  mountedCardFields,
} from './stores/card-form';
import { $checkout } from './stores/checkout';
import {
  type CheckoutFormState,
  type CheckoutFormStore,
  checkoutFormStore,
  editCardholderName,
  pressGate,
  startCardFields,
} from './stores/checkout-form';
import { type CheckoutPage, payByCard, payingPage } from './stores/checkout-purchase';
import { startOneClick } from './stores/one-click';
import { $paymentPhase } from './stores/payment';
import { showsPaymentErrorBesidePay } from './stores/payment-error';
import { $plans } from './stores/plans';

/** Every text of the payment form, translated on the server. */
export interface CheckoutPaymentCopy {
  /** Accessible name of the method group ('Payment method'). */
  methodsLabel: string;
  cardTitle: string;
  fields: CardFieldLabels;
  /** The text of each card field problem, keyed `${field}_${problem}` (shared/card-check.ts). */
  fieldMessages: Record<string, string>;
  /** Leads the screen readers' summary of a refused Pay ('Check your card details:'). */
  fieldsSummary: string;
  namePlaceholder: string;
  gateway: TestGatewayCopy;
  loading: string;
  noAccount: string;
  unavailable: string;
  oneClick: OneClickMethodsCopy;
  /** The line of the wallet sheet that carries the amount ('Total today'). */
  walletTotal: string;
  /** Pay's words when no plan's are known (PayTermsCopy names the amount). */
  pay: string;
  /** The link to the flow's sign-up screen beside `noAccount` ('Create your account'). */
  signUp: string;
  paying: string;
  confirming: string;
  /** The move to the other provider's form when this one kept failing ('Pay with another payment form'). */
  otherProvider: string;
}

export interface CheckoutPaymentProps {
  layout: 'vertical' | 'horizontal';
  /** The screen's methods in its order; the one-click ones show once this browser can pay so. */
  methods: PaymentMethodOption[];
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
  /** Pay's words and the renewal terms for each plan offered, and the consent the country asks for. */
  terms: PayTermsCopy;
  /** The flow's sign-up screen, for a visitor without an account; null where the flow has none. */
  signUpHref: string | null;
  /**
   * A paywall's call to action ('Start my trial'): the form stays closed behind it until pressed
   * (SPEC.md §3 Plans state showCheckout), and the card provider loads only then.
   */
  gateLabel?: string;
}

/**
 * The payment form of a checkout (SPEC.md §2 checkout page content, §4 Payment): the card
 * provider's fields (in its iframe), our own optional name on card, Pay, and the one-click
 * methods this browser can pay with: under Pay, or first where a gated screen leads with them
 * (leadsWithOneClick). Pay runs one purchase of the plan chosen above
 * (PlanChoice keeps it in $plans); the button stays busy until a final outcome, so repeated
 * presses never make a second attempt. A card with a field the provider finds wrong is refused
 * before anything is sent: each field says its own problem, and screen readers hear one summary.
 * The work is done by the stores (./stores/checkout-form.ts, one-click.ts, checkout-purchase.ts):
 * the form's store starts its own as the island listens; the effects here start and stop the
 * work that needs the form's elements.
 */
export default function CheckoutPayment(props: CheckoutPaymentProps) {
  const { copy, page, errorTexts, gateLabel } = props;
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const hydrated = useAfterHydration();
  const [$form] = useState(() => checkoutFormStore(Boolean(gateLabel)));
  const form = useWorkingStore($form);
  const cardForm = useStore($cardForm);
  const phase = useStore($paymentPhase);
  const oneClickFirst = leadsWithOneClick(props);
  // Where one-click methods lead, the form is in the page behind its gate from hydration on.
  const inPage = form.open || (oneClickFirst && hydrated);
  const [fieldsRef, paypalRef] = useCheckoutWork(props, $form, inPage, cardForm);
  useFocusOnOpening(form.open, formRef);
  const summary = useRefusedCardSummary(copy);
  const words = usePayWords(props.terms, hydrated);
  const consent = useRenewalConsentCheck(props.terms);
  const shownError = useShownPaymentError(hydrated);

  // Nothing is sent while a card field is wrong or the renewal box unticked.
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!summary.refused() && consent.given(words)) payByCard(payingPage(page, errorTexts));
  };

  const busy = phase !== 'idle';
  const oneClick = (
    <OneClickMethods
      copy={copy.oneClick}
      offered={form.oneClick}
      busy={busy}
      paypalRef={paypalRef}
      first={oneClickFirst}
    />
  );
  return (
    <>
      {inPage ? (
        <form
          ref={formRef}
          className={`payment-form payment-methods payment-methods--${props.layout}${form.open ? '' : ' payment-methods--behind-gate'}`}
          aria-label={copy.cardTitle}
          tabIndex={-1}
          onSubmit={onSubmit}
        >
          {oneClickFirst ? oneClick : null}
          {oneClickFirst && form.oneClick.length > 0 ? <PayTermsLine words={words} /> : null}
          <CardFieldset
            {...{ id, copy, $form, form, busy, fieldsRef }}
            signUpHref={props.signUpHref}
          />
          <PaymentStatus
            {...{ id, copy, phase, errorTexts }}
            error={shownError}
            refusedCard={summary.text}
          />
          <PayAction
            {...{ id, copy, phase, busy, words, consent }}
            terms={props.terms}
            open={form.open}
            ready={cardForm === 'ready'}
            errorShown={shownError !== null}
          />
          {oneClickFirst ? null : oneClick}
        </form>
      ) : null}
      {/* After the form waiting behind it (of no height), so the gate ends the island. */}
      {form.open ? null : (
        <CheckoutGate
          label={gateLabel}
          hydrated={hydrated}
          waiting={form.waiting}
          onOpen={() => pressGate($form, oneClickFirst)}
        />
      )}
    </>
  );
}

/**
 * The payment error beside Pay, which stays until the visitor acts (./stores/payment-error.ts);
 * null while there is none. The server's HTML has none, which the first render must match.
 */
function useShownPaymentError(hydrated: boolean): string | null {
  const { paymentError } = useStore($checkout);
  return hydrated && paymentError.show && paymentError.message !== '' ? paymentError.message : null;
}

/**
 * Whether the screen's one-click methods come before the card (its order starts with one, as
 * the combo paywall's Apple Pay does, SPEC.md §2). Only behind a gate: there the provider answers
 * while the form is out of sight, and the form opens with the methods this browser has already
 * in their place. An open form shows the card first and adds the methods under Pay, where
 * their arrival moves nothing the visitor sees.
 */
function leadsWithOneClick({ gateLabel, methods }: CheckoutPaymentProps): boolean {
  return Boolean(gateLabel) && methods.length > 1 && methods[0]?.id !== 'card';
}

/**
 * The visitor carries on in the form that just opened, whoever opened it: their press of the
 * gate, or the store for a visitor already past it (./stores/checkout-form.ts). A form open from
 * the first paint takes no focus.
 */
function useFocusOnOpening(open: boolean, formRef: RefObject<HTMLFormElement | null>): void {
  const wasOpen = useRef(open);
  // Stays an effect: it focuses the form element.
  useEffect(() => {
    if (open && !wasOpen.current) requestAnimationFrame(() => formRef.current?.focus());
    wasOpen.current = open;
  }, [open, formRef]);
}

/**
 * Refuses Pay while the provider reports a card field wrong or missing: the fields show their
 * own messages, and the returned `text` (a live region) says them once for screen readers. The
 * summary goes as soon as the fields are all right.
 */
function useRefusedCardSummary(copy: CheckoutPaymentCopy) {
  const problems = useStore($cardProblems);
  const [text, setText] = useState('');
  const wrong = fieldsWithProblems(problems);
  if (text && wrong.length === 0) setText('');
  return {
    text,
    refused(): boolean {
      if (wrong.length === 0 || !problems) return false;
      mountedCardFields()?.provider.revealProblems?.();
      const lines = wrong.map((name) => copy.fieldMessages[`${name}_${problems[name]}`] ?? '');
      setText([copy.fieldsSummary, ...lines].join(' '));
      return true;
    },
  };
}

/**
 * Starts the work that needs this form's elements, and stops it: the card fields once the form
 * is in the page, the one-click methods once the fields (and with them the provider) are in.
 * Returns the elements the fields and PayPal's button go into.
 */
function useCheckoutWork(
  props: CheckoutPaymentProps,
  $form: CheckoutFormStore,
  inPage: boolean,
  cardForm: CardFormStatus,
) {
  const { copy, forceDirect, language, stripeAccountCountry, page, errorTexts, methods } = props;
  const { planDetails } = useStore($plans);
  const fieldsRef = useRef<HTMLDivElement>(null);
  const paypalRef = useRef<HTMLDivElement>(null);
  // Stays an effect: it counts the forms in the page that show the error beside Pay, and this one
  // stops counting the moment it leaves, not a store's second later.
  useEffect(showsPaymentErrorBesidePay, []);

  // Stays an effect: the card fields go into an element of this form.
  useEffect(() => {
    const container = fieldsRef.current;
    if (!inPage || !container) return;
    return startCardFields(container, {
      forceDirect,
      language,
      labels: copy.fields,
      messages: copy.fieldMessages,
      copy: copy.gateway,
      page: () => payingPage(page, errorTexts),
    });
  }, [inPage, forceDirect, language, copy, page, errorTexts]);

  const oneClick = methods.flatMap((method) => (method.id === 'card' ? [] : [method.id]));
  const oneClickKey = oneClick.join(' ');
  // Stays an effect: PayPal's button goes into an element of this form.
  useEffect(
    () =>
      startOneClick($form, oneClickKey ? (oneClickKey.split(' ') as OneClickMethod[]) : [], {
        cardForm,
        planDetails,
        container: paypalRef.current,
        copy,
        stripeAccountCountry,
        errorTexts,
        page: () => payingPage(page, errorTexts),
      }),
    [$form, oneClickKey, cardForm, planDetails, copy, page, errorTexts, stripeAccountCountry],
  );
  return [fieldsRef, paypalRef] as const;
}

/** A paywall's call to action, in place of the form until pressed. */
function CheckoutGate({
  label,
  hydrated,
  waiting,
  onOpen,
}: {
  label: string | undefined;
  hydrated: boolean;
  /** Pressed, and waiting for the provider's answer (./stores/checkout-form.ts pressGate). */
  waiting: boolean;
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
        aria-busy={waiting || undefined}
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

/**
 * The card provider's fields, the state of their loading, and our own name on card. The
 * provider's box keeps the fields' height from the server's HTML on, with the loading note
 * over it, so nothing moves when the provider's frame arrives.
 */
function CardFieldset({
  id,
  copy,
  $form,
  form,
  busy,
  fieldsRef,
  signUpHref,
}: PanelProps & {
  id: string;
  fieldsRef: RefObject<HTMLDivElement | null>;
  signUpHref: string | null;
}) {
  const cardForm = useStore($cardForm);
  const notice =
    cardForm === 'loading'
      ? copy.loading
      : cardForm === 'no-account'
        ? copy.noAccount
        : cardForm === 'unavailable'
          ? copy.unavailable
          : null;
  const reserved = cardForm === 'loading' || cardForm === 'ready';
  return (
    <fieldset className="card-form" disabled={busy}>
      <legend className="card-form__title">{copy.cardTitle}</legend>
      <div className={`card-form__body${reserved ? ' card-form__body--reserved' : ''}`}>
        <div ref={fieldsRef} className="card-form__provider" />
        {notice ? (
          <p className="card-form__notice" role="status">
            {notice}
            {cardForm === 'no-account' && signUpHref ? (
              <>
                {' '}
                <a className="card-form__sign-up" href={signUpHref}>
                  {copy.signUp}
                </a>
              </>
            ) : null}
          </p>
        ) : null}
      </div>
      <CardholderNameField
        id={`${id}name`}
        label={copy.fields.name}
        placeholder={copy.namePlaceholder}
        value={form.cardholderName}
        onChange={(name) => editCardholderName($form, name)}
      />
    </fieldset>
  );
}

/**
 * The end of the pay card, kept together so the terms stand beside the press: the total charged
 * today, the renewal consent box where the country asks for one, Pay, and the renewal terms.
 */
function PayAction({
  id,
  copy,
  terms,
  words,
  consent,
  phase,
  busy,
  open,
  ready,
  errorShown,
}: {
  id: string;
  copy: CheckoutPaymentCopy;
  terms: PayTermsCopy;
  words: PlanPayWords | null;
  consent: RenewalConsentCheck;
  phase: string;
  busy: boolean;
  open: boolean;
  ready: boolean;
  errorShown: boolean;
}) {
  return (
    <div className="pay-card__action">
      <PayTotal label={terms.totalLabel} words={words} />
      <RenewalConsentBox
        id={id}
        words={words}
        copy={terms.consent}
        inputRef={consent.ref}
        error={consent.error}
        onTick={consent.clear}
      />
      <PayButton
        {...{ copy, phase, busy, words, open, ready }}
        describedBy={[errorShown ? `${id}payment-error` : '', words ? `${id}pay-terms` : '']
          .filter(Boolean)
          .join(' ')}
      />
      <PayTermsLine words={words} id={`${id}pay-terms`} />
    </div>
  );
}

/**
 * Pay: the card's submit, busy and named for where the payment stands, else for what a press
 * takes now ("Pay $39.99", "Start trial for $6.99"); the terms under it describe it.
 */
function PayButton({
  copy,
  phase,
  busy,
  open,
  ready,
  describedBy,
  words,
}: {
  copy: CheckoutPaymentCopy;
  phase: string;
  busy: boolean;
  open: boolean;
  ready: boolean;
  describedBy: string;
  words: PlanPayWords | null;
}) {
  return (
    <button
      // The gate's button holds the id while the form waits behind it.
      id={open ? 'continue-button' : undefined}
      type="submit"
      className="button button--primary"
      disabled={busy || !ready}
      // Held but no longer working once 'unconfirmed': it waits for the visitor's reload.
      aria-busy={(busy && phase !== 'unconfirmed') || undefined}
      aria-describedby={describedBy || undefined}
    >
      {phase === 'confirming'
        ? copy.confirming
        : phase === 'paying'
          ? copy.paying
          : (words?.pay ?? copy.pay)}
    </button>
  );
}

/** Where the payment stands past Pay, and its error (always in the page, so it is announced). */
function PaymentStatus({
  id,
  copy,
  phase,
  errorTexts,
  error,
  refusedCard,
}: {
  id: string;
  copy: CheckoutPaymentCopy;
  phase: string;
  errorTexts: Partial<ErrorTexts>;
  error: string | null;
  /** The screen readers' summary of a card refused before anything was sent. */
  refusedCard: string;
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
      <OtherProviderOffer label={copy.otherProvider} />
      <p className="visually-hidden" role="status">
        {refusedCard}
      </p>
    </>
  );
}
