import metadata from 'libphonenumber-js/min/metadata';
import { describe, expect, it } from 'vitest';
import { countryOptions, optionText } from '../../../islands/phone/country-options';
import {
  defaultPhoneCountry,
  FALLBACK_PHONE_COUNTRY,
} from '../../../screens/landing/phone-country';
import { formatInternational, toE164 } from '../../../shared/phone/phone-number';
import { formatTyping } from '../../../shared/phone/phone-rules';

describe('phone number validation and E.164 (SPEC.md §2 landing phone field)', () => {
  it('turns a valid local number into E.164 for the chosen country', () => {
    expect(toE164('(201) 555-0123', 'US')).toBe('+12015550123');
    expect(toE164('030 123456789', 'DE')).toBe('+4930123456789');
    expect(toE164('07400 123456', 'GB')).toBe('+447400123456');
  });

  it('takes a number typed with + as its own country, whatever is selected', () => {
    expect(toE164('+44 7400 123456', 'US')).toBe('+447400123456');
  });

  it('refuses numbers that are too short, too long, empty or not numbers', () => {
    expect(toE164('12345', 'US')).toBeNull();
    expect(toE164('2015550123456789', 'US')).toBeNull();
    expect(toE164('', 'US')).toBeNull();
    expect(toE164('call me', 'US')).toBeNull();
  });

  it('refuses a number that is valid elsewhere but not for the chosen country', () => {
    expect(toE164('030 123456789', 'DE')).toBe('+4930123456789');
    expect(toE164('030 123456789', 'US')).toBeNull();
    // US area codes never start with 0.
    expect(toE164('0015550123', 'US')).toBeNull();
  });

  it('formats as the visitor types, and follows a + prefix to its country', () => {
    expect(formatTyping(metadata, '2015550123', 'US')).toEqual({
      text: '(201) 555-0123',
      country: 'US',
    });
    expect(formatTyping(metadata, '201555', 'US').text).toBe('(201) 555');
    expect(formatTyping(metadata, '+4930123456', 'US').country).toBe('DE');
  });
});

describe('country default (SPEC.md §2: the visitor’s country, else US)', () => {
  it('uses the visitor’s country when libphonenumber knows it', () => {
    expect(defaultPhoneCountry('DE')).toBe('DE');
    expect(defaultPhoneCountry('gb')).toBe('GB');
  });

  it('falls back to US when the country is unknown', () => {
    expect(FALLBACK_PHONE_COUNTRY).toBe('US');
    expect(defaultPhoneCountry(null)).toBe('US');
    expect(defaultPhoneCountry('ZZ')).toBe('US');
  });
});

describe('country list', () => {
  it('lists every region libphonenumber knows, with names in the page language and dial codes', () => {
    const english = countryOptions('en');
    expect(english.length).toBeGreaterThan(240);
    expect(english.find((option) => option.code === 'DE')).toEqual({
      code: 'DE',
      name: 'Germany',
      dial: '49',
    });
    const german = countryOptions('de');
    expect(german.find((option) => option.code === 'DE')?.name).toBe('Deutschland');
  });

  it('is sorted by name for a reader of the page language', () => {
    const names = countryOptions('en').map((option) => option.name);
    expect(names).toEqual([...names].sort(new Intl.Collator('en').compare));
  });

  it('shows the dial code in each option', () => {
    expect(optionText({ code: 'US', name: 'United States', dial: '1' })).toBe('United States (+1)');
  });
});

describe('formatInternational', () => {
  it.each([
    ['+14155550123', '+1 415 555 0123'],
    ['+447911123456', '+44 7911 123456'],
  ])('shows %s as %s', (stored, shown) => {
    expect(formatInternational(stored)).toBe(shown);
  });

  it('shows a value it cannot read as stored, and nothing for nothing', () => {
    expect(formatInternational('12')).toBe('12');
    expect(formatInternational('  ')).toBe('');
  });
});
