import type { Currency } from './currency';

/**
 * An amount in cents. Prices are whole cents everywhere so that sums, differences and
 * percentages never drift the way 39.99 - 6.99 does in floating point.
 */
export type Cents = number;

/** '6.99' for 699, '7.00' for 700: the decimal string the plan picker splits at the dot. */
export function decimalString(cents: Cents): string {
  const whole = Math.floor(cents / 100);
  const rest = cents % 100;
  return `${whole}.${String(rest).padStart(2, '0')}`;
}

const formatters = new Map<string, Intl.NumberFormat>();

/**
 * The amount as a visitor of that language reads it: $39.99 in English, 39,99 € in German.
 * Formatting happens on the server; islands receive the finished string.
 */
export function formatMoney(cents: Cents, currency: Currency, language: string): string {
  const key = `${language}|${currency}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat(language, {
      style: 'currency',
      currency,
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
    formatters.set(key, formatter);
  }
  return formatter.format(cents / 100);
}

/**
 * Whether the page language writes the currency sign after the amount ('1,00 $' in Russian,
 * German and French; '$1.00' in English), as formatMoney does: the plan picker's big split price
 * puts its sign on the same side as every other amount on the page.
 */
export function currencySignAfter(currency: Currency, language: string): boolean {
  const parts = new Intl.NumberFormat(language, { style: 'currency', currency }).formatToParts(1);
  const sign = parts.findIndex((part) => part.type === 'currency');
  const number = parts.findIndex((part) => part.type === 'integer');
  return sign > number;
}
