import type { ChargeOutcome, ChargeProvider } from './charge-outcome';

/**
 * What the next attempt of the same purchase may be, after what its attempts so far came to
 * (./charge-outcome.ts): the cascade rule (Stripe's cross-processor retries, Primer's
 * fallbacks, Spreedly's backup gateways, and the card networks' retry limits), written as one
 * pure function. It never counts the network's retries per card, which the retry governor does
 * before every attempt this allows; nor does it know a time budget. The purchase's attempt
 * ledger asks it before every charge the worker forwards (worker/purchase-ledger/ledger.ts;
 * docs/payments.md, "What a failed charge allows next").
 */

/** One attempt of a purchase, as its ledger keeps it. */
export interface ChargeAttempt {
  provider: ChargeProvider;
  outcome: ChargeOutcome;
  /** An advice code came with the answer (ChargeReading.advised). */
  advised: boolean;
  /** The visitor was shown a 3-D Secure challenge in this attempt (whatever its result). */
  challenged: boolean;
  /** TECH_UNKNOWN only: what asking the provider about it found; null until asked. */
  reconciled?: 'charged' | 'not_charged' | null;
}

/** The purchase the attempts belong to. */
export interface ChargePurchase {
  /**
   * 'customer' when the visitor is paying now (a checkout, a CIT); 'merchant' when we charge a
   * card on file without them (a renewal, an MIT).
   */
  initiator: 'customer' | 'merchant';
  /** The providers configured for it; a cross-provider attempt needs two. */
  providers: readonly ChargeProvider[];
}

/** A purchase's attempts, first to last; there is always one. */
export type ChargeAttempts = readonly [ChargeAttempt, ...ChargeAttempt[]];

/** What may happen next. Only other_provider, step_up and later lead to another attempt. */
export type ChargeNextStep =
  /** Money was taken by one of the attempts: nothing more is tried. */
  | { step: 'done' }
  /**
   * Nothing more with this card: ask the visitor for another ('another_card'), or, for a
   * charge made without them, ask them back to authenticate on the page ('authenticate'). Visa
   * allows no reattempt after a category-1 decline, Mastercard none after advice 03 or 21, and
   * Stripe's Smart Retries none after a hard decline; an issuer's 3-D Secure request can only
   * be met on session (Checkout.com, "Automated SCA soft decline retry").
   */
  | { step: 'stop'; ask: 'another_card' | 'authenticate' }
  /**
   * One immediate attempt on the other provider, once per purchase (Spreedly Recover's backup
   * gateways; Stripe's cross-processor retries).
   */
  | { step: 'other_provider'; provider: ChargeProvider }
  /**
   * Run 3-D Secure on the same provider with the visitor present (Stripe,
   * "authentication_required": only the cardholder on the session can authenticate).
   */
  | { step: 'step_up'; provider: ChargeProvider }
  /**
   * Ask the provider whether the attempt charged, by its idempotency key or order id, before
   * anything else: a timeout is not a decline (Stripe, "Idempotent requests").
   */
  | { step: 'reconcile'; provider: ChargeProvider }
  /**
   * The same card on the same provider, later: a new press of Pay, or the renewal schedule, when
   * the issuer may yet approve (Mastercard advice 02 and 24–30 name the wait; Stripe, "Smart
   * Retries"), within the network's counters that the retry governor keeps.
   */
  | { step: 'later'; provider: ChargeProvider };

const STOPS: ReadonlySet<ChargeOutcome> = new Set(['HARD', 'RISK_BLOCK']);

const charged = (attempt: ChargeAttempt) =>
  attempt.outcome === 'APPROVED' ||
  (attempt.outcome === 'TECH_UNKNOWN' && attempt.reconciled === 'charged');

const unreconciled = (attempt: ChargeAttempt) =>
  attempt.outcome === 'TECH_UNKNOWN' && !attempt.reconciled;

/**
 * The other provider, when the purchase may still try it now: two are configured, no attempt
 * has gone to another provider than the first's (at most one cross-provider attempt per
 * purchase, A.3), and no 3-D Secure challenge was shown (Stripe, "Cross-processor retries": none
 * after 3-D Secure was attempted; an authentication is not carried between our providers, so
 * the visitor would be asked twice).
 */
function otherProviderOf(attempts: ChargeAttempts, purchase: ChargePurchase) {
  const first = attempts[0].provider;
  if (attempts.some((attempt) => attempt.provider !== first || attempt.challenged)) return null;
  return purchase.providers.find((provider) => provider !== first) ?? null;
}

/** An immediate attempt on the other provider when it may, else the same card later. */
function routeOrLater(attempts: ChargeAttempts, purchase: ChargePurchase): ChargeNextStep {
  const other = otherProviderOf(attempts, purchase);
  if (other !== null) return { step: 'other_provider', provider: other };
  return { step: 'later', provider: (attempts.at(-1) as ChargeAttempt).provider };
}

/**
 * The step a purchase's attempts allow. Over the whole purchase first: a charge ends it; an
 * attempt that may have charged is reconciled before anything else; a HARD or RISK_BLOCK on any
 * attempt ends it for this card, on every provider. Then the last attempt's outcome:
 * - SOFT_ROUTE, TECH_NOT_SENT, TECH_UNKNOWN reconciled as not charged: the other provider once,
 *   else later;
 * - AUTH_REQUIRED: step up on the same provider when the visitor is there, else ask them back;
 * - SOFT_LATER: later.
 * A merchant-initiated decline without an advice code is not retried (Cybersource's default).
 */
export function nextChargeStep(attempts: ChargeAttempts, purchase: ChargePurchase): ChargeNextStep {
  if (attempts.some(charged)) return { step: 'done' };
  const pending = attempts.find(unreconciled);
  if (pending) return { step: 'reconcile', provider: pending.provider };
  if (attempts.some((attempt) => STOPS.has(attempt.outcome))) {
    return { step: 'stop', ask: 'another_card' };
  }
  const last = attempts.at(-1) as ChargeAttempt;
  const present = purchase.initiator === 'customer';
  switch (last.outcome) {
    case 'AUTH_REQUIRED':
      return present
        ? { step: 'step_up', provider: last.provider }
        : { step: 'stop', ask: 'authenticate' };
    case 'TECH_NOT_SENT':
    case 'TECH_UNKNOWN':
      return routeOrLater(attempts, purchase);
    case 'SOFT_LATER':
    case 'SOFT_ROUTE':
      if (!present && !last.advised) return { step: 'stop', ask: 'another_card' };
      return last.outcome === 'SOFT_LATER'
        ? { step: 'later', provider: last.provider }
        : routeOrLater(attempts, purchase);
    default:
      // APPROVED, HARD and RISK_BLOCK end the purchase above.
      return { step: 'stop', ask: 'another_card' };
  }
}
