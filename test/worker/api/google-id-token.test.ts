import { beforeAll, describe, expect, it } from 'vitest';
import { type GoogleKeySet, verifyGoogleIdToken } from '../../../worker/api/google-id-token';
import {
  createGoogleKeySource,
  GOOGLE_JWKS_URL,
  MIN_REFRESH_INTERVAL_MS,
} from '../../../worker/api/google-keys';
import {
  CLIENT_ID,
  googleClaims,
  jsonSegment,
  keySet,
  makeSigner,
  NOW_SECONDS,
  type TestSigner,
} from './google-token-fixture';

let google: TestSigner;
let stranger: TestSigner;
let keys: GoogleKeySet;

beforeAll(async () => {
  google = await makeSigner('google-key-1');
  stranger = await makeSigner('google-key-1');
  keys = keySet(google);
});

function verify(token: string, nowSeconds = NOW_SECONDS) {
  return verifyGoogleIdToken(token, { keys, clientId: CLIENT_ID, nowSeconds });
}

describe('verifyGoogleIdToken', () => {
  it('accepts a token Google signed for our client and names its account', async () => {
    expect(await verify(await google.sign(googleClaims()))).toEqual({
      ok: true,
      identity: { subject: '110169484474386276334', email: 'ada@example.com' },
    });
  });

  it('accepts the issuer without its scheme, as Google also sends it', async () => {
    const token = await google.sign(googleClaims({ iss: 'accounts.google.com' }));
    expect((await verify(token)).ok).toBe(true);
  });

  it.each([
    [
      'a token for another client id',
      { aud: 'someone-else.apps.googleusercontent.com' },
      'wrong_audience',
    ],
    ['an audience list', { aud: [CLIENT_ID] }, 'wrong_audience'],
    ['another issuer', { iss: 'https://evil.example' }, 'wrong_issuer'],
    ['an expired token', { exp: NOW_SECONDS - 61 }, 'expired'],
    ['a token without exp', { exp: undefined }, 'expired'],
    ['a token issued in the future', { iat: NOW_SECONDS + 120 }, 'issued_in_future'],
    ['a token without email', { email: undefined }, 'no_email'],
    ['an unverified email', { email_verified: false }, 'email_unverified'],
    ['an unverified email, stringified', { email_verified: 'false' }, 'email_unverified'],
  ])('refuses %s', async (_, overrides, reason) => {
    const token = await google.sign(googleClaims(overrides));
    expect(await verify(token)).toEqual({ ok: false, reason });
  });

  it('allows a minute of clock skew on exp and iat, and no more', async () => {
    const justExpired = await google.sign(googleClaims({ exp: NOW_SECONDS - 59 }));
    expect((await verify(justExpired)).ok).toBe(true);
    expect(await verify(justExpired, NOW_SECONDS + 2)).toEqual({ ok: false, reason: 'expired' });
    const early = await google.sign(googleClaims({ iat: NOW_SECONDS + 59 }));
    expect((await verify(early)).ok).toBe(true);
  });

  it('refuses a token signed by another key under a known kid', async () => {
    const token = await stranger.sign(googleClaims());
    expect(await verify(token)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('refuses a token whose claims were changed after signing', async () => {
    const [header, , signature] = (await google.sign(googleClaims())).split('.');
    const forged = `${header}.${jsonSegment(googleClaims({ email: 'boss@example.com' }))}.${signature}`;
    expect(await verify(forged)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('refuses an unknown kid, and a header without one', async () => {
    const unknown = await google.sign(googleClaims(), { alg: 'RS256', kid: 'rotated-away' });
    expect(await verify(unknown)).toEqual({ ok: false, reason: 'unknown_key' });
    const none = await google.sign(googleClaims(), { alg: 'RS256' });
    expect(await verify(none)).toEqual({ ok: false, reason: 'unknown_key' });
  });

  it('refuses alg none and HS256, whatever the signature', async () => {
    const unsigned = `${jsonSegment({ alg: 'none', kid: google.kid })}.${jsonSegment(googleClaims())}.`;
    expect(await verify(unsigned)).toEqual({ ok: false, reason: 'unsupported_alg' });
    const hmac = await google.sign(googleClaims(), { alg: 'HS256', kid: google.kid });
    expect(await verify(hmac)).toEqual({ ok: false, reason: 'unsupported_alg' });
  });

  it.each([
    ['an empty string', ''],
    ['two segments', 'a.b'],
    ['four segments', 'a.b.c.d'],
    ['non-base64url segments', '!!.??.**'],
    ['a header that is not JSON', `${btoa('nope')}.${jsonSegment({})}.sig`],
    ['a JSON array payload', `${jsonSegment({ alg: 'RS256' })}.${jsonSegment([1])}.c2ln`],
  ])('refuses %s as malformed', async (_, token) => {
    expect(await verify(token)).toEqual({ ok: false, reason: 'malformed' });
  });
});

describe('createGoogleKeySource', () => {
  function jwksFetch(maxAge: number | null) {
    const calls: string[] = [];
    const fetcher = (async (input: RequestInfo | URL) => {
      calls.push(String(input));
      return Response.json(keys, {
        headers:
          maxAge === null ? {} : { 'cache-control': `public, max-age=${maxAge}, must-revalidate` },
      });
    }) as typeof fetch;
    return { calls, fetcher };
  }

  it("fetches Google's JWKS and reuses it for the Cache-Control max-age", async () => {
    let clock = 0;
    const { calls, fetcher } = jwksFetch(600);
    const source = createGoogleKeySource({ fetch: fetcher, now: () => clock });
    expect(await source()).toEqual(keys);
    clock = 599_000;
    await source();
    expect(calls).toEqual([GOOGLE_JWKS_URL]);
    clock = 600_000;
    await source();
    expect(calls).toHaveLength(2);
  });

  it('refreshes early for an unknown kid, but at most once a minute', async () => {
    let clock = 0;
    const { calls, fetcher } = jwksFetch(3600);
    const source = createGoogleKeySource({ fetch: fetcher, now: () => clock });
    await source();
    clock = MIN_REFRESH_INTERVAL_MS - 1;
    await source({ refresh: true });
    expect(calls).toHaveLength(1);
    clock = MIN_REFRESH_INTERVAL_MS;
    await source({ refresh: true });
    expect(calls).toHaveLength(2);
    await source({ refresh: true });
    expect(calls).toHaveLength(2);
  });

  it('fetches again on every use when Google names no max-age', async () => {
    const { calls, fetcher } = jwksFetch(null);
    const source = createGoogleKeySource({ fetch: fetcher, now: () => 0 });
    await source();
    await source();
    expect(calls).toHaveLength(2);
  });

  it('rejects an error answer or a body that is no key set, and caches neither', async () => {
    const failing = createGoogleKeySource({
      fetch: (async () => new Response('down', { status: 503 })) as unknown as typeof fetch,
    });
    await expect(failing()).rejects.toThrow('503');
    const garbage = createGoogleKeySource({
      fetch: (async () => Response.json({ keys: [] })) as unknown as typeof fetch,
    });
    await expect(garbage()).rejects.toThrow();
  });
});
