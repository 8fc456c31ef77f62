import { describe, expect, it } from 'vitest';
import { googleKeySet } from '../../../worker/session/google-keys';
import { sessionCookies } from '../../fixtures/signed-cookies';
import { freshApp, ORIGIN } from '../fetch-app';
import { expectRefusal, fakePortal, happyPortal, postJson, SIGNUP_BODY } from './fake-portal';
import { jwksFetch } from './google-token-fixture';
import { captureLogsPerTest } from './log-capture';

const logs = captureLogsPerTest();

function signup(headers: Record<string, string>, body: string = JSON.stringify(SIGNUP_BODY)) {
  const portal = fakePortal(happyPortal);
  const res = freshApp({ portalFetch: portal.portalFetch })('/api/signup', {
    method: 'POST',
    headers,
    body,
  });
  return { portal, res };
}

describe('same-origin POSTs only', () => {
  it.each([
    ['Sec-Fetch-Site cross-site', { 'sec-fetch-site': 'cross-site', origin: 'https://evil.test' }],
    [
      'Sec-Fetch-Site same-site',
      { 'sec-fetch-site': 'same-site', origin: 'https://a.funnel.test' },
    ],
    // A forged Origin cannot outvote the browser's own Sec-Fetch-Site.
    ['Sec-Fetch-Site none with our Origin', { 'sec-fetch-site': 'none', origin: ORIGIN }],
    ['no Sec-Fetch-Site and another Origin', { origin: 'https://evil.test' }],
    ['no Sec-Fetch-Site and Origin null', { origin: 'null' }],
    ['neither header', {}],
  ])('%s: 403 cross_origin, not forwarded, nothing kept for it', async (_, headers) => {
    const { portal, res } = signup({ 'content-type': 'application/json', ...headers });
    const answer = await res;
    // Refused before anything is read or kept for the visitor: no visitor id minted, no route
    // or arm drawn and written to a cookie.
    expect(answer.headers.get('set-cookie')).toBeNull();
    await expectRefusal(answer, 403, 'cross_origin');
    expect(portal.seen).toHaveLength(0);
  });

  it('a forged POST to a path of no call, or of a GET call, is refused as forged', async () => {
    const forged = { method: 'POST', headers: { 'sec-fetch-site': 'cross-site' }, body: '{}' };
    for (const path of ['/api/users/me/secrets', '/api/cf-country']) {
      await expectRefusal(await freshApp()(path, forged), 403, 'cross_origin');
    }
  });

  it.each([
    ['Sec-Fetch-Site same-origin', { 'sec-fetch-site': 'same-origin' }],
    ['only our Origin (older browsers)', { origin: ORIGIN }],
  ])('%s is accepted', async (_, headers) => {
    const { portal, res } = signup({ 'content-type': 'application/json', ...headers });
    expect((await res).status).toBe(201);
    expect(portal.seen).toHaveLength(1);
  });

  it('GET calls need no Origin: they change nothing', async () => {
    const res = await freshApp({ portalFetch: fakePortal(happyPortal).portalFetch })(
      '/api/cf-country',
    );
    expect(res.status).toBe(200);
  });
});

