import { cleanTestStorage, useTestStorageEngine } from '@nanostores/persistent';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

const navigate = vi.hoisted(() => vi.fn());
vi.mock('../../../islands/boot', () => ({ navigate }));

import { chooseProvider } from '../../../islands/payments/providers';
import { signUpWithEmail, signUpWithGoogle } from '../../../islands/signup/sign-up';
import { $error } from '../../../islands/stores/error';
import { $events } from '../../../islands/stores/events';
import { $loader } from '../../../islands/stores/loader';
import { $signup } from '../../../islands/stores/signup';

const UUID = '8a4b1f5e-2c3d-4e6f-9a0b-1c2d3e4f5a6b';
const ACCOUNT = { data: { deeplink_token: 'dl-token-1', entity: { external_user_id: 'user-42' } } };
const SETTINGS = {
  stripe_publishable_key: 'pk_test_abc',
  stripe_account_name: 'Geozilla Ltd',
  braintree_client_token: 'bt-client-token',
  payment_gateway: 'braintree',
  request_three_d_secure: true,
};
const DEEPLINK = {
  data: {
    short_deeplink: 'https://gz.example/l/abc',
    qr_code: 'data:image/svg+xml;base64,PHN2Zz4=',
  },
};
const TEXTS = {
  email_exists: 'The email has already been taken',
  signup_failed: 'Failed to create an account',
  rate_limited: 'Too many attempts. Please wait a few minutes and try again.',
  google_sign_in_failed: 'An error occurred while trying to sign in with Google. Please try again.',
};

type Route = { status: number; body: unknown } | (() => { status: number; body: unknown });

/** The worker's /api, answering each path with the next of its queued answers (the last repeats). */
function fakeApi(routes: Record<string, Route[]>) {
  const calls: { url: string; method: string; body: unknown }[] = [];
  const fetch = vi.fn(async (url: string, init?: RequestInit) => {
    calls.push({
      url,
      method: init?.method ?? 'GET',
      body: init?.body ? JSON.parse(String(init.body)) : undefined,
    });
    const queue = routes[url];
    if (!queue?.length) return new Response('{}', { status: 404 });
    const next = queue.length > 1 ? queue.shift()! : queue[0]!;
    const { status, body } = typeof next === 'function' ? next() : next;
    return new Response(JSON.stringify(body), { status });
  });
  vi.stubGlobal('fetch', fetch);
  return calls;
}

const ok = (body: unknown) => ({ status: 200, body });
const failed = (status: number, messages: string[] = [], code?: string) => ({
  status,
  body: { errors: { messages }, code },
});

function healthyApi(overrides: Record<string, Route[]> = {}) {
  return fakeApi({
    '/api/signup': [ok(ACCOUNT)],
    '/api/authorize_social_via_access_token': [ok(ACCOUNT)],
    '/api/users/me/payments-settings': [ok(SETTINGS)],
    '/api/users/me/deeplink-qr-code': [ok(DEEPLINK)],
    '/api/cf-country': [ok({ country_code: 'DE' })],
    ...overrides,
  });
}

const pauses: number[] = [];
const context = {
  userUuid: UUID,
  landingType: 'split_default',
  next: '/checkout_v3_tr?gclid=1',
  texts: TEXTS,
  loadingMessage: 'Creating your account…',
  sleep: async (ms: number) => void pauses.push(ms),
};

