import { CAPITALS } from '../../shared/phone/capitals';
import type { Coordinates } from './geo-offset';

/** What the searching screens show about a located number (SPEC.md §2: carrier, country, timezone, city, location). */
export type PhoneInfo = {
  /** The number looked up, E.164. */
  phone: string;
  /** ISO country of the number, or null when its prefix names none (e.g. +800). */
  country: string | null;
  /** libphonenumber's number type (MOBILE, FIXED_LINE, ...), or null when unknown. */
  type: string | null;
  /** Network operator; only the portal knows it. */
  carrier: string | null;
  city: string | null;
  /** IANA time zone. */
  timezone: string | null;
  location: Coordinates | null;
};

/** SPEC.md §8 Phone and map: the two ways a lookup fails, each shown with its own text. */
export type PhoneLookupErrorCode = 'phone_incorrect' | 'lookup_failed';

export class PhoneLookupError extends Error {
  constructor(readonly code: PhoneLookupErrorCode) {
    super(code);
    this.name = 'PhoneLookupError';
  }
}

/**
 * The one door to phone data for the searching screens.
 *
 * Until the portal issue lands, the body derives what it can on the device: country and number
 * type from libphonenumber-js ('max' metadata, loaded only here, after the screen has shown),
 * and a representative city, time zone and coordinates from the capitals table. The portal
 * issue replaces this body with GET /api/phone-number-info/{phone} (SPEC.md §7), mapping a
 * non-200 answer to PhoneLookupError('phone_incorrect') and a thrown fetch to 'lookup_failed'
 * (SPEC.md §5, §8); callers stay as they are.
 */
export async function lookupPhone(e164: string): Promise<PhoneInfo> {
  let parse: typeof import('libphonenumber-js/max').parsePhoneNumberFromString;
  try {
    ({ parsePhoneNumberFromString: parse } = await import('libphonenumber-js/max'));
  } catch {
    throw new PhoneLookupError('lookup_failed');
  }
  const parsed = parse(e164);
  if (!parsed?.isPossible()) throw new PhoneLookupError('phone_incorrect');
  const country = parsed.country ?? null;
  const place = country ? CAPITALS[country] : undefined;
  return {
    phone: parsed.number,
    country,
    type: parsed.getType() ?? null,
    carrier: null,
    city: place?.city ?? null,
    timezone: place?.timezone ?? null,
    location: place ? { ...place.location } : null,
  };
}
