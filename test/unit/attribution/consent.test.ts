import { describe, expect, it } from 'vitest';
import {
  adToolsAllowed,
  consentState,
  parseConsentCountries,
} from '../../../worker/attribution/consent';

describe('the consent switch', () => {
  it('by default consent is required in the EEA, the UK and Switzerland, not elsewhere', () => {
    const rule = parseConsentCountries(undefined);
    expect(consentState(rule, 'DE', undefined)).toBe('pending');
    expect(consentState(rule, 'GB', undefined)).toBe('pending');
    expect(consentState(rule, 'CH', undefined)).toBe('pending');
    expect(consentState(rule, 'US', undefined)).toBe('not_required');
  });

  it('a visitor whose country is unknown is asked, as if it required consent', () => {
    expect(consentState(parseConsentCountries(undefined), null, undefined)).toBe('pending');
  });

  it('the answer stored in gf_consent decides; anything else still waits', () => {
    const rule = parseConsentCountries('de, fr');
    expect(consentState(rule, 'FR', 'granted')).toBe('granted');
    expect(consentState(rule, 'FR', 'denied')).toBe('denied');
    expect(consentState(rule, 'FR', 'yes please')).toBe('pending');
    expect(consentState(rule, 'IT', undefined)).toBe('not_required');
  });

  it('`*` asks everywhere, an empty list nowhere (malformed entries are ignored)', () => {
    expect(consentState(parseConsentCountries('*'), 'US', undefined)).toBe('pending');
    expect(consentState(parseConsentCountries(''), 'DE', undefined)).toBe('not_required');
    expect(consentState(parseConsentCountries('Germany,DE'), 'DE', undefined)).toBe('pending');
  });

  it('the ad tools run only without a pending or negative answer', () => {
    expect(adToolsAllowed('not_required')).toBe(true);
    expect(adToolsAllowed('granted')).toBe(true);
    expect(adToolsAllowed('pending')).toBe(false);
    expect(adToolsAllowed('denied')).toBe(false);
  });
});
