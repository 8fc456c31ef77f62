import { type DeclineClass, declineClassOf } from './decline-class';
import { oneOf } from './one-of';

/**
 * What one charge attempt came to, in the few outcomes that decide what the next attempt of the
 * same purchase may be (./charge-next-step.ts): whether money was taken, whether the same card
 * may pass later or on the other card provider now, whether the visitor must authenticate, and
 * whether we know at all. Read from what Stripe or Braintree answered, or from what happened on
 * the wire when neither did. Pure, so the worker, the embedded portal's fakes and the simulations
 * read an answer alike. The purchase's attempt ledger reads every charge answer the worker relays
 * with it (worker/purchase-ledger/ledger.ts; docs/payments.md, "What a failed charge allows
 * next").
 *
 * The outcomes follow the published rules they come from, in this order: the network's advice
 * first (Visa's decline categories, Mastercard's merchant advice codes), then the provider's own
 * advice (Stripe's advice codes, Braintree's processor response types), then its decline codes, read through the tables of ./decline-class.ts
 * where they agree.
 */

export const CHARGE_OUTCOMES = [
  /** The charge went through: money was taken, nothing more may be tried. */
  'APPROVED',
  /**
   * The issuer or network said never with this card: Visa category 1, Mastercard advice 03 or
   * 21, Stripe's advice do_not_try_again, lost, stolen, expired, a wrong number. Ask for another.
   */
  'HARD',
  /** The same card may pass later, not now: insufficient funds, a limit, Mastercard 02, 24–30. */
  'SOFT_LATER',
  /**
   * Declined without a lasting reason (do not honour, a generic decline, a processing error):
   * the other provider may approve.
   */
  'SOFT_ROUTE',
  /** The issuer wants 3-D Secure: only the visitor, present, can give it. */
  'AUTH_REQUIRED',
  /** Nothing reached the network (refused before sending, Braintree's 3000s): nothing charged. */
  'TECH_NOT_SENT',
  /** A timeout or 5xx once the request was sent: it may have charged, so ask before all else. */
  'TECH_UNKNOWN',
  /** Our fraud screen refused it (Stripe Radar, Braintree's fraud rules): never sent elsewhere. */
  'RISK_BLOCK',
] as const;

/** One of CHARGE_OUTCOMES. */
export type ChargeOutcome = (typeof CHARGE_OUTCOMES)[number];

/** Whether a value read from outside (a ledger row, a log) is a charge outcome. */
export const isChargeOutcome = oneOf(CHARGE_OUTCOMES);

/** The card providers a charge may go to (SPEC.md §4); the test gateway stands in for either. */
export type ChargeProvider = 'stripe' | 'braintree';

/**
 * Stripe's error object, as the API answers it or as a PaymentIntent's `last_payment_error`,
 * with Stripe's field names (docs.stripe.com/api/errors). The network's two codes exist since
 * API version 2024-12-18.acacia.
 */
export interface StripeChargeError {
  /** card_error, api_error, invalid_request_error, idempotency_error, rate_limit_error… */
  type?: string | null;
  code?: string | null;
  decline_code?: string | null;
  /** Stripe's own advice: try_again_later, do_not_try_again, confirm_card_data. */
  advice_code?: string | null;
  /** The network's advice, two digits: Mastercard's merchant advice code. */
  network_advice_code?: string | null;
  /** The network's own decline code: Visa's '05', '51', 'R0'… */
  network_decline_code?: string | null;
  message?: string | null;
}

/** What Stripe answered to confirming a PaymentIntent: the intent's status, its error, or both. */
export interface StripeChargeAnswer {
  kind: 'stripe';
  /** PaymentIntent.status: succeeded, requires_capture, requires_action, processing… */
  status?: string | null;
  error?: StripeChargeError | null;
}

/**
 * What Braintree answered to a sale, with its server SDKs' field names (Transaction:
 * status, processorResponseCode, processorResponseType, gatewayRejectionReason,
 * merchantAdviceCode, networkResponseCode).
 */
