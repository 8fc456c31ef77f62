import { oneOf } from './one-of';

/**
 * Why a card was declined, in the few classes the 'Payment declined' page advises on: each asks
 * something different of the visitor (check the card, use another, wait and retry, call the bank,
 * finish the bank's check). Read from what the card providers answer: Stripe's decline codes,
 * error codes and advice codes, and Braintree's processor response codes and gateway rejection
 * reasons. Pure, so the islands (the page's advice), the worker (its log line) and the results
 * (the decline guardrail) classify alike.
 *
 * Sources: Stripe, "Decline codes" (docs.stripe.com/declines/codes) and "Advice codes"
 * (docs.stripe.com/declines/codes#advice-codes); Braintree, "Declines" and "Gateway rejections"
 * (developer.paypal.com/braintree/articles/control-panel/transactions/declines and
 * .../gateway-rejections).
 */

export const DECLINE_CLASSES = [
  'insufficient_funds',
  /** Expired, a wrong number, CVC or expiry: the card's data, not the bank's will. */
  'card_invalid',
  /** The bank refused without saying why: only it can say, or another card works. */
  'do_not_honour',
  /** 3-D Secure failed, or was required and not completed. */
  'authentication_failed',
  /** The issuer or network could not answer now: the same card may work in a moment. */
  'processing_error',
  /** Lost, stolen, picked up, blocked as fraud: retrying this card must not be invited. */
  'fraud_suspected',
  /** Nothing said, or a code we do not know: SPEC.md §8's three hints. */
  'unknown',
] as const;

export type DeclineClass = (typeof DECLINE_CLASSES)[number];

export const isDeclineClass = oneOf(DECLINE_CLASSES);

/**
 * The query parameter of the 'Payment declined' page that names the class. Advice only: it
 * changes which hints and actions the page shows, never what is charged.
 */
export const DECLINE_CLASS_PARAM = 'decline';

/** What a provider said about a declined charge; any of it may be missing. */
export interface ProviderDecline {
  /**
   * Stripe's `decline_code`, else its error `code` (the browser's providers fall back to it), or a
   * Braintree processor response code ('2001') where a product API puts it there.
   */
  declineCode?: string | null;
  /** Stripe's `advice_code`: try_again_later, do_not_try_again, confirm_card_data. */
  adviceCode?: string | null;
  /** The processor's words; Braintree's start with their code: '2001 Insufficient Funds'. */
  processorResponse?: string | null;
  /** Braintree's `gateway_rejection_reason`: cvv, avs, three_d_secure, fraud, risk_threshold… */
  gatewayRejection?: string | null;
}

// biome-ignore format: one class per line reads best as a table.
/** Stripe's decline codes and the error codes that stand for one (Stripe, "Decline codes"). */
const STRIPE_CODES: Readonly<Record<string, DeclineClass>> = {
  insufficient_funds: 'insufficient_funds',
  card_velocity_exceeded: 'insufficient_funds',
  withdrawal_count_limit_exceeded: 'insufficient_funds',
  expired_card: 'card_invalid',
  incorrect_cvc: 'card_invalid',
  invalid_cvc: 'card_invalid',
  incorrect_number: 'card_invalid',
  invalid_number: 'card_invalid',
  invalid_expiry_month: 'card_invalid',
  invalid_expiry_year: 'card_invalid',
  invalid_expiry_date: 'card_invalid',
  incorrect_zip: 'card_invalid',
  invalid_account: 'card_invalid',
  new_account_information_available: 'card_invalid',
  testmode_decline: 'card_invalid',
  // Stripe's advice for both: the customer should contact their card issuer.
  do_not_honor: 'do_not_honour',
  generic_decline: 'do_not_honour',
  call_issuer: 'do_not_honour',
  do_not_try_again: 'do_not_honour',
  no_action_taken: 'do_not_honour',
  not_permitted: 'do_not_honour',
  service_not_allowed: 'do_not_honour',
  transaction_not_allowed: 'do_not_honour',
  card_not_supported: 'do_not_honour',
  currency_not_supported: 'do_not_honour',
  revocation_of_all_authorizations: 'do_not_honour',
  revocation_of_authorization: 'do_not_honour',
  stop_payment_order: 'do_not_honour',
  authentication_required: 'authentication_failed',
  payment_intent_authentication_failure: 'authentication_failed',
  processing_error: 'processing_error',
  issuer_not_available: 'processing_error',
  try_again_later: 'processing_error',
  reenter_transaction: 'processing_error',
  approve_with_id: 'processing_error',
  fraudulent: 'fraud_suspected',
  lost_card: 'fraud_suspected',
  stolen_card: 'fraud_suspected',
  pickup_card: 'fraud_suspected',
  restricted_card: 'fraud_suspected',
  security_violation: 'fraud_suspected',
  merchant_blacklist: 'fraud_suspected',
};

// biome-ignore format: one code per line reads best as a table.
/**
 * Braintree's processor responses (Braintree, "Declines"): soft declines (2000, 2001, 2002,
 * 2003, 2038, 2046, 3000) may pass later or with another card; hard ones (2004, 2005, 2012–2015,
 * 2057) never will with this card, which the class's advice says.
 */
