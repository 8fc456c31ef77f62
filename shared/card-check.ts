/**
 * The checks a card form makes as the visitor types, before anything is sent: the number by the
 * Luhn check and its network's length, the expiry not yet passed, the CVV's length by network
 * (4 digits for American Express). Pure; the test gateway's frame runs them on every keystroke
 * and its tokenization runs the same number and CVV rules (portal/test-gateway/test-cards.ts).
 */

import type { CardFieldProblem, CardFieldProblems } from './card-field-problems';

interface Network {
  brand: string;
  prefix: RegExp;
  lengths: readonly number[];
  cvv: number;
}

/** The networks by prefix, as processors name them; the last one stands for any other card. */
const NETWORKS: readonly Network[] = [
  { brand: 'amex', prefix: /^3[47]/, lengths: [15], cvv: 4 },
  { brand: 'visa', prefix: /^4/, lengths: [13, 16, 19], cvv: 3 },
  { brand: 'mastercard', prefix: /^(5[1-5]|2[2-7])/, lengths: [16], cvv: 3 },
  { brand: 'discover', prefix: /^6(011|5|4[4-9])/, lengths: [16, 19], cvv: 3 },
  { brand: 'unknown', prefix: /^/, lengths: [12, 13, 14, 15, 16, 17, 18, 19], cvv: 3 },
];

function networkOf(digits: string): Network {
  return NETWORKS.find((network) => network.prefix.test(digits)) as Network;
}

/** The card network of a number's digits: 'visa', 'mastercard', 'amex', 'discover', 'unknown'. */
export function brandOf(digits: string): string {
  return networkOf(digits).brand;
}

/** Luhn (mod 10) check of a string of digits. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

const digitsOf = (text: string) => text.replace(/\D/g, '');

/** The number as typed, spaced as printed on the card (4-6-5 for American Express). */
export function formatCardNumber(text: string): string {
  const digits = digitsOf(text).slice(0, 19);
  const groups = networkOf(digits).brand === 'amex' ? [4, 6, 5] : [4, 4, 4, 4, 3];
  const parts: string[] = [];
  let at = 0;
  for (const size of groups) {
    if (at >= digits.length) break;
    parts.push(digits.slice(at, at + size));
    at += size;
  }
  return parts.join(' ');
}

/** 'MM/YY' as typed: a slash after the month, a lone first digit above 1 read as '0d'. */
export function formatExpiry(text: string): string {
  let digits = digitsOf(text).slice(0, 4);
  if (/^[2-9]$/.test(digits)) digits = `0${digits}`;
  return digits.length > 2 ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;
}

function numberProblem(text: string): CardFieldProblem | null {
  const digits = digitsOf(text);
  if (!digits) return 'empty';
  const { lengths } = networkOf(digits);
  const longest = Math.max(...lengths);
  if (digits.length > longest) return 'invalid';
  if (!lengths.includes(digits.length)) return digits.length < longest ? 'incomplete' : 'invalid';
  if (passesLuhn(digits)) return null;
  // Failing Luhn at 13 digits, a Visa may still be on its way to 16; from 16 it is wrong.
  return digits.length < 16 && digits.length < longest ? 'incomplete' : 'invalid';
}

/** `today` decides what has passed: a card is good through the last day of its month. */
function expiryProblem(text: string, today: Date): CardFieldProblem | null {
  const digits = digitsOf(text);
  if (!digits) return 'empty';
  if (digits.length < 4) return 'incomplete';
  const month = Number(digits.slice(0, 2));
  if (month < 1 || month > 12) return 'invalid';
  const year = 2000 + Number(digits.slice(2, 4));
  if (year * 12 + month - 1 < today.getFullYear() * 12 + today.getMonth()) return 'past';
  return year > today.getFullYear() + 50 ? 'invalid' : null;
}

function cvvProblem(text: string, number: string): CardFieldProblem | null {
  const digits = digitsOf(text);
  if (!digits) return 'empty';
  const length = networkOf(digitsOf(number)).cvv;
  if (digits.length < length) return 'incomplete';
  return digits.length > length ? 'invalid' : null;
}

/** What is wrong with each field of a card as typed, on `today` in the visitor's time. */
export function cardProblems(
  card: { number: string; expiry: string; cvv: string },
  today: Date,
): CardFieldProblems {
  return {
    number: numberProblem(card.number),
    expiry: expiryProblem(card.expiry, today),
    cvv: cvvProblem(card.cvv, card.number),
  };
}

/** The CVV's length for the network of the number typed so far. */
export function cvvLengthOf(number: string): number {
  return networkOf(digitsOf(number)).cvv;
}
