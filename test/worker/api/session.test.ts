import { describe, expect, it } from 'vitest';
import { BrowserSignupResponse } from '../../../shared/api/contract';
import { sessionCookies, signedPair } from '../../fixtures/signed-cookies';
import { freshApp, ORIGIN, putConfig, setCookies } from '../fetch-app';
import {
  fakePortal,
  happyPortal,
  pollingStartedBy,
  postJson,
  SIGNED_UP,
  SIGNUP_BODY,
} from './fake-portal';
import { captureLogsPerTest } from './log-capture';

captureLogsPerTest();

const VISITOR = '3f0c4a8e-2b1d-4c5e-9f6a-7b8c9d0e1f2a';
const TOKEN = SIGNED_UP.data.access_token;
/** A browser signed in with TOKEN, as the sign-up left its cookies. */
const SIGNED_IN = await sessionCookies(TOKEN, { visitorId: VISITOR });

describe('sign-up through the worker', () => {
  it('answers the account without its token and keeps the token in an HttpOnly session cookie', async () => {
    const portal = fakePortal(happyPortal);
    const res = await freshApp({ portalFetch: portal.portalFetch })(
      '/api/signup',
      postJson(SIGNUP_BODY),
    );
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const text = await res.text();
    expect(text).not.toContain(TOKEN);
    expect(BrowserSignupResponse.strict().parse(JSON.parse(text))).toEqual({
      data: { deeplink_token: 'dl-token', entity: { external_user_id: 'user-1' } },
    });
    const session = res.headers.getSetCookie().find((cookie) => cookie.startsWith('gf_session='));
    // A session cookie (no Max-Age, no Expires): gone with the browser session, like SPEC.md §3's
    // session storage, but out of reach of page JavaScript.
    expect(session).toBe(`gf_session=${TOKEN}; Path=/api; HttpOnly; Secure; SameSite=Lax`);
    for (const cookie of res.headers.getSetCookie().filter((c) => !c.includes('HttpOnly'))) {
      expect(cookie).not.toContain(TOKEN);
    }
  });

  it("files the account under the worker's visitor id and landing type, whatever the page sent", async () => {
    await putConfig('split', {
      version: 1,
      defaultVariant: 'lp17',
      variants: { lp17: { weight: 1, flow: 'lp17ch17pr5' } },
    });
    const portal = fakePortal(happyPortal);
    const body = { ...SIGNUP_BODY, is_admin: true };
    await freshApp({ portalFetch: portal.portalFetch })(
      '/api/signup',
      postJson(body, {
        cookie: `userUuid=${VISITOR}; ${await signedPair('gf_variant', VISITOR, 'lp17')}`,
      }),
    );
    expect(JSON.parse(portal.seen[0]!.body)).toEqual({
      registration_source: 'email',
      email: 'ada@example.com',
      name: '',
      user_uuid: VISITOR,
      landing_type: 'split_lp17',
    });
  });

  it('accepts a body without name, user_uuid and landing_type: the worker supplies the ids', async () => {
    const portal = fakePortal(happyPortal);
    const { user_uuid: _, landing_type: __, name: ___, ...bare } = SIGNUP_BODY;
    const res = await freshApp({ portalFetch: portal.portalFetch })(
      '/api/signup',
      postJson(bare, { cookie: `userUuid=${VISITOR}` }),
    );
    expect(res.status).toBe(201);
    expect(JSON.parse(portal.seen[0]!.body)).toEqual({
      registration_source: 'email',
      email: 'ada@example.com',
      user_uuid: VISITOR,
      landing_type: 'split_default',
    });
  });

  it('tells the portal who is asking: country, address and funnel origin, and nothing else', async () => {
    const portal = fakePortal(happyPortal);
    await freshApp({ portalFetch: portal.portalFetch })('/api/cf-country', {
      headers: {
        'cf-ipcountry': 'DE',
        'cf-connecting-ip': '203.0.113.7',
        cookie: `userUuid=${VISITOR}; gf_session=${TOKEN}`,
        'user-agent': 'test',
      },
    });
    const { headers, method, path } = portal.seen[0]!;
    expect({ method, path }).toEqual({ method: 'GET', path: '/cf-country' });
    expect(Object.fromEntries(headers)).toEqual({
      accept: 'application/json',
      'cf-ipcountry': 'DE',
      'x-forwarded-for': '203.0.113.7',
      'x-funnel-origin': ORIGIN,
    });
  });
});

