import { MASTERCARD_NEVER_ADVICE, VISA_NEVER_CODES } from '../../shared/charge-outcome';

/**
 * The card networks' rules on charging a declined card again, as numbers and code lists
 * (docs/payments.md "The retry governor"), each with the source it is taken from.
 * Only these limits: what a decline means for the visitor is shared/decline-class.ts's.
 */

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/**
 * Visa's excessive reattempt rule from 2025-05-19: at most 20 reattempts of one card in 30 days,
 * with one counter for customer-initiated and one for merchant-initiated charges (Checkout.com,
 * "When can I retry a declined transaction"; Visa's fee of $0.10 per excess reattempt).
 */
export const VISA_REATTEMPTS_PER_30_DAYS = 20;

/**
 * Visa's category 1, "issuer will never approve": after one of these response codes no charge
 * of that card may be tried again (TabaPay "Excessive retry rules"; PayPal "Avoid excessive
 * retries penalties"). The list is the charge outcome's, which reads them as HARD.
 */
export const VISA_CATEGORY_1_CODES: ReadonlySet<string> = new Set(VISA_NEVER_CODES);

/**
 * Mastercard's excessive authorization attempts: at most 10 attempts on one card in 24 hours
 * (Checkout.com support; TabaPay "Excessive retry rules").
 */
export const MASTERCARD_ATTEMPTS_PER_24_HOURS = 10;

/** Mastercard's merchant advice code program: at most 35 attempts on one card in 30 days. */
export const MASTERCARD_ATTEMPTS_PER_30_DAYS = 35;

/**
 * Mastercard's merchant advice codes after which the card is never charged again: 03 "do not
 * try again" and 21 "payment cancellation" (Rapyd "Merchant advice codes"; Checkout.com).
 */
export const MASTERCARD_STOP_ADVICE: ReadonlySet<string> = new Set(MASTERCARD_NEVER_ADVICE);

/** Mastercard's short window. */
export const WINDOW_24_HOURS_MS = 24 * HOUR_MS;

/**
 * Both networks' long window, and how long a card's attempts are kept: older ones count for no
 * rule, so a stop (category 1, advice 03/21) lasts as long as its decline is kept.
 */
export const WINDOW_30_DAYS_MS = 30 * DAY_MS;

/**
 * A code as the networks write it: upper case, a one-digit number with its leading zero
 * (`4` is `04`), so a provider's spelling does not slip past the lists above.
 */
export function networkCode(code: string | null | undefined): string | null {
  if (code === null || code === undefined) return null;
  const trimmed = code.trim().toUpperCase();
  if (trimmed === '') return null;
  return /^\d$/.test(trimmed) ? `0${trimmed}` : trimmed;
}
