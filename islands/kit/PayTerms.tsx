import { useStore } from '@nanostores/react';
import { type RefObject, useEffect, useRef, useState } from 'react';
import { type ConsentTerms, sameConsentTerms } from '../../shared/plans/consent-terms';
import { $plans } from '../stores/plans';
import {
  $renewalConsent,
  renewalConsentGiven,
  tickRenewalConsent,
} from '../stores/renewal-consent';

/** One plan's pay button and the terms beside it, worded on the server (screens/plans/pay-terms-props.ts). */
export interface PlanPayWords {
  /** The button: "Pay $39.99", "Start trial for $6.99", "Pay €6.99 now". */
  pay: string;
  /** The amount charged now, formatted ("$6.99"). */
  total: string;
  /** The renewal in words: price, period, first renewal date, cancel anytime and where. */
  terms: string;
  /** The consent box's text where the visitor's country asks for one, else null. */
  consent: string | null;
  /** What ticking the box agrees to, sent with the charge and checked by the worker; else null. */
  agreement: ConsentTerms | null;
}

/** Where the new amount goes in `PayTermsCopy.consent.changed`, filled in the browser. */
export const AMOUNT_SLOT = '{{amount}}';

/** The pay button's words for every plan the screen offers, and the consent the country asks for. */
export interface PayTermsCopy {
  defaultPlan: string;
  plans: Record<string, PlanPayWords>;
  /** Null where the visitor's country asks for no box (shared/plans/renewal-consent.ts). */
  consent: {
    version: string;
    language: string;
    missing: string;
    /** Said when what Pay charges changed under a ticked box, with AMOUNT_SLOT for the new amount. */
    changed: string;
  } | null;
  /** 'Total today'. */
  totalLabel: string;
}

/**
 * The words of the plan picked above (PlanChoice keeps it in $plans), so the button and its
 * terms follow the choice; the server's default plan until hydrated, as its HTML shows it.
 */
export function usePayWords(copy: PayTermsCopy, hydrated: boolean): PlanPayWords | null {
  const { plan } = useStore($plans);
  const fallback = copy.plans[copy.defaultPlan] ?? Object.values(copy.plans)[0] ?? null;
  return (hydrated ? copy.plans[plan] : undefined) ?? fallback;
}

/** Puts the consent this page asks for into its store, unticked; forgets it when it goes. */
function useRenewalConsentAsk(copy: PayTermsCopy | null): void {
  const version = copy?.consent?.version;
  const language = copy?.consent?.language;
  // Stays an effect: it says what the box in the page asks, and withdraws it as the box goes.
  useEffect(() => {
    if (!version || !language) return;
    $renewalConsent.set({ version, language, agreed: null });
    return () => $renewalConsent.set(null);
  }, [version, language]);
}

/** The consent box's handle (RenewalConsentBox) and the check a press of Pay makes. */
export interface RenewalConsentCheck {
  ref: RefObject<HTMLInputElement | null>;
  /** Whether the box says the consent is missing. */
  error: boolean;
  clear(): void;
  /**
   * True when Pay may go on for a press that charges as `words` say; else shows the box's message
   * and moves focus to it.
   */
  given(words: PlanPayWords | null): boolean;
}

/**
 * Refuses Pay while the renewal consent the visitor's country asks for is not ticked
 * (shared/plans/renewal-consent.ts), on the checkout and on an upsell that renews alike: the box
 * says so and takes focus, so the visitor sees what is missing; the message goes once the box is
 * ticked. The worker refuses such a charge too: this only spares the visitor the round trip.
 * `terms` is null where nothing is asked (a one-time offer): the hooks still run, as React wants.
 */
export function useRenewalConsentCheck(terms: PayTermsCopy | null): RenewalConsentCheck {
  useRenewalConsentAsk(terms);
  const ref = useRef<HTMLInputElement>(null);
  const [error, setError] = useState(false);
  return {
    ref,
    error,
    clear: () => setError(false),
    given(words): boolean {
      if (renewalConsentGiven(words?.agreement)) return true;
      setError(true);
      ref.current?.focus();
      return false;
    },
  };
}

/** The total charged now, above the button, so the pay card says it beside the press. */
export function PayTotal({ label, words }: { label: string; words: PlanPayWords | null }) {
  if (!words) return null;
  return (
    <p className="pay-card__total">
      <span>{label}</span>
      <span className="pay-card__amount">{words.total}</span>
    </p>
  );
}

const EMAIL_ADDRESS = /(\S+@\S+\.[A-Za-z]{2,})/;

/**
 * The text with each email address isolated left to right: in an Arabic sentence an unisolated
 * address is drawn in pieces ("com.geozilla@support").
 */
function withLtrAddresses(text: string) {
  return text.split(EMAIL_ADDRESS).map((part, index) =>
    index % 2 === 1 ? (
      <bdi key={part} dir="ltr">
        {part}
      </bdi>
    ) : (
      part
    ),
  );
}

/** The renewal terms, right under the button (or a wallet's), at body size and colour. */
export function PayTermsLine({ words, id }: { words: PlanPayWords | null; id?: string }) {
  if (!words?.terms) return null;
  return (
    <p id={id} className="pay-card__terms">
      {withLtrAddresses(words.terms)}
    </p>
  );
}

/**
 * The unticked box of express consent to the automatic renewal, where the visitor's country asks
 * for one. Pay without it shows `missing` here and moves focus to the box (CheckoutPayment).
 * Ticking it agrees to the terms shown beside it (`words.agreement`); once what Pay charges
 * changes under it (the offer's countdown reaches zero, another plan is picked) it clears, and
 * `changed` says so with the new amount, announced, until the box is ticked again.
 */
export function RenewalConsentBox({
  id,
  words,
  copy,
  inputRef,
  error,
  onTick,
}: {
  id: string;
  words: PlanPayWords | null;
  copy: PayTermsCopy['consent'];
  inputRef: RefObject<HTMLInputElement | null>;
  error: boolean;
  onTick: () => void;
}) {
  const consent = useStore($renewalConsent);
  const shown = words?.agreement ?? null;
  const stale = Boolean(consent?.agreed) && !sameConsentTerms(consent?.agreed, shown);
  const [changed, setChanged] = useState(false);
  // Stays an effect: the consent is withdrawn once the render showed the box cleared.
  useEffect(() => {
    if (!stale) return;
    tickRenewalConsent(null, false);
    setChanged(true);
  }, [stale]);
  if (!words?.consent || !copy) return null;
  const ticked = !stale && sameConsentTerms(consent?.agreed, shown);
  const message = error
    ? copy.missing
    : changed
      ? copy.changed.replace(AMOUNT_SLOT, words.total)
      : '';
  return (
    <div className="pay-card__consent">
      <label className="pay-card__consent-label" htmlFor={`${id}renewal-consent`}>
        <input
          ref={inputRef}
          id={`${id}renewal-consent`}
          type="checkbox"
          className="pay-card__checkbox"
          checked={ticked}
          aria-invalid={error || undefined}
          aria-describedby={message ? `${id}renewal-consent-error` : undefined}
          onChange={(event) => {
            tickRenewalConsent(shown, event.target.checked);
            setChanged(false);
            onTick();
          }}
        />
        <span>{words.consent}</span>
      </label>
      <p id={`${id}renewal-consent-error`} className="pay-card__consent-error" role="alert">
        {message}
      </p>
    </div>
  );
}