const BRAINTREE_CODES: Readonly<Record<string, DeclineClass>> = {
  '2000': 'do_not_honour', // Do Not Honor
  '2001': 'insufficient_funds', // Insufficient Funds
  '2002': 'insufficient_funds', // Limit Exceeded
  '2003': 'insufficient_funds', // Cardholder's Activity Limit Exceeded
  '2004': 'card_invalid', // Expired Card
  '2005': 'card_invalid', // Invalid Credit Card Number
  '2006': 'card_invalid', // Invalid Expiration Date
  '2007': 'card_invalid', // No Account
  '2008': 'card_invalid', // Card Account Length Error
  '2009': 'card_invalid', // No Such Issuer
  '2010': 'card_invalid', // Card Issuer Declined CVV
  '2011': 'do_not_honour', // Voice Authorization Required
  '2012': 'fraud_suspected', // Processor Declined – Possible Lost Card
  '2013': 'fraud_suspected', // Processor Declined – Possible Stolen Card
  '2014': 'fraud_suspected', // Processor Declined – Fraud Suspected
  '2015': 'do_not_honour', // Transaction Not Allowed
  '2017': 'do_not_honour', // Cardholder Stopped Billing
  '2018': 'do_not_honour', // Cardholder Stopped All Billing
  '2019': 'do_not_honour', // Invalid Transaction
  '2020': 'fraud_suspected', // Violation
  '2021': 'fraud_suspected', // Security Violation
  '2022': 'card_invalid', // Declined – Updated Cardholder Available
  '2024': 'do_not_honour', // Card Type Not Enabled
  '2038': 'do_not_honour', // Processor Declined
  '2044': 'do_not_honour', // Declined – Call Issuer
  '2046': 'do_not_honour', // Declined
  '2047': 'fraud_suspected', // Call Issuer. Pick Up Card
  '2053': 'fraud_suspected', // Card reported as lost or stolen
  '2057': 'fraud_suspected', // Issuer or Cardholder has put a restriction on the card
  '2059': 'card_invalid', // Address Verification Failed
  '2060': 'card_invalid', // Address Verification and Card Security Code Failed
  '2099': 'authentication_failed', // Cardholder Authentication Required
  '3000': 'processing_error', // Processor Network Unavailable – Try Again
};

/** Braintree's gateway rejection reasons (Braintree, "Gateway rejections"). */
const BRAINTREE_REJECTIONS: Readonly<Record<string, DeclineClass>> = {
  three_d_secure: 'authentication_failed',
  cvv: 'card_invalid',
  avs: 'card_invalid',
  avs_and_cvv: 'card_invalid',
  fraud: 'fraud_suspected',
  risk_threshold: 'fraud_suspected',
  excessive_retry: 'do_not_honour',
  token_issuance: 'processing_error',
  application_incomplete: 'processing_error',
};

/** A Braintree processor response's code: '2001' itself, or the start of '2001 Insufficient Funds'. */
function braintreeCodeOf(text: string | null | undefined): string | null {
  const code = text?.trim().match(/^([23]\d{3})\b/)?.[1];
  return code ?? null;
}

/** Outside the table: Braintree's 2000s are declines by the bank, its 3000s network failures. */
function braintreeClassOf(code: string): DeclineClass {
  return BRAINTREE_CODES[code] ?? (code.startsWith('3') ? 'processing_error' : 'unknown');
}

const lookup = (table: Readonly<Record<string, DeclineClass>>, key: string | null | undefined) =>
  key && Object.hasOwn(table, key.trim().toLowerCase()) ? table[key.trim().toLowerCase()] : null;

/** What the codes themselves say, most precise first; null when none is known. */
function classOfCodes(decline: ProviderDecline): DeclineClass | null {
  const braintree =
    braintreeCodeOf(decline.declineCode) ?? braintreeCodeOf(decline.processorResponse);
  return (
    lookup(STRIPE_CODES, decline.declineCode) ??
    lookup(BRAINTREE_REJECTIONS, decline.gatewayRejection) ??
    (braintree ? braintreeClassOf(braintree) : null)
  );
}

/** The classes whose advice offers the same card again. */
const RETRIES_SAME_CARD: ReadonlySet<DeclineClass | null> = new Set([
  'insufficient_funds',
  'authentication_failed',
  'processing_error',
  'unknown',
  null,
]);

/**
 * The class of a decline. Stripe's advice code refines it: 'do_not_try_again' turns a class that
 * invites a retry of the same card into do_not_honour (the issuer said it will not pass);
 * 'try_again_later' and 'confirm_card_data' name the class when the codes alone do not.
 */
export function declineClassOf(decline: ProviderDecline): DeclineClass {
  const byCodes = classOfCodes(decline);
  const advice = decline.adviceCode?.trim().toLowerCase();
  if (advice === 'do_not_try_again') {
    return RETRIES_SAME_CARD.has(byCodes) ? 'do_not_honour' : (byCodes as DeclineClass);
  }
  if (byCodes !== null && byCodes !== 'unknown') return byCodes;
  if (advice === 'try_again_later') return 'processing_error';
  if (advice === 'confirm_card_data') return 'card_invalid';
  return 'unknown';
}
