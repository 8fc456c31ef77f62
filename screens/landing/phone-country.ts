import { type CountryCode, isSupportedCountry } from 'libphonenumber-js/min';

/** Used when the worker could not tell the visitor's country, or libphonenumber does not know it. */
export const FALLBACK_PHONE_COUNTRY: CountryCode = 'US';

/**
 * The country the phone field starts with: the visitor's own (ScreenProps.country, from
 * Cloudflare), so a local number can be typed without its dial code. Decided on the server and
 * handed to the phone island as a prop.
 */
export function defaultPhoneCountry(visitorCountry: string | null | undefined): CountryCode {
  const code = visitorCountry?.toUpperCase();
  return code && isSupportedCountry(code) ? code : FALLBACK_PHONE_COUNTRY;
}