beforeAll(() => useTestStorageEngine());
beforeEach(() => {
  pauses.length = 0;
  vi.spyOn(console, 'info').mockImplementation(() => {});
});
afterEach(() => {
  cleanTestStorage();
  $signup.set({ ...$signup.get(), isSuccess: false, email: '', name: '', userId: '' });
  $error.set({ show: false, message: '' });
  navigate.mockReset();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('email sign-up (SPEC.md §4 Signup)', () => {
  it('creates the account, keeps what the funnel needs, then moves to the next screen', async () => {
    const calls = healthyApi();
    expect(await signUpWithEmail(' anna@example.com ', context)).toBe(true);
    expect(calls[0]).toEqual({
      url: '/api/signup',
      method: 'POST',
      body: {
        registration_source: 'email',
        email: 'anna@example.com',
        user_uuid: UUID,
        landing_type: 'split_default',
        // SPEC.md §5: the name falls back to the email.
        name: 'anna@example.com',
      },
    });
    expect($signup.get()).toMatchObject({
      uuid: UUID,
      email: 'anna@example.com',
      name: 'anna@example.com',
      emailValidity: true,
      isSuccess: true,
      userId: 'user-42',
      deeplinkToken: 'dl-token-1',
      paymentProvider: 'braintree',
      stripe: { key: 'pk_test_abc', name: 'Geozilla Ltd' },
      btToken: 'bt-client-token',
      threeDS: 1,
      paymentSettingsStatus: 'success',
      deeplinkUrl: 'https://gz.example/l/abc',
      deeplinkQR: DEEPLINK.data.qr_code,
      userLocation: 'DE',
    });
    expect(Object.keys($signup.get())).not.toContain('token');
    expect($loader.get().enabled).toBe(false);
    expect(navigate).toHaveBeenCalledWith('/checkout_v3_tr?gclid=1');
    expect(calls.map((call) => call.url).sort()).toEqual([
      '/api/cf-country',
      '/api/signup',
      '/api/users/me/deeplink-qr-code',
      '/api/users/me/payments-settings',
    ]);
  });

  it('goes on with what the worker defaulted: no user id, no gateway, no QR image', async () => {
    healthyApi({
      '/api/signup': [ok({ data: { deeplink_token: '', entity: { external_user_id: null } } })],
      '/api/users/me/payments-settings': [
        ok({ ...SETTINGS, payment_gateway: null, request_three_d_secure: false }),
      ],
      '/api/users/me/deeplink-qr-code': [ok({ data: { ...DEEPLINK.data, qr_code: null } })],
    });
    expect(await signUpWithEmail('anna@example.com', context)).toBe(true);
    expect($signup.get()).toMatchObject({
      isSuccess: true,
      userId: '',
      // SPEC.md §4: the provider defaults to the card provider.
      paymentProvider: 'stripe',
      threeDS: 0,
      paymentSettingsStatus: 'success',
      deeplinkUrl: DEEPLINK.data.short_deeplink,
      deeplinkQR: '',
    });
    expect($events.get().analyticsData.user_id).toBe('');
    expect(navigate).toHaveBeenCalledWith('/checkout_v3_tr?gclid=1');
  });

  it('keeps the provider the worker routed the checkout to, and the card form follows it', async () => {
    healthyApi({
      '/api/signup': [ok(ACCOUNT)],
      // Braintree is the product API's; the worker routed this checkout around it.
      '/api/users/me/payments-settings': [ok({ ...SETTINGS, payment_provider: 'stripe' })],
      '/api/users/me/deeplink-qr-code': [ok(DEEPLINK)],
    });
    expect(await signUpWithEmail('anna@example.com', context)).toBe(true);
    expect($signup.get()).toMatchObject({ paymentProvider: 'braintree', cardProvider: 'stripe' });
    expect(chooseProvider($signup.get(), { forceDirect: false })).toEqual({
      id: 'stripe',
      route: 'polling',
    });
    // A checkout id that forces the alternate provider keeps forcing it.
    expect(chooseProvider($signup.get(), { forceDirect: true }).id).toBe('braintree');
    // With the test gateway, Braintree's part is the direct route.
    expect(
      chooseProvider(
        { paymentProvider: 'test', cardProvider: 'braintree' },
        { forceDirect: false },
      ),
    ).toEqual({
      id: 'test',
      route: 'direct',
    });
  });

  it('shows the overlay while the account is being created', async () => {
    let loadingDuringCall: unknown;
    healthyApi({
      '/api/signup': [
        () => {
          loadingDuringCall = $loader.get();
          return ok(ACCOUNT);
        },
      ],
    });
    await signUpWithEmail('anna@example.com', context);
    expect(loadingDuringCall).toEqual({ enabled: true, message: 'Creating your account…' });
  });

  it('retries payment settings twice, 1000 ms apart, and succeeds on the last try', async () => {
    const calls = healthyApi({
      '/api/users/me/payments-settings': [failed(500), failed(500), ok(SETTINGS)],
    });
    await signUpWithEmail('anna@example.com', context);
    expect(calls.filter((c) => c.url === '/api/users/me/payments-settings')).toHaveLength(3);
    expect(pauses).toEqual([1000, 1000]);
    expect($signup.get().paymentSettingsStatus).toBe('success');
    expect(navigate).toHaveBeenCalled();
  });

  it('after the retries: status fail, the default card provider, and the visitor moves on', async () => {
    const calls = healthyApi({
      '/api/users/me/payments-settings': [failed(500, [], 'portal_error')],
    });
    await signUpWithEmail('anna@example.com', context);
    expect(calls.filter((c) => c.url === '/api/users/me/payments-settings')).toHaveLength(3);
    expect($signup.get()).toMatchObject({
      paymentSettingsStatus: 'fail',
      paymentProvider: 'stripe',
      stripe: { key: '', name: '' },
      isSuccess: true,
    });
    expect($loader.get().enabled).toBe(false);
    expect(navigate).toHaveBeenCalledWith('/checkout_v3_tr?gclid=1');
  });

  it('deeplink and country failures are only logged and change nothing', async () => {
    $signup.set({ ...$signup.get(), deeplinkUrl: '', deeplinkQR: '', userLocation: null });
    healthyApi({
      '/api/users/me/deeplink-qr-code': [failed(502, [], 'portal_unavailable')],
      // Not the worker's answer (which the page no longer parses with the contract): not an object.
      '/api/cf-country': [ok(['not', 'an', 'answer'])],
    });
    expect(await signUpWithEmail('anna@example.com', context)).toBe(true);
    expect($signup.get()).toMatchObject({ deeplinkUrl: '', deeplinkQR: '', userLocation: null });
    expect(console.info).toHaveBeenCalledTimes(2);
    expect($error.get().show).toBe(false);
    expect(navigate).toHaveBeenCalled();
  });

  it.each([
    [failed(422, ['The email has already been taken.']), TEXTS.email_exists],
    // A message is never shown as it is: the worker maps them, and the page keeps to its texts.
    [failed(422, ['The name may not be greater than 200 characters.']), TEXTS.signup_failed],
    [failed(500, ['Emulated failure of signup']), TEXTS.signup_failed],
    [failed(502, [], 'portal_unavailable'), TEXTS.signup_failed],
    [failed(429, ['Too Many Requests'], 'rate_limited'), TEXTS.rate_limited],
  ])('on failure shows the mapped text, clears loading and stays (%#)', async (answer, text) => {
    const calls = healthyApi({ '/api/signup': [answer] });
    expect(await signUpWithEmail('anna@example.com', context)).toBe(false);
    expect($error.get()).toEqual({ show: true, message: text });
    expect($loader.get().enabled).toBe(false);
    expect($signup.get().isSuccess).toBe(false);
    expect(navigate).not.toHaveBeenCalled();
    expect(calls.map((call) => call.url)).toEqual(['/api/signup']);
  });

  it('a network failure is "Failed to create an account"', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    expect(await signUpWithEmail('anna@example.com', context)).toBe(false);
    expect($error.get().message).toBe(TEXTS.signup_failed);
  });
});

describe('Google sign-up (SPEC.md §4: the same path, with the provider google)', () => {
  it('sends the credential to the worker and follows the email success path', async () => {
    const calls = healthyApi();
    expect(await signUpWithGoogle('eyJhbGciOi.payload.signature', context)).toBe(true);
    expect(calls[0]).toEqual({
      url: '/api/authorize_social_via_access_token',
      method: 'POST',
      body: {
        access_token: 'eyJhbGciOi.payload.signature',
        driver: 'google',
        landing_type: 'split_default',
        user_uuid: UUID,
      },
    });
    expect($signup.get()).toMatchObject({ isSuccess: true, userId: 'user-42' });
    expect(navigate).toHaveBeenCalledWith('/checkout_v3_tr?gclid=1');
  });

  it('a refused credential reads the §8 Google text', async () => {
    healthyApi({
      '/api/authorize_social_via_access_token': [
        failed(401, ['Invalid token'], 'google_token_invalid'),
      ],
    });
    expect(await signUpWithGoogle('forged', context)).toBe(false);
    expect($error.get().message).toBe(TEXTS.google_sign_in_failed);
    expect(navigate).not.toHaveBeenCalled();
  });
});
