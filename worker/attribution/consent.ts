import type { ConsentState } from '../../shared/analytics/tracking';
import { isConsentAnswer } from '../../shared/consent-cookie';
import { parsedBinding } from '../kept';

/**
 * The consent switch: where consent is required, the ad pixels, the ad cookies and
 * the forwarding of purchases to the ad networks wait for the visitor's yes; the first-party
 * funnel events (our own measurement) count either way.
 *
 * CONSENT_COUNTRIES says where it is required: a comma-separated list of ISO country codes, `*`
 * for everywhere, or empty for nowhere. Unset, it is required in the EEA, the UK and Switzerland.
 */

export { adToolsAllowed } from '../../shared/analytics/tracking';
export { CONSENT_COOKIE, CONSENT_COOKIE_MAX_AGE } from '../../shared/consent-cookie';

/** The EEA, the UK and Switzerland. */
const EEA_UK_CH =
  'AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE IS LI NO GB CH'.split(
    ' ',
  );

export type ConsentRule =
  | { everywhere: true }
  | { everywhere: false; countries: ReadonlySet<string> };

/** CONSENT_COUNTRIES as a rule; parsed once per isolate, not on each page's request. */
export const parseConsentCountries = parsedBinding(function consentRule(
  value: string | undefined,
): ConsentRule {
  if (value === undefined) return { everywhere: false, countries: new Set(EEA_UK_CH) };
  const entries = value
    .split(',')
    .map((entry) => entry.trim().toUpperCase())
    .filter(Boolean);
  if (entries.includes('*')) return { everywhere: true };
  return { everywhere: false, countries: new Set(entries.filter((e) => /^[A-Z]{2}$/.test(e))) };
});

/** The visitor's consent state; an unknown country is treated as one that requires consent. */
export function consentState(
  rule: ConsentRule,
  country: string | null,
  answer: string | undefined,
): ConsentState {
  const required = rule.everywhere || country === null || rule.countries.has(country);
  if (!required) return 'not_required';
  if (isConsentAnswer(answer)) return answer;
  return 'pending';
}
