import { describe, expect, it, vi } from 'vitest';
import {
  apiUrl,
  createDirectSubscription,
  getCountry,
  getDeeplink,
  getPaymentSettings,
  getPhoneInfo,
  getPollingResult,
  signInWithSocialToken,
  signUp,
  startPollingSubscription,
} from '../../../islands/api/client';
import { ApiFailure } from '../../../shared/api/request';

const UUID = '8a4b1f5e-2c3d-4e6f-9a0b-1c2d3e4f5a6b';
const ACCOUNT = { data: { deeplink_token: 'dl-1', entity: { external_user_id: 'u-1' } } };

function answering(body: unknown, status = 200) {
  return vi.fn<typeof fetch>(async () => new Response(JSON.stringify(body), { status }));
}

function sent(fetch: ReturnType<typeof answering>) {
  const [url, init] = fetch.mock.calls[0]!;
  return {
    url,
    method: init?.method,
    contentType: new Headers(init?.headers).get('content-type'),
    body: init?.body ? JSON.parse(String(init.body)) : undefined,
  };
}

describe('the browser’s API client: same-origin /api + the SPEC.md §7 path', () => {
  it('POST /api/signup with the JSON body, answering the account without a token', async () => {
    const fetch = answering(ACCOUNT);
    const body = {
      registration_source: 'email' as const,
      email: 'anna@example.com',
      user_uuid: UUID,
      landing_type: 'split_default',
      name: 'anna@example.com',
    };
    expect(await signUp(body, { fetch })).toEqual(ACCOUNT);
    expect(sent(fetch)).toEqual({
      url: '/api/signup',
      method: 'POST',
      contentType: 'application/json',
      body,
    });
  });

  it('POST /api/authorize_social_via_access_token for Google', async () => {
    const fetch = answering(ACCOUNT);
    const body = {
      access_token: 'eyJ.jwt.sig',
      driver: 'google' as const,
      landing_type: 'split_default',
      user_uuid: UUID,
    };
    await signInWithSocialToken(body, { fetch });
    expect(sent(fetch)).toMatchObject({
      url: '/api/authorize_social_via_access_token',
      method: 'POST',
      body,
    });
  });

  it('GETs payment settings, deeplink and country', async () => {
    const settings = {
      stripe_publishable_key: 'pk_test_1',
      stripe_account_name: 'Geozilla',
      braintree_client_token: null,
      payment_gateway: 'stripe',
      request_three_d_secure: false,
    };
    let fetch = answering(settings);
    expect(await getPaymentSettings({ fetch })).toEqual(settings);
    expect(sent(fetch)).toMatchObject({ url: '/api/users/me/payments-settings', method: 'GET' });

    const deeplink = {
      data: {
        short_deeplink: 'https://gz.example/l/abc',
        qr_code: 'data:image/svg+xml;base64,PHN2Zz4=',
      },
    };
    fetch = answering(deeplink);
    expect(await getDeeplink({ fetch })).toEqual(deeplink);
    expect(sent(fetch).url).toBe('/api/users/me/deeplink-qr-code');

    fetch = answering({ country_code: 'DE' });
    expect(await getCountry({ fetch })).toEqual({ country_code: 'DE' });
    expect(sent(fetch).url).toBe('/api/cf-country');
  });

  it('encodes the phone number into the path', async () => {
    expect(apiUrl('phoneInfo', { phone: '+447400123456' })).toBe(
      '/api/phone-number-info/%2B447400123456',
    );
  });

  it('rejects a 200 that is not the answer the call expects: no object, or without its fields', async () => {
    for (const body of [{ data: { deeplink_token: 'x' } }, { data: null }, [ACCOUNT], 'ok', null]) {
      await expect(signUp({} as never, { fetch: answering(body) })).rejects.toMatchObject({
        kind: 'shape',
      });
    }
    for (const body of [{}, { data: 'x' }, [{ data: {} }]]) {
      await expect(getPhoneInfo('+12015550123', { fetch: answering(body) })).rejects.toMatchObject({
        kind: 'shape',
      });
    }
    await expect(getCountry({ fetch: answering(['DE']) })).rejects.toBeInstanceOf(ApiFailure);
  });

  it('trusts the worker for what is inside an answer: it checked it against the contract', async () => {
    const answer = { data: { phone: '+12015550123' } };
    expect(await getPhoneInfo('+12015550123', { fetch: answering(answer) })).toEqual(answer);
  });
});

describe('the subscription calls (SPEC.md §7)', () => {
  const body = {
    gateway: 'test',
    payment_method_nonce: 'pm_1',
    coupon: null,
    payment_intent_id: null,
    user_data: { plan: 'monthly_usd' },
  };

  it('POSTs the polling subscription with the attempt’s Idempotency-Key', async () => {
    const fetch = answering({ data: { polling_result_id: 'poll_1' } });
    expect(await startPollingSubscription('monthly_usd', body, 'key-1', { fetch })).toEqual({
      data: { polling_result_id: 'poll_1' },
    });
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/api/users/me/subscriptions/polling/monthly_usd');
    expect(init?.method).toBe('POST');
    expect(new Headers(init?.headers).get('idempotency-key')).toBe('key-1');
    expect(JSON.parse(String(init?.body))).toEqual(body);
  });

  it('POSTs the direct subscription with the Idempotency-Key', async () => {
    const fetch = answering({ data: { subscription_id: 'sub_1' } });
    await createDirectSubscription('monthly_usd', body, 'key-1:3ds', { fetch });
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/api/users/me/subscriptions/monthly_usd');
    expect(new Headers(init?.headers).get('idempotency-key')).toBe('key-1:3ds');
  });

  it('reads a polling result with its status: 202 pending whatever its body, 200 final', async () => {
    const pendingFetch = vi.fn<typeof globalThis.fetch>(
      async () => new Response('{}', { status: 202 }),
    );
    expect(await getPollingResult('poll_1', { fetch: pendingFetch })).toEqual({
      status: 202,
      data: { data: { result_data: null } },
    });
    expect(pendingFetch.mock.calls[0]![0]).toBe('/api/polling/get-result/poll_1');

    const result = { status: 'succeeded', subscription_id: 'sub_1' };
    const fetch = answering({ data: { result_data: result } });
    expect(await getPollingResult('poll_1', { fetch })).toEqual({
      status: 200,
      data: { data: { result_data: result } },
    });
  });

  it('a final polling answer of the wrong shape is a shape failure; an error status rejects', async () => {
    await expect(
      getPollingResult('poll_1', { fetch: answering({ data: {} }) }),
    ).rejects.toMatchObject({
      kind: 'shape',
    });
    await expect(
      getPollingResult('poll_1', { fetch: answering({ errors: { messages: ['gone'] } }, 404) }),
    ).rejects.toMatchObject({ kind: 'http', status: 404 });
  });
});
