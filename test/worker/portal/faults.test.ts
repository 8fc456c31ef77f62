import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import {
  FAULT_CALLS,
  type FaultCall,
  switchFaultOn,
  switchFaultOnUntil,
} from '../../../portal/faults';
import { PaymentSettingsResponse, PollingStartResponse } from '../../../shared/api/contract';
import { CARDS, tokenize } from '../test-gateway/gateway-client';
import {
  bearer,
  callPortal,
  failNext,
  failureOf,
  freshEmail,
  googleIdToken,
  postJson,
  signUp,
  signupBody,
} from './portal-client';

function remaining(call: string) {
  return env.PORTAL_DB.prepare('SELECT remaining FROM emulator_faults WHERE call = ?')
    .bind(call)
    .first('remaining');
}

describe('the emulator’s failure switch', () => {
  it('fails exactly the switched-on number of payment-settings calls, then answers again', async () => {
    const { accessToken } = await signUp();
    await failNext('payments-settings', 2);
    const call = () => callPortal('/users/me/payments-settings', { headers: bearer(accessToken) });

    for (const left of [1, 0]) {
      expect(await failureOf(await call())).toEqual({
        status: 500,
        code: 'emulated_failure',
        messages: ['Emulated failure of payments-settings'],
      });
      expect(await remaining('payments-settings')).toBe(left);
    }
    const third = await call();
    expect(third.status).toBe(200);
    PaymentSettingsResponse.parse(await third.json());
  });

  it('leaves other calls alone', async () => {
    await failNext('cf-country', 1);
    const { accessToken } = await signUp();
    const settings = await callPortal('/users/me/payments-settings', {
      headers: bearer(accessToken),
    });
    expect(settings.status).toBe(200);
    expect(await remaining('cf-country')).toBe(1);
    expect((await callPortal('/cf-country')).status).toBe(500);
    expect((await callPortal('/cf-country')).status).toBe(200);
  });

  it('fails a signup without making the account', async () => {
    const body = signupBody();
    await failNext('signup', 1);
    expect((await postJson('/signup', body)).status).toBe(500);
    expect((await postJson('/signup', body)).status).toBe(200);
  });

  it('is set, replaced and switched off by switchFaultOn (what npm run portal -- fail uses)', async () => {
    await switchFaultOn(env.PORTAL_DB, 'subscriptions', 3);
    expect(await remaining('subscriptions')).toBe(3);
    await switchFaultOn(env.PORTAL_DB, 'subscriptions', 1);
    expect(await remaining('subscriptions')).toBe(1);
    await switchFaultOn(env.PORTAL_DB, 'subscriptions', 0);
    expect(await remaining('subscriptions')).toBe(0);
  });

  it('writes the delay and the timing npm run portal -- fail --delay --after gives it', async () => {
    const row = () =>
      env.PORTAL_DB.prepare(
        'SELECT remaining, until_ms, after_work, delay_ms FROM emulator_faults WHERE call = ?',
      )
        .bind('charge-stripe')
        .first();
    await switchFaultOn(env.PORTAL_DB, 'charge-stripe', 2, { timing: 'after', delayMs: 300 });
    expect(await row()).toEqual({ remaining: 2, until_ms: null, after_work: 1, delay_ms: 300 });
    // A plain switch after it is plain again.
    await switchFaultOn(env.PORTAL_DB, 'charge-stripe', 1);
    expect(await row()).toEqual({ remaining: 1, until_ms: null, after_work: 0, delay_ms: 0 });
  });

  it('--delay --after: the next charge is made and answered late, the one after at once', async () => {
    const { accessToken, userId } = await signUp();
    await switchFaultOn(env.PORTAL_DB, 'charge-stripe', 1, { timing: 'after', delayMs: 300 });
    const pay = async () => {
      const started = Date.now();
      const response = await postJson(
        '/users/me/subscriptions/monthly_usd',
        {
          gateway: 'test',
          payment_method_nonce: await tokenize(CARDS.succeeds),
          payment_provider: 'stripe',
          user_data: { price: '39.99' },
        },
        bearer(accessToken),
      );
      return { status: response.status, tookMs: Date.now() - started };
    };
    const late = await pay();
    expect(late.status).toBe(200);
    expect(late.tookMs).toBeGreaterThanOrEqual(300);
    const charged = () =>
      env.PORTAL_DB.prepare('SELECT count(*) AS n FROM subscriptions WHERE user_id = ?')
        .bind(userId)
        .first('n');
    expect(await charged()).toBe(1);
    expect((await pay()).tookMs).toBeLessThan(300);
  });

  it('switches every call the portal serves, each by its own name', async () => {
    const { accessToken, deeplinkToken } = await signUp();
    const auth = { headers: bearer(accessToken) };
    const charge = {
      gateway: 'stripe',
      payment_method_nonce: 'pm_card_visa',
      user_data: { price: 6.99 },
    };
    const started = await postJson(
      '/users/me/subscriptions/polling/monthly_usd',
      charge,
      auth.headers,
    );
    const pollingId = PollingStartResponse.parse(await started.json()).data.polling_result_id;
    // One request per name; the type makes a new name without a request here a compile error.
    const requests: Record<FaultCall, () => Promise<Response>> = {
      signup: () => postJson('/signup', signupBody()),
      'authorize-social': () =>
        postJson('/authorize_social_via_access_token', {
          access_token: googleIdToken({ sub: crypto.randomUUID(), email: freshEmail() }),
          driver: 'google',
          landing_type: 'signup',
          user_uuid: crypto.randomUUID(),
        }),
      'payments-settings': () => callPortal('/users/me/payments-settings', auth),
      'deeplink-qr-code': () => callPortal('/users/me/deeplink-qr-code', auth),
      'deeplink-consume': () => postJson('/deeplink/consume', { token: deeplinkToken }),
      'cf-country': () => callPortal('/cf-country'),
      'phone-number-info': () => callPortal('/phone-number-info/%2B12025550143'),
      'subscriptions-polling': () =>
        postJson('/users/me/subscriptions/polling/monthly_usd', charge, auth.headers),
      'polling-result': () => callPortal(`/polling/get-result/${pollingId}`),
      subscriptions: () => postJson('/users/me/subscriptions/monthly_usd', charge, auth.headers),
      'attempts-close': () =>
        postJson('/users/me/subscriptions/attempts/close', null, {
          ...auth.headers,
          'idempotency-key': `close-${crypto.randomUUID()}`,
        }),
      // A provider's fake follows the charge's `payment_provider`, not the route it came by.
      'charge-stripe': () =>
        postJson(
          '/users/me/subscriptions/monthly_usd',
          { ...charge, payment_provider: 'stripe' },
          auth.headers,
        ),
      'charge-braintree': () =>
        postJson(
          '/users/me/subscriptions/polling/monthly_usd',
          { ...charge, payment_provider: 'braintree' },
          auth.headers,
        ),
    };

    for (const call of FAULT_CALLS) {
      await failNext(call, 1);
      expect(await failureOf(await requests[call]()), call).toEqual({
        status: 500,
        code: 'emulated_failure',
        messages: [`Emulated failure of ${call}`],
      });
      expect([200, 202], call).toContain((await requests[call]()).status);
    }
  });
});

