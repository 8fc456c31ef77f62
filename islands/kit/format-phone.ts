import { parsePhoneNumberFromString } from 'libphonenumber-js';

/**
 * The stored E.164 number ($map.phone) as people write it: '+14155550123' → '+1 415 555 0123'.
 * A value the library cannot read is shown as stored rather than hidden.
 */
export function formatPhoneForDisplay(e164: string): string {
  const trimmed = e164.trim();
  if (trimmed === '') return '';
  return parsePhoneNumberFromString(trimmed)?.formatInternational() ?? trimmed;
}
