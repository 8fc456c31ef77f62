import type { MetadataJson } from 'libphonenumber-js/core';
import callingCodes from '../../shared/phone/metadata/calling-codes.json';
import {
  type PhoneZone,
  type ZoneMetadata,
  zoneOfCallingCode,
} from '../../shared/phone/metadata-zones';

/**
 * Each zone's file (shared/phone/metadata/, written by scripts/phone-metadata.ts): Vite copies
 * it into the build under a name of its content. Fetched, not imported: a module that failed to
 * load stays failed under its URL in Chromium, a fetch can be asked again.
 */
const ZONE_URLS: Record<PhoneZone, () => URL> = {
  '1': () => new URL('../../shared/phone/metadata/zone-1.json', import.meta.url),
  '2': () => new URL('../../shared/phone/metadata/zone-2.json', import.meta.url),
  '34': () => new URL('../../shared/phone/metadata/zone-34.json', import.meta.url),
  '5': () => new URL('../../shared/phone/metadata/zone-5.json', import.meta.url),
  '6': () => new URL('../../shared/phone/metadata/zone-6.json', import.meta.url),
  '7': () => new URL('../../shared/phone/metadata/zone-7.json', import.meta.url),
  '8': () => new URL('../../shared/phone/metadata/zone-8.json', import.meta.url),
  '9': () => new URL('../../shared/phone/metadata/zone-9.json', import.meta.url),
};

export type FetchZone = (zone: PhoneZone) => Promise<ZoneMetadata>;

async function fetchZoneFile(zone: PhoneZone): Promise<ZoneMetadata> {
  const response = await fetch(ZONE_URLS[zone]());
  if (!response.ok) throw new Error(`phone metadata zone ${zone}: ${response.status}`);
  return (await response.json()) as ZoneMetadata;
}

/** The zone each country's numbers are in, by its calling code. */
const COUNTRY_ZONES = new Map<string, PhoneZone>();
for (const [code, countries] of Object.entries(callingCodes.country_calling_codes)) {
  const zone = zoneOfCallingCode(code);
  if (zone) for (const country of countries) COUNTRY_ZONES.set(country, zone);
}
const NON_GEOGRAPHIC = new Set(callingCodes.non_geographic);

/**
 * The plans as libphonenumber reads them: a plan read (`countries[code]`) or asked after
 * (`hasOwnProperty`, `in`) that is not here notes its zone in `missed`, unless it has loaded.
 */
function noting<T extends object>(
  plans: T,
  zoneOf: (key: string) => PhoneZone | undefined,
  loaded: ReadonlySet<PhoneZone>,
  missed: Set<PhoneZone>,
): T {
  const note = (target: T, key: string | symbol) => {
    if (typeof key !== 'string' || Object.hasOwn(target, key)) return;
    const zone = zoneOf(key);
    if (zone && !loaded.has(zone)) missed.add(zone);
  };
  return new Proxy(plans, {
    get(target, key) {
      note(target, key);
      return Reflect.get(target, key);
    },
    getOwnPropertyDescriptor(target, key) {
      note(target, key);
      return Reflect.getOwnPropertyDescriptor(target, key);
    },
    has(target, key) {
      note(target, key);
      return Reflect.has(target, key);
    },
  });
}

/** What running a rule over the metadata loaded so far gave: its answer, or the zones it lacked. */
export type Attempt<T> = { value: T; missing: [] } | { value: null; missing: PhoneZone[] };

/**
 * The metadata of the zones loaded so far, as libphonenumber reads it: every calling code, and
 * the numbering plans of the loaded zones. A plan it looks for and does not find names its zone
 * (a proxy over the plans notes the miss), so a rule run with `attempt` says which zones its
 * answer waits for, and `settle` loads them and runs it again. Whatever the library looks up,
 * a + prefix, a country's international prefix, a calling code shared by many countries, ends
 * in the plans it needs: the answer is the one the whole metadata gives.
 */
export function zoneMetadata(fetchZone: FetchZone = fetchZoneFile) {
  const countries: MetadataJson['countries'] = {};
  const nonGeographic: MetadataJson['nonGeographic'] = {};
  const loaded = new Set<PhoneZone>();
  const loading = new Map<PhoneZone, Promise<void>>();
  const missed = new Set<PhoneZone>();
  const metadata: MetadataJson = {
    version: callingCodes.version,
    country_calling_codes:
      callingCodes.country_calling_codes as MetadataJson['country_calling_codes'],
    countries: noting(countries, (country) => COUNTRY_ZONES.get(country), loaded, missed),
    nonGeographic: noting(
      nonGeographic,
      (code) => (NON_GEOGRAPHIC.has(code) ? zoneOfCallingCode(code) : undefined),
      loaded,
      missed,
    ),
  };

  function attempt<T>(rule: (metadata: MetadataJson) => T): Attempt<T> {
    missed.clear();
    let value: T;
    try {
      value = rule(metadata);
    } catch (error) {
      // libphonenumber throws on a plan it has not got ("Unknown country"): a miss, not a fault.
      if (missed.size === 0) throw error;
      return { value: null, missing: [...missed] };
    }
    return missed.size === 0 ? { value, missing: [] } : { value: null, missing: [...missed] };
  }

  /** Loads a zone once; a load that failed is asked again next time. */
  function load(zone: PhoneZone): Promise<void> {
    let pending = loading.get(zone);
    if (!pending) {
      pending = fetchZone(zone).then(
        (plans) => {
          Object.assign(countries, plans.countries);
          Object.assign(nonGeographic, plans.nonGeographic);
          loaded.add(zone);
        },
        (error: unknown) => {
          loading.delete(zone);
          throw error;
        },
      );
      loading.set(zone, pending);
    }
    return pending;
  }

  /** The rule's answer once every zone it needs has loaded; rejects when one could not. */
  async function settle<T>(rule: (metadata: MetadataJson) => T): Promise<T> {
    for (;;) {
      const tried = attempt(rule);
      if (tried.missing.length === 0) return tried.value as T;
      await Promise.all(tried.missing.map(load));
    }
  }

  return { attempt, load, settle, loadedZones: (): readonly PhoneZone[] => [...loaded] };
}