export interface BraintreeChargeAnswer {
  kind: 'braintree';
  /** authorized, submitted_for_settlement, processor_declined, gateway_rejected, failed… */
  status?: string | null;
  /** '1000' approved, '2001' a decline, '3000' the processor's network unavailable. */
  processorResponseCode?: string | null;
  /** Braintree's own verdict on a decline: approved, soft_declined, hard_declined. */
  processorResponseType?: string | null;
  /** cvv, avs, fraud, risk_threshold, three_d_secure, duplicate… */
  gatewayRejectionReason?: string | null;
  /** Mastercard's merchant advice code, as the network sent it. */
  merchantAdviceCode?: string | null;
  /** The network's own response code: Visa's '05', '14', 'R1'… */
  networkResponseCode?: string | null;
}

/**
 * No answer: 'before_sending' when the request never left (the connection refused, the
 * provider's script or client failed first); 'after_sending' for a timeout or a 5xx without an
 * answer once it had gone, which may have charged.
 */
export interface UnansweredCharge {
  kind: 'unanswered';
  when: 'before_sending' | 'after_sending';
}

/** Everything a charge attempt can come back with. */
export type ChargeAnswer = StripeChargeAnswer | BraintreeChargeAnswer | UnansweredCharge;

/** An attempt's outcome, and whether the issuer or network advised on a retry. */
export interface ChargeReading {
  outcome: ChargeOutcome;
  /**
   * An advice code came with it (Stripe's or the network's). Without one, a merchant-initiated
   * attempt is not retried (Cybersource, ccAuthReply_merchantAdviceCode: no advice, no retry).
   */
  advised: boolean;
}

/**
 * Visa's category 1, "issuer will never approve": no reattempt ever, on any acquirer (Visa
 * excessive reattempts rules; Checkout.com, "When can I retry a declined transaction").
 */
export const VISA_NEVER_CODES = [
  '04',
  '07',
  '12',
  '14',
  '15',
  '41',
  '43',
  '46',
  '57',
  'R0',
  'R1',
  'R3',
] as const;

/** Mastercard's merchant advice codes 03 (do not try again) and 21 (payment cancelled). */
export const MASTERCARD_NEVER_ADVICE = ['03', '21'] as const;

// biome-ignore format: one code per line reads best as a table.
/**
 * Mastercard's other merchant advice codes (as Rapyd and Checkout.com normalise them; 24–30
 * are the network's own "retry after 1 hour … 10 days", 08–14 Rapyd's names for the same).
 */
const MASTERCARD_ADVICE: Readonly<Record<string, ChargeOutcome>> = {
  '01': 'HARD', // new account information: the card as given will not pass
  '02': 'SOFT_LATER', // cannot approve now, try again later
  '04': 'AUTH_REQUIRED', // retry with authentication
  ...Object.fromEntries(
    ['08', '09', '10', '11', '12', '13', '14', '24', '25', '26', '27', '28', '29', '30'].map(
      (code) => [code, 'SOFT_LATER' as const],
    ),
  ),
};

/** A table's entry for a code, whatever its case and spacing; null when it has none. */
const lookup = (table: Readonly<Record<string, ChargeOutcome>>, key: string | null | undefined) => {
  const code = key?.trim().toLowerCase() ?? '';
  return (Object.hasOwn(table, code) && table[code]) || null;
};

const normalised = (code: string | null | undefined) => code?.trim().toUpperCase() ?? '';

const visaNever: ReadonlySet<string> = new Set(VISA_NEVER_CODES);
const mastercardNever: ReadonlySet<string> = new Set(MASTERCARD_NEVER_ADVICE);

/**
 * What the network's codes say, before anything the provider adds; null when they say nothing
 * we act on. Visa's category-1 codes are ISO 8583 meanings (pick up, lost, stolen, no such
 * issuer, closed) that no network approves later, so they are read whichever network sent them.
 */
function networkOutcome(declineCode: string | null | undefined, advice: string | null | undefined) {
  const mac = normalised(advice);
  if (visaNever.has(normalised(declineCode)) || mastercardNever.has(mac)) return 'HARD';
  return lookup(MASTERCARD_ADVICE, mac);
}

