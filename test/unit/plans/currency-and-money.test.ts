import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PLAN_CATALOGUE } from '../../../shared/plans/catalogue';
import {
  CURRENCIES,
  currencyForCountry,
  DEFAULT_COUNTRY_CURRENCIES,
  EURO_AREA,
} from '../../../shared/plans/currency';
import { decimalString, formatMoney, moneyParts } from '../../../shared/plans/money';

const LANGUAGES = ['en', 'de', 'es', 'fr', 'pt', 'ru', 'ar'] as const;
/** The isolate marks formatMoney puts around a currency sign in a right-to-left language. */
const unisolated = (text: string) => text.replace(/[\u2068\u2069]/g, '');

/** Intl separates a trailing symbol with a no-break space; the tests read it as a space. */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

describe('currency by country (the default table: EUR in the euro area, local where priced)', () => {
  it.each(['DE', 'FR', 'ES', 'IT', 'NL', 'AT', 'IE', 'HR', 'BG', 'de'])('%s pays in EUR', (c) => {
    expect(currencyForCountry(c)).toBe('EUR');
  });

  it.each([
    ['GB', 'GBP'],
    ['CA', 'CAD'],
    ['AU', 'AUD'],
    ['BR', 'BRL'],
    ['MX', 'MXN'],
    ['IN', 'INR'],
    ['JP', 'JPY'],
    ['PL', 'PLN'],
    ['TR', 'TRY'],
    ['CH', 'CHF'],
    ['LI', 'CHF'],
    ['SE', 'SEK'],
    ['gb', 'GBP'],
  ])('%s pays in %s', (country, currency) => {
    expect(currencyForCountry(country)).toBe(currency);
  });

  it('names only currencies the catalogue sells in', () => {
    for (const currency of Object.values(DEFAULT_COUNTRY_CURRENCIES)) {
      expect(CURRENCIES).toContain(currency);
    }
  });

  it('follows a table given in place of the default one', () => {
    expect(currencyForCountry('GB', { GB: 'USD' })).toBe('USD');
    expect(currencyForCountry('DE', { GB: 'USD' })).toBe('USD');
    expect(currencyForCountry('US', { US: 'EUR' })).toBe('EUR');
    expect(currencyForCountry('constructor', {})).toBe('USD');
  });

  it.each(['US', 'DK', 'CZ', 'HU', 'RO', 'UA', 'NO', 'AE', 'ZZ'])('%s pays in USD', (c) => {
    expect(currencyForCountry(c)).toBe('USD');
  });

  it('pays in USD when the country is unknown', () => {
    expect(currencyForCountry(null)).toBe('USD');
    expect(currencyForCountry(undefined)).toBe('USD');
    expect(currencyForCountry('')).toBe('USD');
  });

  it('lists the 21 members of the euro area', () => {
    expect(EURO_AREA.size).toBe(21);
  });
});

describe('money', () => {
  it.each([
    [699, '6.99'],
    [700, '7.00'],
    [3999, '39.99'],
    [5, '0.05'],
    [0, '0.00'],
    [11997, '119.97'],
  ])('%i cents read %s', (cents, decimal) => {
    expect(decimalString(cents)).toBe(decimal);
  });

  it('reads yen, which have no minor unit, as whole yen', () => {
    expect(decimalString(980, 'JPY')).toBe('980');
    expect(decimalString(5800, 'JPY')).toBe('5800');
    expect(decimalString(599, 'GBP')).toBe('5.99');
  });

  it('turns any whole number of cents into a decimal string that reads back the same', () => {
    fc.assert(
      fc.property(fc.nat(10_000_000), (cents) => {
        expect(Math.round(Number(decimalString(cents)) * 100)).toBe(cents);
      }),
    );
  });

  it.each([
    ['en', 'USD', '$39.99'],
    ['en', 'EUR', '€39.99'],
    ['de', 'EUR', '39,99 €'],
    ['de', 'USD', '39,99 $'],
    ['fr', 'EUR', '39,99 €'],
    ['es', 'EUR', '39,99 €'],
    ['pt', 'USD', 'US$ 39,99'],
    ['ru', 'EUR', '39,99 €'],
  ] as const)('in %s, 39.99 %s reads %s', (language, currency, text) => {
    expect(plain(formatMoney(3999, currency, language))).toBe(text);
  });

  it('formats in Arabic as Intl does, the sign isolated so it never reads "$US"', () => {
    const text = formatMoney(699, 'USD', 'ar');
    const intl = new Intl.NumberFormat('ar', { style: 'currency', currency: 'USD' }).format(6.99);
    expect(unisolated(text)).toBe(intl);
    expect(text).toContain('\u2068US$\u2069');
    expect(text).not.toContain('$US');
  });

  it.each([
    ['en', 'JPY', 5800, '¥5,800'],
    ['en', 'GBP', 3499, '£34.99'],
    ['de', 'CHF', 3990, '39,90 CHF'],
    ['en', 'SEK', 39900, 'SEK 399'],
    ['pt', 'BRL', 3490, 'R$ 34,90'],
    ['es', 'MXN', 69900, '699 MXN'],
    ['en', 'INR', 34900, '₹349'],
  ] as const)('in %s, %s %i reads %s', (language, currency, amount, text) => {
    expect(plain(formatMoney(amount, currency, language))).toBe(text);
  });

  it('formats every price of the catalogue in every shipped language as Intl does', () => {
    for (const language of LANGUAGES) {
      for (const plan of PLAN_CATALOGUE) {
        const text = unisolated(formatMoney(plan.price, plan.currency, language));
        expect(text, `${plan.id} ${language}`).toMatch(/\d/);
        expect(text).not.toMatch(/NaN|undefined/);
        // Yen never show decimals; cents always two where the price has them.
        if (plan.currency === 'JPY') expect(text).not.toMatch(/[.,]\d{2}\D*$/);
        // French writes "$US" itself; Arabic must keep Intl's "US$" in its order.
        if (language === 'ar') expect(text).not.toContain('$US');
      }
    }
  });

  it('always shows two decimals', () => {
    expect(formatMoney(700, 'USD', 'en')).toBe('$7.00');
    expect(formatMoney(2000, 'EUR', 'en')).toBe('€20.00');
  });

  it.each([
    ['en', 'USD', false],
    ['en', 'EUR', false],
    ['ru', 'USD', true],
    ['de', 'EUR', true],
    ['fr', 'USD', true],
    ['ar', 'USD', true],
  ] as const)(
    'in %s, %s has its sign after the amount: %s, in the picker as in formatMoney',
    (language, currency, after) => {
      const parts = moneyParts(100, currency, language);
      expect(parts.trail !== '').toBe(after);
      expect(parts.lead !== '').toBe(!after);
      const text = plain(unisolated(formatMoney(100, currency, language))).replace(/\u200f/g, '');
      expect(/^\d/.test(text)).toBe(after);
    },
  );
});
