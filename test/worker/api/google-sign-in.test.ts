import { env } from 'cloudflare:workers';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { BrowserSignupResponse } from '../../../shared/api/contract';
import { embeddedPortalFetch } from '../../../worker/dev/embedded-portal';
import { googleKeySet, MIN_REFRESH_INTERVAL_MS } from '../../../worker/session/google-keys';
import { freshApp, setCookies } from '../fetch-app';
import { islandProps } from '../page-html';
import { migratePortalBeforeEach, userCount } from './embedded-portal-fixture';
import { expectRefusal, postJson } from './fake-portal';
import {
  googleClaims,
  jsonSegment,
  jwksFetch,
  keySet,
  makeSigner,
  NOW_SECONDS,
  type TestSigner,
} from './google-token-fixture';
import { captureLogsPerTest } from './log-capture';

const logs = captureLogsPerTest();

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}
migratePortalBeforeEach();

let google: TestSigner;
let impostor: TestSigner;

beforeAll(async () => {
  google = await makeSigner('google-2026-a');
  impostor = await makeSigner('google-2026-a');
});

const VISITOR = '3f0c4a8e-2b1d-4c5e-9f6a-7b8c9d0e1f2a';

/**
 * The worker in front of the embedded portal, with Google's JWKS endpoint and the token clock set
 * by the test: no test reaches the internet.
 */
function worker(options: { jwks?: typeof fetch } = {}, bindings: Partial<Cloudflare.Env> = {}) {
  let portalCalls = 0;
  const fetchApp = freshApp(
    {
      googleKeys: googleKeySet({ fetch: options.jwks ?? jwksFetch(keySet(google)).fetch }),
      now: () => NOW_SECONDS * 1000,
      portalFetch: (request) => {
        portalCalls++;
        return embeddedPortalFetch(request, env, undefined);
      },
    },
    bindings,
  );
  const signIn = (token: string) =>
    fetchApp(
      '/api/authorize_social_via_access_token',
      postJson({ access_token: token, driver: 'google' }, { cookie: `userUuid=${VISITOR}` }),
    );
  return { signIn, portalCalls: () => portalCalls };
}