/** What a decline's class (the 'Payment declined' page's) allows, where the two agree. */
const CLASS_OUTCOMES: Readonly<Record<DeclineClass, ChargeOutcome>> = {
  insufficient_funds: 'SOFT_LATER',
  card_invalid: 'HARD',
  do_not_honour: 'SOFT_ROUTE',
  authentication_failed: 'AUTH_REQUIRED',
  processing_error: 'SOFT_ROUTE',
  fraud_suspected: 'HARD',
  // A decline that names no reason is a generic decline.
  unknown: 'SOFT_ROUTE',
};

// biome-ignore format: one code per line reads best as a table.
/**
 * Where a code's outcome differs from its page class (Stripe, "Decline codes"): the page may
 * advise alike on codes that allow different next attempts.
 */
const STRIPE_OUTCOMES: Readonly<Record<string, ChargeOutcome>> = {
  fraudulent: 'RISK_BLOCK', // Radar's (or the issuer's) fraud verdict
  merchant_blacklist: 'RISK_BLOCK', // our Radar block list
  do_not_try_again: 'HARD',
  revocation_of_all_authorizations: 'HARD', // Visa R1
  revocation_of_authorization: 'HARD', // Visa R0
  stop_payment_order: 'HARD', // Visa R0, R3
  transaction_not_allowed: 'HARD', // Visa 57
  not_permitted: 'HARD', // Visa 57
  card_decline_rate_limit_exceeded: 'SOFT_LATER', // Stripe: try this card again after 24 hours
  idempotency_key_in_use: 'TECH_UNKNOWN', // the same attempt is still running
  lock_timeout: 'TECH_UNKNOWN',
};

// biome-ignore format: one code per line reads best as a table.
/** Stripe's error types that are not the card's: whether the charge can have run ("Errors"). */
const STRIPE_TECHNICAL_TYPES: Readonly<Record<string, ChargeOutcome>> = {
  api_error: 'TECH_UNKNOWN', // a 5xx: Stripe keeps the result under the idempotency key
  idempotency_error: 'TECH_UNKNOWN',
  rate_limit_error: 'TECH_NOT_SENT', // a 429 is refused before it runs
  authentication_error: 'TECH_NOT_SENT',
  invalid_request_error: 'TECH_NOT_SENT',
};

const present = (code: string | null | undefined) => Boolean(code?.trim());

const isApprovedStripe = oneOf(['succeeded', 'requires_capture']);

/** Stripe's own advice, where the code allows an immediate attempt or says nothing. */
function stripeAdviceOutcome(advice: string): ChargeOutcome | null {
  if (advice === 'try_again_later') return 'SOFT_LATER';
  if (advice === 'confirm_card_data') return 'HARD';
  return null;
}

/** A code's outcome: its own entry, else its page class's; null when the code is not known. */
function stripeCodeOutcome(code: string | null | undefined): ChargeOutcome | null {
  const own = lookup(STRIPE_OUTCOMES, code);
  if (own !== null || !code) return own;
  const decline = declineClassOf({ declineCode: code });
  return decline === 'unknown' ? null : CLASS_OUTCOMES[decline];
}

function readStripe({ status, error }: StripeChargeAnswer): ChargeOutcome {
  if (isApprovedStripe(status)) return 'APPROVED';
  if (!error) return status === 'requires_action' ? 'AUTH_REQUIRED' : 'TECH_UNKNOWN';
  const network = networkOutcome(error.network_decline_code, error.network_advice_code);
  if (network !== null) return network;
  const advice = error.advice_code?.trim().toLowerCase() ?? '';
  if (advice === 'do_not_try_again') return 'HARD';
  const byCode = stripeCodeOutcome(error.decline_code) ?? stripeCodeOutcome(error.code);
  if (byCode === null || byCode === 'SOFT_ROUTE') {
    const advised = stripeAdviceOutcome(advice);
    if (advised !== null) return advised;
  }
  if (byCode !== null) return byCode;
  // The issuer declined, for a reason no table knows: a generic decline.
  if (error.type === 'card_error' || present(error.decline_code)) return 'SOFT_ROUTE';
  return lookup(STRIPE_TECHNICAL_TYPES, error.type) ?? 'TECH_UNKNOWN';
}

const isApprovedBraintree = oneOf([
  'authorized',
  'submitted_for_settlement',
  'settlement_pending',
  'settling',
  'settled',
]);