describe('calls that need the signed-in visitor (SPEC.md §6)', () => {
  it.each([
    ['/api/users/me/payments-settings', 'GET'],
    ['/api/users/me/deeplink-qr-code', 'GET'],
    ['/api/users/me/subscriptions/polling/monthly_usd', 'POST'],
    ['/api/users/me/subscriptions/monthly_usd', 'POST'],
  ])('%s carries the session token as the bearer token', async (path, method) => {
    const portal = fakePortal(happyPortal);
    const init =
      method === 'POST'
        ? postJson({ gateway: 'test', user_data: {} }, { cookie: SIGNED_IN })
        : { headers: { cookie: SIGNED_IN } };
    await freshApp({ portalFetch: portal.portalFetch })(path, init);
    expect(portal.seen).toHaveLength(1);
    expect(portal.seen[0]!.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
    expect(portal.seen[0]!.path).toBe(path.slice('/api'.length));
  });

  it.each([
    ['/api/users/me/payments-settings', 'GET'],
    ['/api/users/me/deeplink-qr-code', 'GET'],
    ['/api/users/me/subscriptions/polling/monthly_39_99', 'POST'],
    ['/api/users/me/subscriptions/monthly_39_99', 'POST'],
  ])(
    '%s without a session answers 401 not_signed_in and never reaches the portal',
    async (path, method) => {
      const portal = fakePortal(happyPortal);
      const init = method === 'POST' ? postJson({ gateway: 'test', user_data: {} }) : {};
      const res = await freshApp({ portalFetch: portal.portalFetch })(path, init);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ errors: { messages: [] }, code: 'not_signed_in' });
      expect(portal.seen).toHaveLength(0);
    },
  );

  it('the polling result sends no bearer token even when the visitor is signed in', async () => {
    const portal = fakePortal(happyPortal);
    const { cookie } = await pollingStartedBy('poll-1');
    const res = await freshApp({ portalFetch: portal.portalFetch })(
      '/api/polling/get-result/poll-1',
      { headers: { cookie: `${cookie}; gf_session=${TOKEN}` } },
    );
    expect(res.status).toBe(200);
    expect(portal.seen[0]!.path).toBe('/polling/get-result/poll-1');
    expect(portal.seen[0]!.headers.has('authorization')).toBe(false);
  });

  it('the calls without auth send no bearer token either', async () => {
    const portal = fakePortal(happyPortal);
    const fetchApp = freshApp({ portalFetch: portal.portalFetch });
    const cookie = { cookie: `gf_session=${TOKEN}` };
    await fetchApp('/api/cf-country', { headers: cookie });
    await fetchApp('/api/phone-number-info/%2B15551234567', { headers: cookie });
    await fetchApp('/api/signup', postJson(SIGNUP_BODY, cookie));
    expect(portal.seen.map((request) => request.headers.has('authorization'))).toEqual([
      false,
      false,
      false,
    ]);
  });
});

it('a signed-up visitor can use the bearer calls with the cookie the sign-up set', async () => {
  const portal = fakePortal(happyPortal);
  const fetchApp = freshApp({ portalFetch: portal.portalFetch });
  const signup = await fetchApp('/api/signup', postJson(SIGNUP_BODY));
  const set = setCookies(signup);
  // What the browser sends next: its new id, the session, and the cookie binding the two.
  const sent = ['userUuid', 'gf_session', 'gf_session_owner'].map(
    (name) => `${name}=${set.get(name)}`,
  );
  const res = await fetchApp('/api/users/me/payments-settings', {
    headers: { cookie: sent.join('; ') },
  });
  expect(res.status).toBe(200);
  expect(portal.seen[1]!.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
});

it.each(['user-1', 'usr~7~eu', 'ünïcode id with spaces'])(
  'the session binds whatever user id the product API gives (%s): the bearer calls go through',
  async (userId) => {
    const portal = fakePortal((request) =>
      request.path === '/signup'
        ? Response.json(
            { data: { ...SIGNED_UP.data, entity: { external_user_id: userId } } },
            { status: 201 },
          )
        : happyPortal(request),
    );
    const fetchApp = freshApp({ portalFetch: portal.portalFetch });
    const set = setCookies(await fetchApp('/api/signup', postJson(SIGNUP_BODY)));
    const sent = ['userUuid', 'gf_session', 'gf_session_owner'].map(
      (name) => `${name}=${set.get(name)}`,
    );
    const res = await fetchApp('/api/users/me/payments-settings', {
      headers: { cookie: sent.join('; ') },
    });
    expect(res.status).toBe(200);
  },
);

describe('Idempotency-Key of a subscription call', () => {
  const charge = (headers: Record<string, string>) => {
    const portal = fakePortal(happyPortal);
    const res = freshApp({ portalFetch: portal.portalFetch })(
      '/api/users/me/subscriptions/polling/monthly_usd',
      postJson({ gateway: 'test', user_data: {} }, { cookie: SIGNED_IN, ...headers }),
    );
    return { portal, res };
  };

  it('names the worker’s attempt to the portal: a retried charge is one request, another key another', async () => {
    const portal = fakePortal(happyPortal);
    const fetchApp = freshApp({ portalFetch: portal.portalFetch });
    const post = (key: string) =>
      fetchApp(
        '/api/users/me/subscriptions/polling/monthly_usd',
        postJson(
          { gateway: 'test', payment_method_nonce: 'pm_card_one', user_data: {} },
          { cookie: SIGNED_IN, 'idempotency-key': key },
        ),
      );
    for (const key of ['checkout-7f3a', 'checkout-7f3a', 'checkout-7f3a:3ds', 'checkout-8b1c']) {
      await post(key);
    }
    const keys = portal.seen.map((request) => request.headers.get('idempotency-key'));
    expect(keys[0]).toMatch(/^attempt:[0-9a-f]{32}$/);
    expect(keys[1]).toBe(keys[0]);
    // The call after 3-D Secure is the same attempt, a request of its own.
    expect(keys[2]).toBe(`${keys[0]}:3ds`);
    expect(keys[3]).toMatch(/^attempt:[0-9a-f]{32}$/);
    expect(keys[3]).not.toBe(keys[0]);
  });

  it('one that is not 1 to 255 printable characters is refused with 400 invalid_request', async () => {
    const { portal, res } = charge({ 'idempotency-key': 'two words' });
    expect((await res).status).toBe(400);
    expect(portal.seen).toHaveLength(0);
  });
});