describe('faults for a while (npm run load)', () => {
  const subscribe = (accessToken: string, key: string, nonce: string) =>
    callPortal(
      '/users/me/subscriptions/polling/monthly_usd',
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'idempotency-key': key,
          ...bearer(accessToken),
        },
        body: JSON.stringify({
          gateway: 'test',
          payment_method_nonce: nonce,
          coupon: null,
          user_data: { price: '39.99' },
        }),
      },
      { PORTAL_POLLING_DELAY_MS: '0' },
    );

  it('every call fails until the time is up, then answers again', async () => {
    const { accessToken } = await signUp();
    await switchFaultOnUntil(env.PORTAL_DB, 'payments-settings', Date.now() + 60_000, 'before');
    const call = () => callPortal('/users/me/payments-settings', { headers: bearer(accessToken) });
    for (let n = 0; n < 3; n += 1) expect((await call()).status).toBe(500);
    await switchFaultOnUntil(env.PORTAL_DB, 'payments-settings', Date.now() - 1, 'before');
    expect((await call()).status).toBe(200);
  });

  it("'after': the charge is made and its answer lost; the same key then answers that charge", async () => {
    const { accessToken, userId } = await signUp();
    await switchFaultOnUntil(env.PORTAL_DB, 'subscriptions-polling', Date.now() + 60_000, 'after');
    const key = crypto.randomUUID();
    const card = await tokenize(CARDS.succeeds);
    expect((await subscribe(accessToken, key, card)).status).toBe(500);
    const charged = await env.PORTAL_DB.prepare(
      'SELECT count(*) AS n FROM subscriptions WHERE user_id = ?',
    )
      .bind(userId)
      .first('n');
    expect(charged).toBe(1);

    await switchFaultOn(env.PORTAL_DB, 'subscriptions-polling', 0);
    const again = await subscribe(accessToken, key, card);
    expect(again.status).toBe(200);
    PollingStartResponse.parse(await again.json());
    expect(
      await env.PORTAL_DB.prepare('SELECT count(*) AS n FROM subscriptions WHERE user_id = ?')
        .bind(userId)
        .first('n'),
    ).toBe(1);
  });
});
