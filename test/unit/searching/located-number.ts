import type { PhoneInfo } from '../../../islands/phone/lookup';

/** The lookup's answer for a US mobile number in Washington. */
export const US_INFO: PhoneInfo = {
  phone: '+12015550123',
  valid: true,
  country: 'US',
  type: 'MOBILE',
  carrier: null,
  city: 'Washington',
  timezone: 'America/New_York',
  location: { lat: 38.9072, lng: -77.0369 },
};

/** Where the worker geocoded "Washington, US" (not quite the lookup's point). */
export const GEOCODED = { lat: 38.8951, lng: -77.0364 };
