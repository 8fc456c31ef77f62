import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { currencyForCountry, EURO_AREA } from '../../../shared/plans/currency';
import { currencySignAfter, decimalString, formatMoney } from '../../../shared/plans/money';

/** Intl separates a trailing symbol with a no-break space; the tests read it as a space. */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

describe('currency by country (EUR in the euro area, USD elsewhere)', () => {
  it.each(['DE', 'FR', 'ES', 'IT', 'NL', 'AT', 'IE', 'HR', 'BG', 'de'])('%s pays in EUR', (c) => {
    expect(currencyForCountry(c)).toBe('EUR');
  });

  it.each(['US', 'GB', 'CH', 'PL', 'SE', 'DK', 'CZ', 'HU', 'RO', 'UA', 'BR', 'JP'])(
    '%s pays in USD',
    (c) => {
      expect(currencyForCountry(c)).toBe('USD');
    },
  );

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

  it('formats in Arabic with Arabic conventions, not English ones', () => {
    const text = formatMoney(3999, 'USD', 'ar');
    expect(text).not.toBe('$39.99');
    expect(text).toMatch(/US\$|\$/);
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
  ] as const)(
    'in %s, %s has its sign after the amount: %s, as formatMoney writes it',
    (language, currency, after) => {
      expect(currencySignAfter(currency, language)).toBe(after);
      const text = plain(formatMoney(100, currency, language));
      expect(/^\d/.test(text)).toBe(after);
    },
  );
});
