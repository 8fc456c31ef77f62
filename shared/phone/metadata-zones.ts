import type { MetadataJson } from 'libphonenumber-js/core';

/**
 * The phone metadata cut by world numbering zone (ITU-T E.164: a calling code's first digit
 * names its region: 1 North America, 2 Africa, 3 and 4 Europe, 5 Central and South America,
 * 6 South-East Asia and Oceania, 7 Russia and Kazakhstan, 8 East Asia and the non-geographic
 * services, 9 West, Central and South Asia). A zone holds a country and the neighbours whose
 * numbers its visitors most often type, so the landing's phone form loads the visitor's zone
 * and asks for another only when a number names it. Europe's two zones are one file: its
 * countries border each other across them (Germany +49 and France +33).
 */
export const PHONE_ZONES = ['1', '2', '34', '5', '6', '7', '8', '9'] as const;
export type PhoneZone = (typeof PHONE_ZONES)[number];

/** The zone of a calling code ('44' → '34'), or undefined for no calling code. */
export function zoneOfCallingCode(callingCode: string): PhoneZone | undefined {
  const digit = callingCode[0];
  return PHONE_ZONES.find((zone) => digit !== undefined && zone.includes(digit));
}

/**
 * What the phone form holds before any zone: the calling codes with their countries (the first
 * the code's main country, as libphonenumber orders them) and the non-geographic codes.
 */
export interface CallingCodes {
  version: MetadataJson['version'];
  country_calling_codes: MetadataJson['country_calling_codes'];
  non_geographic: string[];
}

/** One zone's numbering plans, merged into the calling codes as they arrive. */
export interface ZoneMetadata {
  countries: MetadataJson['countries'];
  nonGeographic: NonNullable<MetadataJson['nonGeographic']>;
}

export function callingCodesOf(metadata: MetadataJson): CallingCodes {
  return {
    version: metadata.version,
    country_calling_codes: metadata.country_calling_codes,
    non_geographic: Object.keys(metadata.nonGeographic ?? {}),
  };
}

/** Each zone's part of the metadata: every country and non-geographic plan in it, as given. */
export function zonesOf(metadata: MetadataJson): Record<PhoneZone, ZoneMetadata> {
  const zones = Object.fromEntries(
    PHONE_ZONES.map((zone) => [zone, { countries: {}, nonGeographic: {} }]),
  ) as Record<PhoneZone, ZoneMetadata>;
  for (const [callingCode, countries] of Object.entries(metadata.country_calling_codes)) {
    const zone = zoneOfCallingCode(callingCode);
    if (zone === undefined) continue;
    for (const country of countries) {
      const plan = metadata.countries[country];
      if (plan) zones[zone].countries[country] = plan;
    }
  }
  // The non-geographic codes (+800 freephone, +882 networks) are no country's.
  for (const [callingCode, service] of Object.entries(metadata.nonGeographic ?? {})) {
    const zone = zoneOfCallingCode(callingCode);
    if (zone !== undefined) zones[zone].nonGeographic[callingCode] = service;
  }
  return zones;
}
