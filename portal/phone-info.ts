import parsePhoneNumberFromString from 'libphonenumber-js/max';
import { type PhoneInfo, PhonePathParam } from '../shared/api/contract';
import { CAPITALS } from '../shared/phone/capitals';

/**
 * What GET /phone-number-info/{phone} answers about a number (SPEC.md §7), from the phone
 * library's full metadata ('max', which knows line types), or null when the number is not a
 * valid E.164 number. The library knows a number's country but not where its owner is, so the
 * place is the country's capital (shared/phone/capitals.ts); the product API has real data.
 */
export function phoneInfoOf(phone: string): PhoneInfo | null {
  // The shape check first: the library would otherwise dig a number out of arbitrary text.
  if (!PhonePathParam.safeParse(phone).success) return null;
  const parsed = parsePhoneNumberFromString(phone, { extract: false });
  if (!parsed?.isValid()) return null;
  const country = parsed.country ?? null;
  const place = country ? CAPITALS[country] : undefined;
  return {
    phone: parsed.number,
    valid: true,
    country,
    type: parsed.getType() ?? null,
    // The phone library has no carrier data; the product API's lookup does.
    carrier: null,
    city: place?.city ?? null,
    timezone: place?.timezone ?? null,
    location: place ? { ...place.location } : null,
  };
}
