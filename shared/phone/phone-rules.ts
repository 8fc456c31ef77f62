import {
  AsYouType,
  type CountryCode,
  isSupportedCountry,
  type MetadataJson,
  parsePhoneNumberFromString,
} from 'libphonenumber-js/core';

/** Why the phone form refuses a number: nothing typed, or not a number of its country. */
export type PhoneRefusal = 'empty' | 'invalid';

export type PhoneCheck = { e164: string; refusal: null } | { e164: null; refusal: PhoneRefusal };

/** The code when libphonenumber knows the region (a posted form can name anything). */
function knownCountryIn(metadata: MetadataJson, code: string): CountryCode | undefined {
  return isSupportedCountry(code as CountryCode, metadata) ? (code as CountryCode) : undefined;
}

/**
 * The number as the visitor types it, formatted for the chosen country. A number typed with a
 * leading + names its own country, which the field then switches to. Apart from phoneRules: only
 * the landing's form formats as the visitor types, and the worker's bundle leaves the formatter
 * (libphonenumber's AsYouType, about 30 KB) out when nothing it imports names it.
 */
export function formatTyping(
  metadata: MetadataJson,
  input: string,
  country: string,
): { text: string; country: string } {
  const typing = new AsYouType(knownCountryIn(metadata, country), metadata);
  const text = typing.input(input);
  return { text, country: typing.getCountry() ?? country };
}

/**
 * The phone form's rules over a set of libphonenumber metadata: the worker's is the whole 'min'
 * metadata (./phone-number.ts), the landing's the numbering zones it has loaded so far
 * (islands/phone/zone-metadata.ts). One rule, two sources of the same plans.
 */
export function phoneRules(metadata: MetadataJson) {
  const knownCountry = (code: string) => knownCountryIn(metadata, code);

  /**
   * The number in E.164 (+14155550123) when it is valid for the chosen country (or for the
   * country its + prefix names), else null. The 'min' metadata checks length and leading
   * digits, not every digit pattern: enough to refuse typos without shipping the 'max' metadata.
   */
  function toE164(input: string, country: string): string | null {
    if (!/\d/.test(input)) return null;
    const parsed = parsePhoneNumberFromString(
      input,
      { defaultCountry: knownCountry(country) },
      metadata,
    );
    return parsed?.isValid() ? parsed.number : null;
  }

  /**
   * The phone form's one rule (SPEC.md §2 landing), the same for the island's Locate and the
   * worker's no-script post: the number in E.164, or why it is refused.
   */
  function checkPhone(input: string, country: string): PhoneCheck {
    const e164 = toE164(input, country);
    if (e164) return { e164, refusal: null };
    return { e164: null, refusal: input.trim() ? 'invalid' : 'empty' };
  }

  /**
   * An E.164 number as people write it: '+14155550123' → '+1 415 555 0123'. A value the library
   * cannot read is shown as stored rather than hidden.
   */
  function formatInternational(e164: string): string {
    const trimmed = e164.trim();
    if (trimmed === '') return '';
    return parsePhoneNumberFromString(trimmed, metadata)?.formatInternational() ?? trimmed;
  }

  return { knownCountry, toE164, checkPhone, formatInternational };
}
