import { useStore } from '@nanostores/react';
import { lazy, type ReactNode, Suspense, useEffect, useId, useState } from 'react';
import type { ErrorTexts } from '../shared/api/error-text';
import { CARD_AGAIN_QUERY } from '../shared/api/payment-provider-paths';
import { currentScreenUrl, navigate } from './boot';
import type { CardEntryCopy } from './kit/CardEntry';
import { ContinueButton } from './kit/ContinueButton';
import { OtherProviderOffer } from './kit/OtherProviderOffer';
import {
  type PayTermsCopy,
  RenewalConsentBox,
  type RenewalConsentCheck,
  useRenewalConsentCheck,
} from './kit/PayTerms';
import { useAfterHydration } from './kit/use-after-hydration';
import { paidWithLabel } from './payments/paid-with';
import type { CardProvider } from './payments/provider';
import type { ProviderChoice } from './payments/providers';
import type { TestGatewayCopy } from './payments/providers/test-gateway';
import type { PurchaseRequest } from './payments/purchase-types';
import { accountProvider } from './stores/card-form';
import { $checkout } from './stores/checkout';
import { showError } from './stores/error';
import { $offerEnded } from './stores/offer';
import { $paymentPhase, type PaymentPage, pay } from './stores/payment';
import { paymentStoreDeps } from './stores/payment-deps';
import { clearPaymentError, showsPaymentErrorBesidePay } from './stores/payment-error';
import { $plans } from './stores/plans';
import { type ChosenPlanDetails, purchaseRequestFor } from './stores/purchase-request';
import { $receipts } from './stores/receipt';
import { renewalConsentToSend } from './stores/renewal-consent';
import { $signup } from './stores/signup';

export interface UpsellPurchaseProps {
  /** The plans this upsell sells, with what the purchase sends of each (SPEC.md §3). */
  offers: Record<string, ChosenPlanDetails>;
  /** The offer bought when $plans.upsellPlan names none of them (the guide has one). */
  defaultPlanId: string;
  /**
   * The same offers at the regular prices while the visitor's offer countdown runs: bought, and
   * named in the charge line and on the button, once it reaches zero ($offerEnded), as the plan
   * picker then shows.
   */
  afterOffer?: {
    offers: Record<string, ChosenPlanDetails>;
    defaultPlanId: string;
    chargeNow: Record<string, string>;
    buyFor: Record<string, string>;
    /** The renewal consent's words at those prices. */
    terms: PayTermsCopy | null;
  };
  copy: {
    /** The screen's call to action, on the button while no offer's amount is known. */
    buy: string;
    /** Per offer, the call to action with what a press takes now ('Add to my plan for $5.59'). */
    buyFor: Record<string, string>;
    paying: string;
    noAccount: string;
    gateway: TestGatewayCopy;
    /**
     * Per offer, what pressing buy takes now ('$6.99 is charged now to {{method}}.'), with
     * METHOD_SLOT where the card or wallet of the main purchase goes.
     */
    chargeNow: Record<string, string>;
    /** The method named when the main purchase's answer named none ('the card you just paid with'). */
    onFile: string;
  };
  /**
   * 'Pay with another payment form': offered beside the button when the provider that keeps the
   * card on file kept failing this charge and nothing was charged (the worker's word).
   */
  otherProvider: string;
  /**
   * The page opened again on the other provider (CARD_AGAIN_QUERY): the card form, as the
   * subscriber's page has it, in place of the card on file, and the words that name the card to
   * be typed in the charge line. Absent: the card on file pays.
   */
  cardAgain?: { card: CardEntryCopy; method: string; language: string };
  /** Where the form posts without JavaScript (the worker moves on without charging). */
  action: string;
  /**
   * Each offer's renewal in words and the consent the visitor's country asks for
   * (screens/plans/pay-terms-props.ts); null for a one-time offer.
   */
  terms: PayTermsCopy | null;
  page: Omit<PaymentPage, 'here' | 'texts'>;
  errorTexts: Partial<ErrorTexts>;
}

/**
 * An upsell's one click (SPEC.md §1, §2: after the main purchase): charges the payment method
 * already on file through the same purchase as the checkout, with the same busy button, so a
 * double click buys once. The upsell's Skip is a separate form that just moves on.
 */
/** Where the card or wallet goes in `copy.chargeNow`, filled in the browser. */
export const METHOD_SLOT = '{{method}}';

/**
 * The offer a press buys: the visitor's pick among `offers`, else the default one. Until
 * hydration, as on the server, the default one.
 */
