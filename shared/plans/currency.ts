/** The two currencies plans are sold in (SPEC.md §3: every plan family has a USD and a EUR entry). */
export const CURRENCIES = ['USD', 'EUR'] as const;
export type Currency = (typeof CURRENCIES)[number];

export const CURRENCY_SYMBOL: Record<Currency, string> = { USD: '$', EUR: '€' };

/**
 * Members of the euro area (ISO 3166-1 alpha-2), Bulgaria included since 1 January 2026.
 * Countries that use the euro without being members (Andorra, Monaco, Montenegro, ...) are not
 * listed: they see USD, as every other country does.
 */
export const EURO_AREA: ReadonlySet<string> = new Set([
  'AT',
  'BE',
  'BG',
  'CY',
  'DE',
  'EE',
  'ES',
  'FI',
  'FR',
  'GR',
  'HR',
  'IE',
  'IT',
  'LT',
  'LU',
  'LV',
  'MT',
  'NL',
  'PT',
  'SI',
  'SK',
]);

/** EUR for a visitor in the euro area, USD for everyone else, unknown countries included. */
export function currencyForCountry(country: string | null | undefined): Currency {
  return country && EURO_AREA.has(country.toUpperCase()) ? 'EUR' : 'USD';
}