describe('JSON bodies only', () => {
  it.each([
    ['text/plain', 'text/plain;charset=UTF-8'],
    ['a form', 'application/x-www-form-urlencoded'],
    ['multipart', 'multipart/form-data; boundary=x'],
    ['a JSON look-alike', 'application/jsonp'],
  ])('%s: 415 unsupported_media_type', async (_, type) => {
    const { portal, res } = signup({ 'sec-fetch-site': 'same-origin', 'content-type': type });
    await expectRefusal(await res, 415, 'unsupported_media_type');
    expect(portal.seen).toHaveLength(0);
  });

  it('no content type at all: 415', async () => {
    const { res } = signup({ 'sec-fetch-site': 'same-origin' });
    await expectRefusal(await res, 415, 'unsupported_media_type');
  });

  it('application/json with a charset is accepted', async () => {
    const { res } = signup({
      'sec-fetch-site': 'same-origin',
      'content-type': 'Application/JSON; charset=utf-8',
    });
    expect((await res).status).toBe(201);
  });

  it('a body over 64 KiB: 413 payload_too_large', async () => {
    const huge = JSON.stringify({ ...SIGNUP_BODY, name: 'x'.repeat(70_000) });
    const { portal, res } = signup(
      { 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' },
      huge,
    );
    await expectRefusal(await res, 413, 'payload_too_large');
    expect(portal.seen).toHaveLength(0);
  });
});

describe('bodies and parameters outside the contract: 400 invalid_request, not forwarded', () => {
  it.each([
    ['not JSON', '{"email":'],
    ['a JSON array', '[1,2]'],
    ['JSON null', 'null'],
    ['no email', JSON.stringify({ ...SIGNUP_BODY, email: undefined })],
    ['an email without @', JSON.stringify({ ...SIGNUP_BODY, email: 'ada.example.com' })],
    ['another registration source', JSON.stringify({ ...SIGNUP_BODY, registration_source: 'fb' })],
    ['a name over 200 characters', JSON.stringify({ ...SIGNUP_BODY, name: 'n'.repeat(201) })],
  ])('sign-up with %s', async (_, body) => {
    const { portal, res } = signup(
      { 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' },
      body,
    );
    await expectRefusal(await res, 400, 'invalid_request');
    expect(portal.seen).toHaveLength(0);
  });

  it('logs why the body was refused', async () => {
    const { res } = signup(
      { 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' },
      JSON.stringify({ ...SIGNUP_BODY, email: 'ada.example.com' }),
    );
    await res;
    expect(logs.requests()).toContainEqual(
      expect.objectContaining({
        call: 'signup',
        error: 'invalid_request',
        detail: expect.stringContaining('email'),
      }),
    );
  });

  it.each([
    ['no plus', '15551234567'],
    ['letters', '%2B1555CALLME'],
    ['too short', '%2B1234567'],
    ['too long', '%2B1234567890123456'],
  ])('phone lookup with %s says "Phone number is incorrect" (SPEC.md §8)', async (_, phone) => {
    const portal = fakePortal(happyPortal);
    const res = await freshApp({ portalFetch: portal.portalFetch })(
      `/api/phone-number-info/${phone}`,
    );
    await expectRefusal(res, 400, 'invalid_request', ['Phone number is incorrect']);
    expect(portal.seen).toHaveLength(0);
  });

  it('a subscription without user_data', async () => {
    const portal = fakePortal(happyPortal);
    const res = await freshApp({ portalFetch: portal.portalFetch })(
      '/api/users/me/subscriptions/monthly',
      postJson({ gateway: 'test' }, { cookie: await sessionCookies('t') }),
    );
    await expectRefusal(res, 400, 'invalid_request');
    expect(portal.seen).toHaveLength(0);
  });

  it('a plan id with a slash or odd characters', async () => {
    const res = await freshApp({ portalFetch: fakePortal(happyPortal).portalFetch })(
      '/api/users/me/subscriptions/polling/a%2F..%2Fb',
      postJson({ gateway: 'test', user_data: {} }, { cookie: await sessionCookies('t') }),
    );
    await expectRefusal(res, 400, 'invalid_request');
  });
});

describe('paths and methods', () => {
  it.each(['/api/users/me/secrets', '/api', '/api/'])(
    'an unknown path %s: 404 not_found as JSON, not the 404 page',
    async (path) => {
      await expectRefusal(await freshApp()(path), 404, 'not_found');
    },
  );

  it('the wrong method: 405 method_not_allowed naming the right one', async () => {
    const res = await freshApp()('/api/signup');
    expect(res.headers.get('allow')).toBe('POST');
    await expectRefusal(res, 405, 'method_not_allowed');
  });

  it('a bug in a call answers 500 internal_error as JSON, never the HTML error page', async () => {
    const res = await freshApp({
      portalFetch: fakePortal(happyPortal).portalFetch,
      googleKeys: googleKeySet({ fetch: jwksFetch({ keys: [] }).fetch }),
      now: () => {
        throw new Error('clock broke');
      },
    })(
      '/api/authorize_social_via_access_token',
      postJson({ access_token: 'a.b.c', driver: 'google' }),
    );
    await expectRefusal(res, 500, 'internal_error');
    expect(logs.errors()).toContainEqual(
      expect.objectContaining({ error: 'unhandled_exception', detail: 'Error: clock broke' }),
    );
  });

  it('API answers carry the security headers but no page CSP', async () => {
    const res = await freshApp({ portalFetch: fakePortal(happyPortal).portalFetch })(
      '/api/cf-country',
    );
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBeNull();
  });
});

describe('where the portal is', () => {
  it('production without PORTAL_URL: 503 portal_not_configured, the emulator never used', async () => {
    const portal = fakePortal(happyPortal);
    const res = await freshApp(
      { portalFetch: portal.portalFetch },
      { ENVIRONMENT: 'production' },
    )('/api/cf-country');
    await expectRefusal(res, 503, 'portal_not_configured');
    expect(portal.seen).toHaveLength(0);
    expect(logs.errors()).toContainEqual(
      expect.objectContaining({ error: 'portal_not_configured', call: 'country' }),
    );
  });

  it.each(['https://portal.example.com/api/v1', 'https://portal.example.com/api/v1/'])(
    'PORTAL_URL %s: requests go under its path',
    async (url) => {
      const portal = fakePortal(() => Response.json({ country_code: 'DE' }));
      const fetchApp = freshApp(
        { portalFetch: portal.portalFetch },
        { ENVIRONMENT: 'production', PORTAL_URL: url },
      );
      const res = await fetchApp('/api/phone-number-info/%2B15551234567');
      expect(portal.seen[0]!.path).toBe('/api/v1/phone-number-info/%2B15551234567');
      expect((await fetchApp('/api/cf-country')).status).toBe(200);
      expect(portal.seen[1]!.path).toBe('/api/v1/cf-country');
      expect(res.status).toBe(502);
    },
  );
});