function useChosenOffer(offers: readonly string[], defaultPlanId: string): string {
  const mounted = useAfterHydration();
  const chosen = useStore($plans).upsellPlan;
  return mounted && offers.includes(chosen) ? chosen : defaultPlanId;
}

/**
 * What a press charges and to what: the chosen offer's amount, to the card (brand and last four)
 * or wallet the main purchase's answer named (islands/stores/receipt.ts). Until hydration, as on
 * the server, the card on file.
 */
function ChargeNow({
  id,
  planId,
  copy,
  typed,
}: Pick<UpsellPurchaseProps, 'copy'> & {
  id: string;
  planId: string;
  /** The words for a card typed below, in place of the card on file. */
  typed?: string;
}) {
  const mounted = useAfterHydration();
  const paidWith = useStore($receipts).main?.paidWith ?? null;
  const named = mounted && paidWith !== null && typed === undefined;
  const method = named ? paidWithLabel(paidWith) : (typed ?? copy.onFile);
  const [before = '', after = ''] = (copy.chargeNow[planId] ?? '').split(METHOD_SLOT);
  return (
    <p id={id} className="upsell-charge" aria-live="polite">
      {before}
      {/* A card's name and last four stay on one line, left to right on a right-to-left page
          ('Visa •••• 4242', never '4242 •••• Visa'); the words for "the card on file" wrap. */}
      {named ? (
        <bdi className="upsell-charge__method" dir="ltr">
          {method}
        </bdi>
      ) : (
        <bdi>{method}</bdi>
      )}
      {after}
    </p>
  );
}

/**
 * The payment error of a press on this page, shown beside the button until the next press
 * (./stores/payment-error.ts); neither an error nor a phase kept from before is this page's.
 */
function useErrorBesideBuy(): string | null {
  const hydrated = useAfterHydration();
  const { paymentError } = useStore($checkout);
  // A phase left over from a page restored from the back/forward cache must not hold the button.
  // Stays an effect: a one-off write as this island commits, no work that runs on.
  useEffect(() => $paymentPhase.set('idle'), []);
  // Stays an effect: it counts this form among those that show the error beside their button,
  // from its first commit to its leaving.
  useEffect(() => {
    clearPaymentError();
    return showsPaymentErrorBesidePay();
  }, []);
  return hydrated && paymentError.show && paymentError.message !== '' ? paymentError.message : null;
}

/** SPEC.md §3 paymentError: a failed charge is said here, announced, not only in a 3 s toast. */
function ErrorBesideBuy({ id, error }: { id: string; error: string | null }) {
  return (
    <p id={id} className="payment-methods__error" role="alert">
      {error}
    </p>
  );
}

/** What a press sells, and what it takes to sell it: the offers now, their terms, the page. */
interface UpsellSale extends Pick<UpsellPurchaseProps, 'page' | 'errorTexts'> {
  offers: Record<string, ChosenPlanDetails>;
  defaultPlanId: string;
  words: PayTermsCopy | null;
  consent: RenewalConsentCheck;
}

/** The offer a press buys (the visitor's pick, else the default), or null until its consent is given. */
function agreedOffer(sale: UpsellSale): string | null {
  const chosen = $plans.get().upsellPlan;
  const planId = chosen in sale.offers ? chosen : sale.defaultPlanId;
  return sale.consent.given(sale.words?.plans[planId] ?? null) ? planId : null;
}

/** One purchase of `planId` through the payment store, paid by `method` on `provider`. */
async function purchase(
  sale: UpsellSale,
  planId: string,
  paying: { choice: ProviderChoice; provider: CardProvider; method: PurchaseRequest['method'] },
): Promise<void> {
  const signup = $signup.get();
  const request = purchaseRequestFor({
    planId,
    details: sale.offers[planId] ?? null,
    choice: paying.choice,
    visitor: { email: signup.email, uuid: signup.uuid },
    method: paying.method,
    renewalConsent: renewalConsentToSend(),
  });
  const page = { ...sale.page, here: currentScreenUrl(), texts: sale.errorTexts };
  await pay(request, page, paymentStoreDeps(paying.provider));
}

/** The one click: the card on file, with the provider that keeps it. */
async function buyOnFile(sale: UpsellSale, copy: UpsellPurchaseProps['copy']): Promise<void> {
  if ($paymentPhase.get() !== 'idle') return;
  const planId = agreedOffer(sale);
  if (planId === null) return;
  $paymentPhase.set('paying');
  const account = await accountProvider({ forceDirect: false, copy: copy.gateway }).catch(
    () => null,
  );
  $paymentPhase.set('idle');
  if (!account) {
    showError(copy.noAccount);
    return;
  }
  await purchase(sale, planId, { ...account, method: { kind: 'on-file' } });
}

