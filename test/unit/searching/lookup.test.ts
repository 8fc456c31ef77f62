import { describe, expect, it, vi } from 'vitest';
import { lookupPhone, type PhoneInfo, PhoneLookupError } from '../../../islands/phone/lookup';
import { CAPITALS } from '../../../shared/phone/capitals';

const US_INFO: PhoneInfo = {
  phone: '+12015550123',
  valid: true,
  country: 'US',
  type: 'FIXED_LINE_OR_MOBILE',
  carrier: null,
  city: 'Washington',
  timezone: 'America/New_York',
  location: { lat: 38.9072, lng: -77.0369 },
};

/** A fetch that answers every call with `status` and `body` (JSON unless a string). */
function answering(status: number, body: unknown) {
  return vi.fn<typeof fetch>(
    async () =>
      new Response(typeof body === 'string' ? body : JSON.stringify(body), {
        status,
        headers: { 'content-type': 'application/json' },
      }),
  );
}

const failure = (messages: string[], code?: string) => ({ errors: { messages }, code });

async function codeOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(PhoneLookupError);
  return (error as PhoneLookupError).code;
}

describe('lookupPhone: GET /api/phone-number-info/{phone} (SPEC.md §7)', () => {
  it('asks the worker for the number, URI-encoded, and answers with the portal data', async () => {
    const fetch = answering(200, { data: US_INFO });
    expect(await lookupPhone('+12015550123', { fetch })).toEqual(US_INFO);
    expect(fetch).toHaveBeenCalledOnce();
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/api/phone-number-info/%2B12015550123');
    expect(init?.method).toBe('GET');
  });

  it('says the number is incorrect on any refusal of the number (SPEC.md §5: non-200)', async () => {
    for (const [status, body] of [
      [400, failure(['Phone number is incorrect'])],
      [400, failure(['invalid'], 'invalid_request')],
      [500, failure([], 'portal_error')],
      [404, ''],
    ] as const) {
      expect(await codeOf(lookupPhone('+12015550123', { fetch: answering(status, body) }))).toBe(
        'phone_incorrect',
      );
    }
  });

  it('says "an error occurred" when there is no answer from the portal (SPEC.md §8)', async () => {
    const offline = vi.fn<typeof fetch>(async () => {
      throw new TypeError('Failed to fetch');
    });
    const cases: (typeof fetch)[] = [
      offline,
      answering(502, failure([], 'portal_unavailable')),
      answering(504, failure([], 'portal_timeout')),
      answering(502, failure([], 'portal_bad_response')),
      answering(200, '<html>not json</html>'),
      answering(200, { data: { phone: '+12015550123' } }),
    ];
    for (const fetch of cases) {
      expect(await codeOf(lookupPhone('+12015550123', { fetch }))).toBe('lookup_failed');
    }
  });

  it('says the visitor has tried too often when the worker rate-limits the lookup', async () => {
    const fetch = answering(429, failure(['Too many requests'], 'rate_limited'));
    expect(await codeOf(lookupPhone('+12025550101', { fetch }))).toBe('rate_limited');
  });

  it("reuses $map's answer for the same number instead of texting its owner again", async () => {
    const fetch = answering(200, { data: US_INFO });
    expect(await lookupPhone('+12015550123', { fetch, remembered: US_INFO })).toEqual(US_INFO);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('looks up again when the kept answer is for another number or unreadable', async () => {
    for (const remembered of [
      { ...US_INFO, phone: '+447400123456' },
      { phone: '+12015550123', city: 'Nowhere' },
      'garbage',
      null,
    ]) {
      const fetch = answering(200, { data: US_INFO });
      await lookupPhone('+12015550123', { fetch, remembered });
      expect(fetch).toHaveBeenCalledOnce();
    }
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
