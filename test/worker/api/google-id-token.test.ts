import { createLocalJWKSet } from 'jose';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { verifyGoogleIdToken } from '../../../worker/session/google-id-token';
import {
  GOOGLE_JWKS_URL,
  googleKeySet,
  KEY_SET_MAX_AGE_MS,
  MIN_REFRESH_INTERVAL_MS,
} from '../../../worker/session/google-keys';
import {
  CLIENT_ID,
  type GoogleKeySet,
  googleClaims,
  jsonSegment,
  jwksFetch,
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
  return verifyGoogleIdToken(token, {
    keys: createLocalJWKSet(keys),
    clientId: CLIENT_ID,
    nowSeconds,
  });
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
    ['a token not valid before a later time', { nbf: NOW_SECONDS + 120 }, 'issued_in_future'],
    ['a token older than the hour Google gives one', { iat: NOW_SECONDS - 3661 }, 'expired'],
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

describe("googleKeySet: Google's JWKS through jose's cache", () => {
  // jose reads the wall clock for its cache and cooldown; the token's clock is NOW_SECONDS.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(0);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function verifyWith(source: ReturnType<typeof googleKeySet>, token: string) {
    return verifyGoogleIdToken(token, {
      keys: source,
      clientId: CLIENT_ID,
      nowSeconds: NOW_SECONDS,
    });
  }

  it("fetches Google's JWKS once and reuses it until it is KEY_SET_MAX_AGE_MS old", async () => {
    const jwks = jwksFetch(keys);
    const source = googleKeySet({ fetch: jwks.fetch });
    const token = await google.sign(googleClaims());
    expect((await verifyWith(source, token)).ok).toBe(true);
    vi.setSystemTime(KEY_SET_MAX_AGE_MS - 1);
    expect((await verifyWith(source, token)).ok).toBe(true);
    expect(jwks.calls).toEqual([GOOGLE_JWKS_URL]);
    vi.setSystemTime(KEY_SET_MAX_AGE_MS);
    expect((await verifyWith(source, token)).ok).toBe(true);
    expect(jwks.calls).toHaveLength(2);
  });

  it('refreshes early for an unknown kid, but at most once a minute', async () => {
    const rotated = await makeSigner('google-key-2');
    const jwks = jwksFetch(keys, keySet(google, rotated));
    const source = googleKeySet({ fetch: jwks.fetch });
    expect((await verifyWith(source, await google.sign(googleClaims()))).ok).toBe(true);
    const newer = await rotated.sign(googleClaims());
    vi.setSystemTime(MIN_REFRESH_INTERVAL_MS - 1);
    expect(await verifyWith(source, newer)).toEqual({ ok: false, reason: 'unknown_key' });
    expect(jwks.calls).toHaveLength(1);
    vi.setSystemTime(MIN_REFRESH_INTERVAL_MS);
    expect((await verifyWith(source, newer)).ok).toBe(true);
    expect(jwks.calls).toHaveLength(2);
    const madeUp = await google.sign(googleClaims(), { alg: 'RS256', kid: 'made-up' });
    expect(await verifyWith(source, madeUp)).toEqual({ ok: false, reason: 'unknown_key' });
    expect(jwks.calls).toHaveLength(2);
  });

  it.each([
    ['an error answer', () => new Response('down', { status: 503 })],
    ['a body that is not JSON', () => new Response('<html>', { status: 200 })],
    ['a body that is no key set', () => Response.json({ keys: 'none' })],
    ['a redirect', () => Response.redirect('https://example.com/certs', 302)],
  ])('takes %s as keys unavailable, and caches nothing', async (_, answer) => {
    const jwks = jwksFetch(answer);
    const source = googleKeySet({ fetch: jwks.fetch });
    const token = await google.sign(googleClaims());
    expect(await verifyWith(source, token)).toMatchObject({
      ok: false,
      reason: 'keys_unavailable',
    });
    await verifyWith(source, token);
    expect(jwks.calls).toHaveLength(2);
  });

  it('takes a network failure as keys unavailable, with the cause for the log', async () => {
    const failure = new TypeError('fetch failed');
    const source = googleKeySet({
      fetch: (async () => {
        throw failure;
      }) as unknown as typeof fetch,
    });
    expect(await verifyWith(source, await google.sign(googleClaims()))).toEqual({
      ok: false,
      reason: 'keys_unavailable',
      cause: failure,
    });
  });
});