/** The card typed again, on the provider the visitor moved to: one purchase, as Pay's. */
async function buyWithCard(
  sale: UpsellSale,
  provider: CardProvider,
  cardholderName: string,
): Promise<null> {
  const planId = agreedOffer(sale);
  if (planId === null) return null;
  const { chooseProvider } = await import('./payments/providers');
  const choice = chooseProvider($signup.get(), { forceDirect: false });
  await purchase(sale, planId, {
    choice,
    provider,
    method: { kind: 'card-fields', cardholderName },
  });
  // What came of it is the page's: the next screen, 'Payment declined', or the error beside.
  return null;
}

export default function UpsellPurchase({
  afterOffer,
  copy: offerCopy,
  otherProvider,
  cardAgain,
  action,
  terms,
  page,
  errorTexts,
  ...offer
}: UpsellPurchaseProps) {
  const ended = useStore($offerEnded) && afterOffer !== undefined;
  const { offers, defaultPlanId } = ended ? afterOffer : offer;
  const copy = ended
    ? { ...offerCopy, chargeNow: afterOffer.chargeNow, buyFor: afterOffer.buyFor }
    : offerCopy;
  const words = ended ? afterOffer.terms : terms;
  const phase = useStore($paymentPhase);
  const consent = useRenewalConsentCheck(terms);
  const error = useErrorBesideBuy();

  const sale: UpsellSale = { offers, defaultPlanId, words, consent, page, errorTexts };
  const busy = phase !== 'idle';
  const chargeId = `${useId()}charge`;
  const planId = useChosenOffer(Object.keys(offers), defaultPlanId);
  const agreed = (
    <>
      <ChargeNow id={chargeId} planId={planId} copy={copy} typed={cardAgain?.method} />
      <RenewalConsentBox
        id={chargeId}
        words={words?.plans[planId] ?? null}
        copy={words?.consent ?? null}
        inputRef={consent.ref}
        error={consent.error}
        onTick={consent.clear}
      />
      <ErrorBesideBuy id={`${chargeId}-error`} error={error} />
    </>
  );
  if (cardAgain) {
    return (
      <CardAgain
        cardAgain={cardAgain}
        submit={copy.buyFor[planId] ?? copy.buy}
        send={(provider, cardholderName) => buyWithCard(sale, provider, cardholderName)}
        beforeSubmit={agreed}
      />
    );
  }
  return (
    <form
      method="post"
      action={action}
      className="continue-form"
      onSubmit={(event) => {
        event.preventDefault();
        void buyOnFile(sale, copy);
      }}
    >
      {agreed}
      <OtherProviderOffer label={otherProvider} reopen={reopenWithCardAgain} />
      <ContinueButton
        label={copy.buyFor[planId] ?? copy.buy}
        busy={busy}
        busyLabel={copy.paying}
        describedBy={error ? `${chargeId} ${chargeId}-error` : chargeId}
      />
    </form>
  );
}

/** This upsell's page anew, asking for the card (CARD_AGAIN_QUERY), once the visitor moved. */
function reopenWithCardAgain(): void {
  const url = new URL(window.location.href);
  url.searchParams.set(CARD_AGAIN_QUERY.name, CARD_AGAIN_QUERY.value);
  navigate(`${url.pathname}${url.search}`);
}

/**
 * The card form (./kit/CardEntry.tsx), loaded only where the card is typed again: most upsell
 * visitors buy with the card on file and never fetch it. The server draws it in the page, so
 * hydration keeps that HTML until the chunk is here.
 */
const CardEntryForm = lazy(() =>
  import('./kit/CardEntry').then(({ CardEntryForm }) => ({ default: CardEntryForm })),
);

/**
 * The card form in place of the card on file (./kit/CardEntry.tsx, the subscriber's page's), on
 * the provider the visitor moved to: its settings are the account's as this browser holds them
 * (the switch named the provider), read once so the fields mount once.
 */
function CardAgain(props: {
  cardAgain: NonNullable<UpsellPurchaseProps['cardAgain']>;
  submit: string;
  send: (provider: CardProvider, cardholderName: string) => Promise<null>;
  beforeSubmit: ReactNode;
}) {
  const [settings] = useState(() => $signup.get());
  return (
    <Suspense fallback={null}>
      <CardEntryForm
        settings={settings}
        language={props.cardAgain.language}
        copy={props.cardAgain.card}
        submit={props.submit}
        send={props.send}
        beforeSubmit={props.beforeSubmit}
        focusNumber
      />
    </Suspense>
  );
}
