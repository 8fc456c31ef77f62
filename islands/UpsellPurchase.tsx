import { useStore } from '@nanostores/react';
import { useEffect, useId } from 'react';
import type { ErrorTexts } from '../shared/api/error-text';
import { currentScreenUrl } from './boot';
import { ContinueButton } from './kit/ContinueButton';
import { type PayTermsCopy, RenewalConsentBox, useRenewalConsentCheck } from './kit/PayTerms';
import { useAfterHydration } from './kit/use-after-hydration';
import { paidWithLabel } from './payments/paid-with';
import type { TestGatewayCopy } from './payments/providers/test-gateway';
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
}: Pick<UpsellPurchaseProps, 'copy'> & { id: string; planId: string }) {
  const mounted = useAfterHydration();
  const paidWith = useStore($receipts).main?.paidWith ?? null;
  const named = mounted && paidWith !== null;
  const method = named ? paidWithLabel(paidWith) : copy.onFile;
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

export default function UpsellPurchase({
  afterOffer,
  copy: offerCopy,
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

  async function buy() {
    if ($paymentPhase.get() !== 'idle') return;
    const chosen = $plans.get().upsellPlan;
    const planId = chosen in offers ? chosen : defaultPlanId;
    if (!consent.given(words?.plans[planId] ?? null)) return;
    $paymentPhase.set('paying');
    const account = await accountProvider({ forceDirect: false, copy: copy.gateway }).catch(
      () => null,
    );
    $paymentPhase.set('idle');
    if (!account) {
      showError(copy.noAccount);
      return;
    }
    const signup = $signup.get();
    const request = purchaseRequestFor({
      planId,
      details: offers[planId] ?? null,
      choice: account.choice,
      visitor: { email: signup.email, uuid: signup.uuid },
      method: { kind: 'on-file' },
      renewalConsent: renewalConsentToSend(),
    });
    const here = currentScreenUrl();
    await pay(request, { ...page, here, texts: errorTexts }, paymentStoreDeps(account.provider));
  }

  const busy = phase !== 'idle';
  const chargeId = `${useId()}charge`;
  const planId = useChosenOffer(Object.keys(offers), defaultPlanId);
  return (
    <form
      method="post"
      action={action}
      className="continue-form"
      onSubmit={(event) => {
        event.preventDefault();
        void buy();
      }}
    >
      <ChargeNow id={chargeId} planId={planId} copy={copy} />
      <RenewalConsentBox
        id={chargeId}
        words={words?.plans[planId] ?? null}
        copy={words?.consent ?? null}
        inputRef={consent.ref}
        error={consent.error}
        onTick={consent.clear}
      />
      <ErrorBesideBuy id={`${chargeId}-error`} error={error} />
      <ContinueButton
        label={copy.buyFor[planId] ?? copy.buy}
        busy={busy}
        busyLabel={copy.paying}
        describedBy={error ? `${chargeId} ${chargeId}-error` : chargeId}
      />
    </form>
  );
}
