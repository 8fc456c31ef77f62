import * as z from 'zod';
import { type CountryCurrencies, CURRENCIES, isCurrency } from '../plans/currency';
import { COUNTRY_CODES } from '../routing';

/** Every country has a say at most once; more than the world's countries is a mistake. */
const MAX_COUNTRIES = 300;

/**
 * A country→currency table as a marketer writes it in the config: `{ "GB": "GBP", "NO": "EUR" }`.
 * The routing document's `currencies` goes on top of the built-in table
 * (shared/plans/currency.ts DEFAULT_COUNTRY_CURRENCIES), a route's on top of that, and a price
 * test variant's on top of the route's (shared/plans/currency.ts visitorCurrency). Only ISO
 * countries and currencies the catalogue sells in: a plan exists in every one of those, so the
 * page can always show, and the offer gate charge, the plan in the currency chosen. A fault
 * names the country (`routes.0.currencies.UK`).
 */
export const countryCurrencies = z
  .record(z.string(), z.string())
  .superRefine((table, ctx) => {
    const entries = Object.entries(table);
    if (entries.length > MAX_COUNTRIES) {
      ctx.addIssue({ code: 'custom', message: `must list at most ${MAX_COUNTRIES} countries` });
    }
    for (const [country, currency] of entries) {
      if (!COUNTRY_CODES.includes(country)) {
        ctx.addIssue({
          code: 'custom',
          path: [country],
          message: `"${country}" is not a country code: use ISO 3166-1 alpha-2, upper case (GB, not UK or gb)`,
        });
      } else if (!isCurrency(currency)) {
        ctx.addIssue({
          code: 'custom',
          path: [country],
          message: `"${currency}" is not a currency the catalogue sells in (${CURRENCIES.join(', ')})`,
        });
      }
    }
  })
  .transform((table) => table as CountryCurrencies);
