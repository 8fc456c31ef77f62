import { minorDigits } from '../../../shared/minor-units';
import type { Currency } from '../../../shared/plans/currency';

/**
 * The one currency results add every arm's revenue up in, at fixed rates kept here: a results
 * page must read the same tomorrow, and the worker calls no rate service. The rates are US
 * dollars per unit of each catalogue currency, rounded mid-market rates of the day named below;
 * they only sum revenue for reading ("about $1,234 in all") and never decide a verdict, which
 * compares an arm's revenue in one currency (totals.ts mainCurrency). Update them by editing
 * this table (and the date) when they drift; docs/experiments.md says so.
 */
const REPORTING_CURRENCY = 'USD';
export const REPORTING_RATES_DATE = '2026-11-02';
export const USD_PER_UNIT: Record<Currency, number> = {
  USD: 1,
  EUR: 1.16,
  GBP: 1.32,
  CAD: 0.71,
  AUD: 0.65,
  BRL: 0.19,
  MXN: 0.054,
  INR: 0.0113,
  JPY: 0.0066,
  PLN: 0.27,
  TRY: 0.024,
  CHF: 1.25,
  SEK: 0.105,
};

/** Revenue of every currency, in minor units of the reporting currency (cents). */
export interface ReportedRevenue {
  currency: typeof REPORTING_CURRENCY;
  minor: number;
  ratesDate: string;
  /** Currencies the table has no rate for: left out of `minor`, named so the page can say so. */
  unconverted: string[];
}

/** `byCurrency` (minor units of each currency) summed in US cents at the table's rates. */
export function reportedRevenue(byCurrency: Readonly<Record<string, number>>): ReportedRevenue {
  let dollars = 0;
  const unconverted: string[] = [];
  for (const [currency, minor] of Object.entries(byCurrency)) {
    const rate = Object.hasOwn(USD_PER_UNIT, currency)
      ? USD_PER_UNIT[currency as Currency]
      : undefined;
    const digits = minorDigits(currency);
    if (rate === undefined || digits === null) {
      unconverted.push(currency);
      continue;
    }
    dollars += (minor / 10 ** digits) * rate;
  }
  return {
    currency: REPORTING_CURRENCY,
    minor: Math.round(dollars * 100),
    ratesDate: REPORTING_RATES_DATE,
    unconverted: unconverted.sort(),
  };
}
