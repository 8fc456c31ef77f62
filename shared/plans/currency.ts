import { EU_MEMBER_STATES } from '../eu-countries';
import { oneOf } from '../one-of';

/**
 * The currencies plans are sold in: each family of the catalogue has a price point in every one
 * (shared/plans/price-points.ts). SPEC.md §3 names USD and EUR; the others let a visitor pay in
 * the money of their country.
 */
export const CURRENCIES = [
  'USD',
  'EUR',
  'GBP',
  'CAD',
  'AUD',
  'BRL',
  'MXN',
  'INR',
  'JPY',
  'PLN',
  'TRY',
  'CHF',
  'SEK',
] as const;
export type Currency = (typeof CURRENCIES)[number];

export const isCurrency = oneOf(CURRENCIES);

/**
 * The EU's member states that keep their own money: Denmark by its opt-out, the others until they
 * adopt the euro. A state that joins the EU starts here too.
 */
const EU_STATES_OUTSIDE_THE_EURO: ReadonlySet<string> = new Set([
  'CZ',
  'DK',
  'HU',
  'PL',
  'RO',
  'SE',
]);

/**
 * Members of the euro area (Bulgaria since 1 January 2026): the EU's member states
 * (../eu-countries.ts) less those above, so the two lists cannot disagree. Countries that use the
 * euro without being members (Andorra, Monaco, Montenegro, ...) are not listed: they see USD, as
 * every other country does.
 */
export const EURO_AREA: ReadonlySet<string> = new Set(
  EU_MEMBER_STATES.filter((country) => !EU_STATES_OUTSIDE_THE_EURO.has(country)),
);

/** A country (ISO 3166-1 alpha-2, upper case) and the currency its visitors pay in. */
export type CountryCurrencies = Readonly<Record<string, Currency>>;

/**
 * Who pays in what when the config names nothing: the euro area in EUR, the countries with a
 * price point of their own in it, everyone else (unknown countries too) in USD. A marketer's
 * `currencies` in the routing config, a route's or a price test variant's, go on top
 * (worker/funnel/locale.ts).
 */
export const DEFAULT_COUNTRY_CURRENCIES: CountryCurrencies = {
  ...Object.fromEntries([...EURO_AREA].map((country) => [country, 'EUR' as const])),
  GB: 'GBP',
  CA: 'CAD',
  AU: 'AUD',
  BR: 'BRL',
  MX: 'MXN',
  IN: 'INR',
  JP: 'JPY',
  PL: 'PLN',
  TR: 'TRY',
  CH: 'CHF',
  LI: 'CHF',
  SE: 'SEK',
};

/**
 * The currency a visitor from `country` pays in by `table` (the default table unless a
 * marketer's applies), USD for a country the table does not name or an unknown one.
 */
export function currencyForCountry(
  country: string | null | undefined,
  table: CountryCurrencies = DEFAULT_COUNTRY_CURRENCIES,
): Currency {
  if (!country) return 'USD';
  const code = country.toUpperCase();
  return Object.hasOwn(table, code) ? (table[code] ?? 'USD') : 'USD';
}

/**
 * The table a visitor's currency is read from: the built-in one, with the routing config's
 * `currencies` on top, then their route's, then their price test variants' (each names only the
 * countries it changes). Later tables win country by country.
 */
export function currencyTable(
  ...tables: readonly (CountryCurrencies | null | undefined)[]
): CountryCurrencies {
  return Object.assign({}, DEFAULT_COUNTRY_CURRENCIES, ...tables.filter(Boolean));
}

/** A document that may name currencies by country: the routing config, a route, a price test's shape. */
interface NamesCurrencies {
  currencies?: CountryCurrencies | null | undefined;
}

/**
 * The currency a visitor pays in: their country (worker/request/visit-facts.ts country) read in the
 * built-in table with the routing config's `currencies` on top, then the route's and their price
 * test variants' (`shape.currencies`, merged in that order by
 * worker/funnel/flow.ts). The screens show prices in it and the offer gate
 * charges only plans in it, from the same call, so the two never disagree.
 */
export function visitorCurrency(
  routing: NamesCurrencies,
  shape: NamesCurrencies,
  country: string | null,
): Currency {
  return currencyForCountry(country, currencyTable(routing.currencies, shape.currencies));
}