// biome-ignore format: one reason per line reads best as a table.
/**
 * Braintree's gateway rejections (Braintree, "Gateway rejections"): its own rules refused the
 * sale, so some never reached the network and some are our fraud screen's.
 */
const BRAINTREE_REJECTION_OUTCOMES: Readonly<Record<string, ChargeOutcome>> = {
  fraud: 'RISK_BLOCK',
  risk_threshold: 'RISK_BLOCK',
  duplicate: 'TECH_UNKNOWN', // the same sale moments ago: that one may have charged
  token_issuance: 'TECH_NOT_SENT',
  application_incomplete: 'TECH_NOT_SENT',
  excessive_retry: 'HARD', // the retry limits are spent
};

// biome-ignore format: one code per line reads best as a table.
/** Braintree's hard declines its page class calls do_not_honour (Braintree, "Declines"). */
const BRAINTREE_HARD_CODES: ReadonlySet<string> = new Set([
  '2015', // Transaction Not Allowed (Visa 57)
  '2017', // Cardholder Stopped Billing (Visa R0)
  '2018', // Cardholder Stopped All Billing (Visa R1)
  '2019', // Invalid Transaction (Visa 12)
]);

/**
 * A rejection's outcome: its own entry, else its page class's (cvv, avs: the card's data); HARD
 * when neither knows it.
 */
function braintreeRejectionOutcome(reason: string): ChargeOutcome {
  const own = lookup(BRAINTREE_REJECTION_OUTCOMES, reason);
  if (own !== null) return own;
  const decline = declineClassOf({ gatewayRejection: reason });
  return decline === 'unknown' ? 'HARD' : CLASS_OUTCOMES[decline];
}

/**
 * A processor response code's outcome: 3000s technical, 2000s a decline. A 1000s code (approved)
 * under a status that is not an approval contradicts itself: ask Braintree which it was.
 */
function braintreeCodeOutcome(code: string, type: string): ChargeOutcome {
  if (code.startsWith('1')) return 'TECH_UNKNOWN';
  if (code.startsWith('3')) return 'TECH_NOT_SENT';
  if (type === 'hard_declined' || BRAINTREE_HARD_CODES.has(code)) return 'HARD';
  return CLASS_OUTCOMES[declineClassOf({ declineCode: code })];
}

function readBraintree(answer: BraintreeChargeAnswer): ChargeOutcome {
  if (isApprovedBraintree(answer.status)) return 'APPROVED';
  const network = networkOutcome(answer.networkResponseCode, answer.merchantAdviceCode);
  if (network !== null) return network;
  const reason = answer.gatewayRejectionReason?.trim().toLowerCase();
  if (reason) return braintreeRejectionOutcome(reason);
  if (answer.status === 'gateway_rejected') return 'HARD';
  const code = answer.processorResponseCode?.trim().match(/^[123]\d{3}$/)?.[0];
  const type = answer.processorResponseType?.trim().toLowerCase() ?? '';
  if (code) return braintreeCodeOutcome(code, type);
  if (answer.status === 'failed') return 'TECH_NOT_SENT';
  if (answer.status === 'processor_declined') {
    return type === 'hard_declined' ? 'HARD' : 'SOFT_ROUTE';
  }
  return 'TECH_UNKNOWN';
}

/**
 * The outcome of one charge attempt, and whether it came with advice. Money taken is read first
 * (an approval is never a decline, whatever codes ride along); then the network's advice, which
 * no provider code overrides (Visa category 1 and Mastercard 03/21 are HARD); then the
 * provider's advice and codes. What cannot be read as either is TECH_UNKNOWN: ask before
 * anything else, since it may have charged.
 */
export function chargeOutcomeOf(answer: ChargeAnswer): ChargeReading {
  switch (answer.kind) {
    case 'unanswered':
      return {
        outcome: answer.when === 'before_sending' ? 'TECH_NOT_SENT' : 'TECH_UNKNOWN',
        advised: false,
      };
    case 'stripe': {
      const { error } = answer;
      const advised = present(error?.advice_code) || present(error?.network_advice_code);
      return { outcome: readStripe(answer), advised };
    }
    case 'braintree':
      return { outcome: readBraintree(answer), advised: present(answer.merchantAdviceCode) };
  }
}
