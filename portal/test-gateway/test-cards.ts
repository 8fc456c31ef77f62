import { brandOf, passesLuhn } from '../../shared/card-check';
import type { CardInputErrorCode } from '../../shared/test-gateway-protocol';

/**
 * The test gateway's cards: the behaviour of Stripe's documented test card numbers,
 * and the checks a card processor makes when it tokenizes card data. Pure: no storage, no clock
 * of its own.
 */

export type CardBehaviour =
  | 'succeeds'
  | 'declines_generic'
  | 'declines_insufficient_funds'
  | 'declines_expired'
  | 'declines_incorrect_cvc'
  | 'declines_lost_card'
  | 'declines_stolen_card'
  | 'declines_processing_error'
  /** Stripe's card "always blocked": Radar's fraudulent, whatever the charge. */
  | 'declines_fraudulent'
  | 'declines_velocity_exceeded'
  /** 3-D Secure on every charge; succeeds once authenticated. */
  | 'requires_authentication'
  /** 3-D Secure on every charge; declined even when authenticated. */
  | 'declines_after_authentication';

/** Stripe's test numbers; any other number that passes the Luhn check succeeds. */
const TEST_CARDS: Readonly<Record<string, CardBehaviour>> = {
  '4242424242424242': 'succeeds',
  '4000000000000002': 'declines_generic',
  '4000000000009995': 'declines_insufficient_funds',
  '4000000000000069': 'declines_expired',
  '4000000000000127': 'declines_incorrect_cvc',
  '4000000000009987': 'declines_lost_card',
  '4000000000009979': 'declines_stolen_card',
  '4000000000000119': 'declines_processing_error',
  '4100000000000019': 'declines_fraudulent',
  '4000000000006975': 'declines_velocity_exceeded',
  '4000002760003184': 'requires_authentication',
  '4000008400001629': 'declines_after_authentication',
};

function behaviourOfNumber(number: string): CardBehaviour {
  return TEST_CARDS[number] ?? 'succeeds';
}

export function needsAuthentication(behaviour: CardBehaviour): boolean {
  return behaviour === 'requires_authentication' || behaviour === 'declines_after_authentication';
}

export interface CardInput {
  number: string;
  exp_month: number;
  exp_year: number;
  cvc: string;
}

export interface AcceptedCard {
  ok: true;
  brand: string;
  last4: string;
  behaviour: CardBehaviour;
  /** The digits, for the fingerprint only; never stored. */
  number: string;
}

export interface RefusedCard {
  ok: false;
  code: CardInputErrorCode;
  message: string;
}

/**
 * Checks card data as a processor does at tokenization: a Luhn-valid number of 12 to 19 digits
 * (spaces and dashes ignored), an expiry month that has not passed (`today` in UTC), and a CVC
 * of 3 digits (4 for American Express). Any future expiry and any CVC value pass, as at Stripe.
 */
export function checkCard(card: CardInput, today: Date): AcceptedCard | RefusedCard {
  const number = card.number.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(number) || !passesLuhn(number)) {
    return refused('incorrect_number', 'Your card number is incorrect.');
  }
  if (!Number.isInteger(card.exp_month) || card.exp_month < 1 || card.exp_month > 12) {
    return refused('invalid_expiry_month', "Your card's expiration month is invalid.");
  }
  const year = card.exp_year < 100 ? 2000 + card.exp_year : card.exp_year;
  if (!Number.isInteger(year) || year > today.getUTCFullYear() + 50) {
    return refused('invalid_expiry_year', "Your card's expiration year is invalid.");
  }
  // A card is valid through the last day of its expiry month.
  const thisMonth = today.getUTCFullYear() * 12 + today.getUTCMonth();
  if (year * 12 + (card.exp_month - 1) < thisMonth) {
    return refused('invalid_expiry_year', "Your card's expiration date is invalid.");
  }
  const brand = brandOf(number);
  const cvcLength = brand === 'amex' ? 4 : 3;
  if (!new RegExp(`^\\d{${cvcLength}}$`).test(card.cvc.trim())) {
    return refused('invalid_cvc', "Your card's security code is invalid.");
  }
  return {
    ok: true,
    brand,
    last4: number.slice(-4),
    behaviour: behaviourOfNumber(number),
    number,
  };
}

/**
 * What Stripe's `card.fingerprint` is to a card: the same for every tokenization of one number,
 * and not the number. Here SHA-256 of the digits, cut to Stripe's 16 characters.
 */
export async function cardFingerprintOf(number: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(number));
  const hex = [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0'));
  return hex.join('').slice(0, 16);
}

function refused(code: CardInputErrorCode, message: string): RefusedCard {
  return { ok: false, code, message };
}
