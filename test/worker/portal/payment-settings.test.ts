import { describe, expect, it, vi } from 'vitest';
import { PaymentSettingsResponse } from '../../../shared/api/contract';
import { bearer, callPortal, failureOf, signUp } from './portal-client';

async function settingsWith(bindings: Record<string, string>) {
  const { accessToken } = await signUp();
  const response = await callPortal(
    '/users/me/payments-settings',
    { headers: bearer(accessToken) },
    bindings,
  );
  expect(response.status).toBe(200);
  return PaymentSettingsResponse.parse(await response.json());
}

describe('GET /users/me/payments-settings', () => {
  it('names the test gateway by default, with no provider keys', async () => {
    expect(await settingsWith({})).toEqual({
      payment_gateway: 'test',
      stripe_publishable_key: null,
      stripe_account_name: 'Geofunnel test gateway',
      braintree_client_token: null,
      request_three_d_secure: false,
    });
  });

  it('answers the configured gateway, keys and 3-D Secure switch', async () => {
    expect(
      await settingsWith({
        PORTAL_PAYMENT_GATEWAY: 'stripe',
        PORTAL_STRIPE_PUBLISHABLE_KEY: 'pk_test_123',
        PORTAL_STRIPE_ACCOUNT_NAME: 'Geozilla',
        PORTAL_BRAINTREE_CLIENT_TOKEN: 'bt_token',
        PORTAL_REQUEST_THREE_D_SECURE: 'true',
      }),
    ).toEqual({
      payment_gateway: 'stripe',
      stripe_publishable_key: 'pk_test_123',
      stripe_account_name: 'Geozilla',
      braintree_client_token: 'bt_token',
      request_three_d_secure: true,
    });
    expect(await settingsWith({ PORTAL_PAYMENT_GATEWAY: 'braintree' })).toMatchObject({
      payment_gateway: 'braintree',
      stripe_account_name: null,
    });
  });

  it('falls back to the test gateway and logs when the configured one is unknown', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      expect(await settingsWith({ PORTAL_PAYMENT_GATEWAY: 'paypal' })).toMatchObject({
        payment_gateway: 'test',
      });
      const line = JSON.parse(String(logged.mock.calls.at(-1)?.[0]));
      expect(line).toMatchObject({
        level: 'error',
        error: 'portal_invalid_payment_gateway',
        configured: 'paypal',
        used: 'test',
      });
    } finally {
      logged.mockRestore();
    }
  });

  it.each([
    ['no authorization header', {}],
    ['an unknown token', bearer('not-a-token-the-portal-gave')],
    ['a token without the Bearer scheme', { authorization: 'Basic dXNlcjpwYXNz' }],
  ])('answers 401 Unauthenticated. with %s', async (_, headers) => {
    const response = await callPortal('/users/me/payments-settings', { headers });
    expect(await failureOf(response)).toEqual({
      status: 401,
      code: 'unauthenticated',
      messages: ['Unauthenticated.'],
    });
  });
});
