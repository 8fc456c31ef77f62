import type { PhoneInfoResponse } from '../../shared/api/contract';

/**
 * What a product API knowing more than the emulator answers for a Manchester number: the city,
 * and a point of its own that is neither Manchester's nor the capital's.
 */
export const MANCHESTER_NUMBER: PhoneInfoResponse = {
  data: {
    phone: '+447400123456',
    valid: true,
    country: 'GB',
    type: 'MOBILE',
    carrier: null,
    city: 'Manchester',
    timezone: 'Europe/London',
    location: { lat: 52, lng: -1 },
  },
};
