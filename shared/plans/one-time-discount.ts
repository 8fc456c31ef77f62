import type { Currency } from './currency';
import type { Cents } from './money';

/**
 * SPEC.md §3 discount table: 20 USD and 20 EUR off a one-time purchase. The guide prices of the
 * catalogue (8.99, 17.99) are what the visitor pays, so the discount is read as the difference
 * to the regular price (28.99, 37.99); subtracting it from the catalogue price would go below 0.
 */
export const ONE_TIME_DISCOUNT: Record<Currency, Cents> = { USD: 2000, EUR: 2000 };
