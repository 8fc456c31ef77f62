import { checkPhone, formatInternational, knownCountry, type PhoneRefusal } from './phone-number';

/**
 * The landing's phone form posted without script (before hydration, or with JavaScript off),
 * refused by the worker: the page comes back with what was typed, the chosen country and why.
 */
export interface RefusedPhone {
  value: string;
  country: string;
  refusal: PhoneRefusal;
}

/**
 * A number the worker accepted from that post, handed to the next screen: what the island
 * would have put in $map (E.164 and as shown) and the country for onboarding_start.
 */
export interface PostedPhone {
  phone: string;
  phoneDisplay: string;
  country: string;
}

/**
 * The accepted number as the short-lived cookie carries it to the next screen: `GB:+447400123456`.
 * A cookie rather than the URL, as a number in the address would reach the Referer, the
 * tracker's page URL and every ad pixel.
 */
export function encodePostedPhone(e164: string, country: string): string {
  return `${country}:${e164}`;
}

/** The cookie's number, checked again (a cookie is the visitor's to edit), or null. */
export function decodePostedPhone(raw: string | undefined): PostedPhone | null {
  if (!raw) return null;
  const at = raw.indexOf(':');
  const country = knownCountry(raw.slice(0, at));
  if (at === -1 || !country) return null;
  const { e164 } = checkPhone(raw.slice(at + 1), country);
  return e164 === null ? null : { phone: e164, phoneDisplay: formatInternational(e164), country };
}
