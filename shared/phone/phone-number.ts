import metadata from 'libphonenumber-js/min/metadata';
import { phoneRules } from './phone-rules';

export type { PhoneRefusal } from './phone-rules';

/**
 * The phone rules (./phone-rules.ts) over the whole 'min' metadata: what the worker checks a
 * posted number with, and every page but the landing's phone form, which loads the metadata by
 * numbering zone (islands/phone/zone-metadata.ts).
 */
export const { knownCountry, toE164, checkPhone, formatInternational } = phoneRules(metadata);
