import { minorDigits } from '../minor-units';
import type { Currency } from './currency';

/**
 * An amount in minor units of its currency (ISO 4217): cents of USD or EUR, pence of GBP, whole
 * yen (JPY has none). Prices are whole minor units everywhere so that sums, differences and
 * percentages never drift the way 39.99 - 6.99 does in floating point.
 */
export type MinorUnits = number;

/** Powers of ten between a currency's minor and major unit: 2 for USD, 0 for JPY. */
function digitsOf(currency: Currency): number {
  return minorDigits(currency) ?? 2;
}

/** Major units (6.99 dollars, 980 yen, as a product API answers) in minor units: 699, 980. */
export function toMinorUnits(major: number, currency: Currency): MinorUnits {
  return Math.round(major * 10 ** digitsOf(currency));
}

/** Minor units in major units, for a product API's `price_with_discount`: 699 USD is 6.99. */
export function toMajorUnits(amount: MinorUnits, currency: Currency): number {
  return amount / 10 ** digitsOf(currency);
}

/**
 * The amount as a decimal string in major units, for the product API and the portal:
 * '6.99' for 699 USD, '7.00' for 700 USD, '980' for 980 JPY.
 */
export function decimalString(amount: MinorUnits, currency: Currency = 'USD'): string {
  const digits = digitsOf(currency);
  if (digits === 0) return String(amount);
  const scale = 10 ** digits;
  const whole = Math.floor(amount / scale);
  const rest = amount % scale;
  return `${whole}.${String(rest).padStart(digits, '0')}`;
}

/**
 * Currencies whose price points are all whole major units (69 kr, ₹349, MX$129): a whole amount
 * reads without ",00", as their stores show it; a per-day figure keeps its decimals.
 */
const WHOLE_PRICED: ReadonlySet<Currency> = new Set(['SEK', 'INR', 'MXN']);

const formatters = new Map<string, Intl.NumberFormat>();

function formatterOf(currency: Currency, language: string): Intl.NumberFormat {
  const key = `${language}|${currency}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    const digits = digitsOf(currency);
    formatter = new Intl.NumberFormat(language, {
      style: 'currency',
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
      ...(WHOLE_PRICED.has(currency) ? { trailingZeroDisplay: 'stripIfInteger' } : {}),
    });
    formatters.set(key, formatter);
  }
  return formatter;
}

const RIGHT_TO_LEFT = new Set(['ar', 'he', 'fa', 'ur']);
/** Unicode first-strong isolate and its end (UAX #9): the text between is laid out on its own. */
const ISOLATE = '\u2068';
const END_ISOLATE = '\u2069';

/**
 * The amount as a visitor of that language reads it, by Intl alone: $39.99 in English,
 * 39,99 € in German, ¥5,800 in yen, "‏6.99 US$" in Arabic. In a right-to-left page the
 * currency part is isolated: unisolated, the "$" of "US$" (a neutral character between the
 * Latin "US" and the end of a right-to-left line) takes the line's direction and moves to the
 * left of "US", so the price read "$US 6.99". Formatting happens on the server; islands receive
 * the finished string.
 */
export function formatMoney(amount: MinorUnits, currency: Currency, language: string): string {
  const formatter = formatterOf(currency, language);
  const value = toMajorUnits(amount, currency);
  if (!RIGHT_TO_LEFT.has(language.split('-')[0] ?? language)) return formatter.format(value);
  return formatter
    .formatToParts(value)
    .map((part) =>
      part.type === 'currency' ? `${ISOLATE}${part.value}${END_ISOLATE}` : part.value,
    )
    .join('');
}

/**
 * The amount in pieces for the plan picker's big price, as Intl's formatToParts gives them, so
 * the sign, its side, its spacing and the digits are the language's own (never a symbol glued to
 * a number formatted for another language): `lead` (sign or number before the whole part, with
 * its spacing and direction marks), `whole` (grouped), `fraction` (empty for yen) and `trail`
 * (a sign written after the amount); `text` is the whole as formatMoney writes it.
 */
export interface MoneyParts {
  text: string;
  lead: string;
  whole: string;
  fraction: string;
  trail: string;
}

export function moneyParts(amount: MinorUnits, currency: Currency, language: string): MoneyParts {
  const parts = formatterOf(currency, language).formatToParts(toMajorUnits(amount, currency));
  const firstDigit = parts.findIndex((part) => part.type === 'integer');
  let last = parts.length - 1;
  while (last > firstDigit && !isNumberPart(parts[last]?.type)) last--;
  const text = (from: number, to: number, keep: (type: string) => boolean = () => true) =>
    parts
      .slice(from, to)
      .filter((part) => keep(part.type))
      .map((part) => part.value)
      .join('');
  return {
    text: formatMoney(amount, currency, language),
    lead: sign(text(0, firstDigit)),
    whole: text(firstDigit, last + 1, (type) => type === 'integer' || type === 'group'),
    fraction: text(firstDigit, last + 1, (type) => type === 'fraction'),
    trail: sign(text(last + 1, parts.length)),
  };
}

/** A sign without the direction marks and spacing around it: the picker places it itself. */
function sign(text: string): string {
  return text.replace(/[\u200e\u200f\u061c]/g, '').trim();
}

function isNumberPart(type: string | undefined): boolean {
  return type === 'integer' || type === 'group' || type === 'decimal' || type === 'fraction';
}