describe('Google sign-in through the worker: verified before any account is made', () => {
  it('a valid Google credential makes the account and a session, token kept out of the body', async () => {
    const { signIn } = worker();
    const res = await signIn(await google.sign(googleClaims()));
    expect(res.status).toBe(200);
    const text = await res.text();
    const { data } = BrowserSignupResponse.strict().parse(JSON.parse(text));
    const session = setCookies(res).get('gf_session');
    expect(session).toBeTruthy();
    expect(text).not.toContain(session);
    const user = await env.PORTAL_DB.prepare(
      'SELECT email, registration_source, google_subject, user_uuid, landing_type FROM users WHERE id = ?',
    )
      .bind(data.entity.external_user_id)
      .first();
    expect(user).toEqual({
      email: 'ada@example.com',
      registration_source: 'google',
      google_subject: '110169484474386276334',
      user_uuid: VISITOR,
      landing_type: 'split_default',
    });
  });

  it("keeps the hash of the email Google verified, for the ad networks' match, never the address", async () => {
    const { signIn } = worker();
    const res = await signIn(await google.sign(googleClaims({ email: 'Ada@Example.com' })));
    expect(res.status).toBe(200);
    const line = res.headers.getSetCookie().find((cookie) => cookie.startsWith('gf_buyer='));
    expect(line).toMatch(/HttpOnly/);
    expect(line).toMatch(/Path=\/api/);
    expect(setCookies(res).get('gf_buyer')).toBe(await sha256Hex('ada@example.com'));
    expect(res.headers.getSetCookie().join('\n')).not.toMatch(/ada@example/i);
  });

  it.each([
    [
      'for another client id',
      () => google.sign(googleClaims({ aud: 'other.apps.googleusercontent.com' })),
    ],
    [
      'from another issuer',
      () => google.sign(googleClaims({ iss: 'https://accounts.example.com' })),
    ],
    [
      'expired',
      () => google.sign(googleClaims({ exp: NOW_SECONDS - 3600, iat: NOW_SECONDS - 7200 })),
    ],
    ['with a bad signature', () => impostor.sign(googleClaims())],
    [
      'with an unknown kid',
      () => google.sign(googleClaims(), { alg: 'RS256', kid: 'retired-key' }),
    ],
    [
      'with alg none',
      async () =>
        `${jsonSegment({ alg: 'none', kid: google.kid })}.${jsonSegment(googleClaims())}.`,
    ],
    ['malformed', async () => 'not-a-jwt'],
  ])('a credential %s: 401 google_token_invalid, no account made', async (_, token) => {
    const { signIn, portalCalls } = worker();
    const res = await signIn(await token());
    await expectRefusal(res, 401, 'google_token_invalid');
    expect(setCookies(res).has('gf_session')).toBe(false);
    expect(portalCalls()).toBe(0);
    expect(await userCount()).toBe(0);
  });

  it('logs why a credential was refused', async () => {
    const { signIn } = worker();
    await signIn(await google.sign(googleClaims({ aud: 'other' })));
    expect(logs.requests()).toContainEqual(
      expect.objectContaining({
        call: 'socialSignIn',
        error: 'google_token_invalid',
        detail: 'wrong_audience',
      }),
    );
  });

  it('without GOOGLE_CLIENT_ID: 503 google_not_configured, Google never asked', async () => {
    const jwks = jwksFetch(keySet(google));
    const { signIn } = worker({ jwks: jwks.fetch }, { GOOGLE_CLIENT_ID: undefined });
    await expectRefusal(
      await signIn(await google.sign(googleClaims())),
      503,
      'google_not_configured',
    );
    expect(jwks.calls).toEqual([]);
    expect(await userCount()).toBe(0);
  });

  it('without GOOGLE_CLIENT_ID, unset or blank, /signup says so in the button’s place', async () => {
    // The island then loads no script (test/unit/signup/google-sign-in.test.tsx), and the page's
    // policy names no Google origin (test/worker/middleware/security-headers.test.ts).
    for (const GOOGLE_CLIENT_ID of [undefined, '']) {
      const html = await (await freshApp({}, { GOOGLE_CLIENT_ID })('/signup')).text();
      expect(islandProps(html, 'GoogleSignIn')).toMatchObject({ clientId: '' });
      expect(html).toContain(
        'role="status">Google Sign-In is not properly configured. Please try again later.</p>',
      );
      expect(html).not.toContain('class="google-signin__placeholder"');
    }
  });

  it("Google's keys out of reach: 502 google_keys_unavailable, logged, no account made", async () => {
    const { signIn } = worker({
      jwks: async () => {
        throw new TypeError('fetch failed');
      },
    });
    await expectRefusal(
      await signIn(await google.sign(googleClaims())),
      502,
      'google_keys_unavailable',
    );
    expect(logs.errors()).toContainEqual(
      expect.objectContaining({
        error: 'google_keys_unavailable',
        detail: 'TypeError: fetch failed',
      }),
    );
    expect(await userCount()).toBe(0);
  });

  describe('key rotation', () => {
    // jose's key cache reads the wall clock; the tokens' clock stays NOW_SECONDS.
    afterEach(() => {
      vi.useRealTimers();
    });

    it('a token signed with a key newer than the cached set is verified after one refresh', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      const rotated = await makeSigner('google-2026-b');
      const jwks = jwksFetch(keySet(google), keySet(google, rotated));
      const { signIn } = worker({ jwks: jwks.fetch });
      expect((await signIn(await google.sign(googleClaims()))).status).toBe(200);
      vi.advanceTimersByTime(MIN_REFRESH_INTERVAL_MS);
      const res = await signIn(await rotated.sign(googleClaims({ sub: '2', email: 'b@x.io' })));
      expect(res.status).toBe(200);
      expect(jwks.calls).toHaveLength(2);
      expect(await userCount()).toBe(2);
    });
  });
});
