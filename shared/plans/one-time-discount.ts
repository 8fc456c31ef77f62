import type { Currency } from './currency';
import type { MinorUnits } from './money';

/**
 * SPEC.md §3 discount table: 20 USD and 20 EUR off a one-time purchase, and a round local sum of
 * about as much in the other currencies. The guide prices of the catalogue (8.99, 17.99) are what
 * the visitor pays, so the discount is read as the difference to the regular price (28.99,
 * 37.99); subtracting it from the catalogue price would go below 0.
 */
export const ONE_TIME_DISCOUNT: Record<Currency, MinorUnits> = {
  USD: 2000,
  EUR: 2000,
  GBP: 1500,
  CAD: 2500,
  AUD: 3000,
  BRL: 10000,
  MXN: 35000,
  INR: 150000,
  JPY: 3000,
  PLN: 8000,
  TRY: 80000,
  CHF: 2000,
  SEK: 20000,
};
