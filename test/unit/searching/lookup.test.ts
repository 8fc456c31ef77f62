import { describe, expect, it } from 'vitest';
import { CAPITALS } from '../../../shared/phone/capitals';
import { lookupPhone, PhoneLookupError } from '../../../islands/phone/lookup';

describe('lookupPhone (the one door to phone data; the portal replaces its body)', () => {
  it('answers with every field the searching screens show', async () => {
    const info = await lookupPhone('+12015550123');
    expect(Object.keys(info).sort()).toEqual(
      ['carrier', 'city', 'country', 'location', 'phone', 'timezone', 'type'].sort(),
    );
    expect(info).toEqual({
      phone: '+12015550123',
      country: 'US',
      type: 'FIXED_LINE_OR_MOBILE',
      carrier: null,
      city: 'Washington',
      timezone: 'America/New_York',
      location: { lat: 38.9072, lng: -77.0369 },
    });
  });

  it('tells mobile numbers apart with the full metadata', async () => {
    const info = await lookupPhone('+447400123456');
    expect(info.country).toBe('GB');
    expect(info.type).toBe('MOBILE');
    expect(info.city).toBe('London');
  });

  it('falls back to the country alone where the table has no place for it', async () => {
    const info = await lookupPhone('+3545511234');
    expect(info.country).toBe('IS');
    expect(info).toMatchObject({ city: null, timezone: null, location: null });
  });

  it('refuses a number that cannot exist, as the portal answers a non-200 (SPEC.md §8)', async () => {
    await expect(lookupPhone('+1201')).rejects.toEqual(new PhoneLookupError('phone_incorrect'));
    await expect(lookupPhone('')).rejects.toBeInstanceOf(PhoneLookupError);
  });

  it('gives a copy of the coordinates, so a caller cannot change the table', async () => {
    const info = await lookupPhone('+12015550123');
    info.location!.lat = 0;
    expect(CAPITALS.US!.location.lat).toBe(38.9072);
  });
});

describe('the capitals table', () => {
  const entries = Object.entries(CAPITALS);

  it('covers the top ~40 countries', () => {
    expect(entries.length).toBeGreaterThanOrEqual(40);
    for (const code of ['US', 'GB', 'DE', 'FR', 'ES', 'BR', 'MX', 'IN', 'JP', 'AU'])
      expect(CAPITALS[code], code).toBeDefined();
  });

  it('names real time zones and coordinates on the globe', () => {
    for (const [code, place] of entries) {
      expect(() => new Intl.DateTimeFormat('en', { timeZone: place.timezone }), code).not.toThrow();
      expect(Math.abs(place.location.lat), code).toBeLessThanOrEqual(90);
      expect(Math.abs(place.location.lng), code).toBeLessThanOrEqual(180);
    }
  });
});
