import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import { PhoneInfoResponse } from '../../../shared/api/contract';
import { apiPath } from '../../../shared/api/paths';
import { callPortal, failureOf } from './portal-client';

function lookUp(phone: string) {
  return callPortal(apiPath('/phone-number-info/:phone', { phone }));
}

function lookupsOf(phone: string) {
  return env.PORTAL_DB.prepare(
    'SELECT valid, country, consent_sms_at FROM phone_lookups WHERE phone = ?',
  )
    .bind(phone)
    .all();
}

describe('GET /phone-number-info/{phone}', () => {
  it('answers a valid number’s country, line type and its capital’s place', async () => {
    const response = await lookUp('+447400123456');
    expect(response.status).toBe(200);
    expect(PhoneInfoResponse.parse(await response.json()).data).toEqual({
      phone: '+447400123456',
      valid: true,
      country: 'GB',
      type: 'MOBILE',
      carrier: null,
      city: 'London',
      timezone: 'Europe/London',
      location: { lat: expect.closeTo(51.5, 0) as number, lng: expect.closeTo(-0.1, 0) as number },
    });
  });

  it('answers null place fields for a country outside the capitals table', async () => {
    // +800: an international freephone number belongs to no country.
    const response = await lookUp('+80012345678');
    expect(response.status).toBe(200);
    const { data } = PhoneInfoResponse.parse(await response.json());
    expect(data).toMatchObject({ country: null, city: null, timezone: null, location: null });
  });

  it('records the consent SMS the product would send to the located person (SPEC.md §6)', async () => {
    const before = Date.now();
    await lookUp('+12025550143');
    const { results } = await lookupsOf('+12025550143');
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ valid: 1, country: 'US' });
    const sentAt = Date.parse(String(results[0]?.consent_sms_at));
    expect(sentAt).toBeGreaterThanOrEqual(before - 1000);
    expect(sentAt).toBeLessThanOrEqual(Date.now());
  });

  it.each([
    ['too short for its country', '+4479111'],
    ['not a number', 'hello'],
    ['without the + of E.164', '447911123456'],
    ['an unassigned prefix', '+99912345678'],
  ])('answers 400 Phone number is incorrect for a number %s', async (_, phone) => {
    expect(await failureOf(await lookUp(phone))).toEqual({
      status: 400,
      code: 'phone_incorrect',
      messages: ['Phone number is incorrect'],
    });
  });

  it('records an invalid lookup without a consent SMS', async () => {
    await lookUp('+4479112');
    expect((await lookupsOf('+4479112')).results).toEqual([
      { valid: 0, country: null, consent_sms_at: null },
    ]);
  });

  it('answers 500 in the error shape when the lookup fails inside (SPEC.md §7)', async () => {
    await env.PORTAL_DB.prepare('ALTER TABLE phone_lookups RENAME TO phone_lookups_away').run();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      expect(await failureOf(await lookUp('+12025550143'))).toEqual({
        status: 500,
        code: 'internal',
        messages: ['Internal server error.'],
      });
      // The cause goes to the logs, never to the client.
      expect(JSON.parse(String(logged.mock.calls.at(-1)?.[0]))).toMatchObject({
        error: 'portal_internal_error',
        path: '/phone-number-info/%2B12025550143',
        message: expect.stringContaining('no such table: phone_lookups'),
      });
    } finally {
      logged.mockRestore();
      await env.PORTAL_DB.prepare('ALTER TABLE phone_lookups_away RENAME TO phone_lookups').run();
    }
  });
});
