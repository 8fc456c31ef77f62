import type { Coordinates } from '../api/contract';

export interface RepresentativePlace {
  city: string;
  /** IANA time zone. */
  timezone: string;
  location: Coordinates;
}

/**
 * A representative place per country (its capital) for the most common visitor countries: the
 * embedded portal's phone lookup answers with it, since the phone library knows a number's
 * country but not its city or time zone. City names are data, like carrier names.
 */
export const CAPITALS: Readonly<Record<string, RepresentativePlace>> = {
  US: {
    city: 'Washington',
    timezone: 'America/New_York',
    location: { lat: 38.9072, lng: -77.0369 },
  },
  CA: { city: 'Ottawa', timezone: 'America/Toronto', location: { lat: 45.4215, lng: -75.6972 } },
  MX: {
    city: 'Mexico City',
    timezone: 'America/Mexico_City',
    location: { lat: 19.4326, lng: -99.1332 },
  },
  BR: {
    city: 'Brasília',
    timezone: 'America/Sao_Paulo',
    location: { lat: -15.7939, lng: -47.8828 },
  },
  AR: {
    city: 'Buenos Aires',
    timezone: 'America/Argentina/Buenos_Aires',
    location: { lat: -34.6037, lng: -58.3816 },
  },
  CO: { city: 'Bogotá', timezone: 'America/Bogota', location: { lat: 4.711, lng: -74.0721 } },
  CL: {
    city: 'Santiago',
    timezone: 'America/Santiago',
    location: { lat: -33.4489, lng: -70.6693 },
  },
  PE: { city: 'Lima', timezone: 'America/Lima', location: { lat: -12.0464, lng: -77.0428 } },
  GB: { city: 'London', timezone: 'Europe/London', location: { lat: 51.5074, lng: -0.1278 } },
  IE: { city: 'Dublin', timezone: 'Europe/Dublin', location: { lat: 53.3498, lng: -6.2603 } },
  FR: { city: 'Paris', timezone: 'Europe/Paris', location: { lat: 48.8566, lng: 2.3522 } },
  DE: { city: 'Berlin', timezone: 'Europe/Berlin', location: { lat: 52.52, lng: 13.405 } },
  ES: { city: 'Madrid', timezone: 'Europe/Madrid', location: { lat: 40.4168, lng: -3.7038 } },
  IT: { city: 'Rome', timezone: 'Europe/Rome', location: { lat: 41.9028, lng: 12.4964 } },
  PT: { city: 'Lisbon', timezone: 'Europe/Lisbon', location: { lat: 38.7223, lng: -9.1393 } },
  NL: { city: 'Amsterdam', timezone: 'Europe/Amsterdam', location: { lat: 52.3676, lng: 4.9041 } },
  BE: { city: 'Brussels', timezone: 'Europe/Brussels', location: { lat: 50.8503, lng: 4.3517 } },
  CH: { city: 'Bern', timezone: 'Europe/Zurich', location: { lat: 46.948, lng: 7.4474 } },
  AT: { city: 'Vienna', timezone: 'Europe/Vienna', location: { lat: 48.2082, lng: 16.3738 } },
  SE: { city: 'Stockholm', timezone: 'Europe/Stockholm', location: { lat: 59.3293, lng: 18.0686 } },
  NO: { city: 'Oslo', timezone: 'Europe/Oslo', location: { lat: 59.9139, lng: 10.7522 } },
  DK: {
    city: 'Copenhagen',
    timezone: 'Europe/Copenhagen',
    location: { lat: 55.6761, lng: 12.5683 },
  },
  FI: { city: 'Helsinki', timezone: 'Europe/Helsinki', location: { lat: 60.1699, lng: 24.9384 } },
  PL: { city: 'Warsaw', timezone: 'Europe/Warsaw', location: { lat: 52.2297, lng: 21.0122 } },
  CZ: { city: 'Prague', timezone: 'Europe/Prague', location: { lat: 50.0755, lng: 14.4378 } },
  RO: { city: 'Bucharest', timezone: 'Europe/Bucharest', location: { lat: 44.4268, lng: 26.1025 } },
  GR: { city: 'Athens', timezone: 'Europe/Athens', location: { lat: 37.9838, lng: 23.7275 } },
  TR: { city: 'Ankara', timezone: 'Europe/Istanbul', location: { lat: 39.9334, lng: 32.8597 } },
  UA: { city: 'Kyiv', timezone: 'Europe/Kyiv', location: { lat: 50.4501, lng: 30.5234 } },
  IL: { city: 'Jerusalem', timezone: 'Asia/Jerusalem', location: { lat: 31.7683, lng: 35.2137 } },
  AE: { city: 'Abu Dhabi', timezone: 'Asia/Dubai', location: { lat: 24.4539, lng: 54.3773 } },
  SA: { city: 'Riyadh', timezone: 'Asia/Riyadh', location: { lat: 24.7136, lng: 46.6753 } },
  EG: { city: 'Cairo', timezone: 'Africa/Cairo', location: { lat: 30.0444, lng: 31.2357 } },
  ZA: {
    city: 'Pretoria',
    timezone: 'Africa/Johannesburg',
    location: { lat: -25.7479, lng: 28.2293 },
  },
  NG: { city: 'Abuja', timezone: 'Africa/Lagos', location: { lat: 9.0765, lng: 7.3986 } },
  KE: { city: 'Nairobi', timezone: 'Africa/Nairobi', location: { lat: -1.2921, lng: 36.8219 } },
  IN: { city: 'New Delhi', timezone: 'Asia/Kolkata', location: { lat: 28.6139, lng: 77.209 } },
  PK: { city: 'Islamabad', timezone: 'Asia/Karachi', location: { lat: 33.6844, lng: 73.0479 } },
  BD: { city: 'Dhaka', timezone: 'Asia/Dhaka', location: { lat: 23.8103, lng: 90.4125 } },
  CN: { city: 'Beijing', timezone: 'Asia/Shanghai', location: { lat: 39.9042, lng: 116.4074 } },
  JP: { city: 'Tokyo', timezone: 'Asia/Tokyo', location: { lat: 35.6762, lng: 139.6503 } },
  KR: { city: 'Seoul', timezone: 'Asia/Seoul', location: { lat: 37.5665, lng: 126.978 } },
  ID: { city: 'Jakarta', timezone: 'Asia/Jakarta', location: { lat: -6.2088, lng: 106.8456 } },
  PH: { city: 'Manila', timezone: 'Asia/Manila', location: { lat: 14.5995, lng: 120.9842 } },
  VN: { city: 'Hanoi', timezone: 'Asia/Ho_Chi_Minh', location: { lat: 21.0278, lng: 105.8342 } },
  TH: { city: 'Bangkok', timezone: 'Asia/Bangkok', location: { lat: 13.7563, lng: 100.5018 } },
  MY: {
    city: 'Kuala Lumpur',
    timezone: 'Asia/Kuala_Lumpur',
    location: { lat: 3.139, lng: 101.6869 },
  },
  SG: { city: 'Singapore', timezone: 'Asia/Singapore', location: { lat: 1.3521, lng: 103.8198 } },
  AU: { city: 'Canberra', timezone: 'Australia/Sydney', location: { lat: -35.2809, lng: 149.13 } },
  NZ: {
    city: 'Wellington',
    timezone: 'Pacific/Auckland',
    location: { lat: -41.2865, lng: 174.7762 },
  },
};
